// Column datasets: one 1-D dataset per table column. Series longer than
// kCompressFrom elements are chunked and deflated (zlib output is deterministic).
#include <algorithm>

#include "analysis/results/h5_io.h"
#include "analysis/results/results_error.h"

namespace xoff::analysis::h5 {
namespace {

constexpr hsize_t kCompressFrom = 4096;
constexpr hsize_t kChunk = 16384;
constexpr unsigned kDeflateLevel = 4;

Handle dataset_creation_plist(hsize_t n) {
  Handle p(check_id(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list"), H5Pclose);
  check_status(H5Pset_obj_track_times(p, 0), "disable dataset timestamps");
  if (n >= kCompressFrom && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    const hsize_t chunk = std::min(n, kChunk);
    check_status(H5Pset_chunk(p, 1, &chunk), "set chunk size");
    check_status(H5Pset_deflate(p, kDeflateLevel), "set deflate");
  }
  return p;
}

Handle open_column(hid_t group, const char* name) {
  if (H5Lexists(group, name, H5P_DEFAULT) <= 0) {
    throw ResultsError("", std::string("missing column ") + name);
  }
  return Handle(check_id(H5Dopen2(group, name, H5P_DEFAULT), std::string("open ") + name),
                H5Dclose);
}

void reclaim_strings(hid_t type, size_t n, std::vector<char*>& buf) {
  const hsize_t dims = n;
  Handle space(check_id(H5Screate_simple(1, &dims, nullptr), "create dataspace"), H5Sclose);
#if H5_VERSION_GE(1, 12, 0)
  H5Treclaim(type, space, H5P_DEFAULT, buf.data());
#else
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, buf.data());
#endif
}

}  // namespace

void write_raw_column(hid_t group, const char* name, hid_t mem_type, const void* data, size_t n) {
  const std::string what = std::string("write column ") + name;
  const hsize_t dims = n;
  Handle space(check_id(H5Screate_simple(1, &dims, nullptr), what), H5Sclose);
  const Handle dcpl = dataset_creation_plist(dims);
  Handle set(
      check_id(H5Dcreate2(group, name, mem_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what),
      H5Dclose);
  if (n > 0) check_status(H5Dwrite(set, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), what);
  check_status(set.close(), what);
}

void write_strings(hid_t group, const char* name, const std::vector<std::string>& v) {
  std::vector<const char*> ptrs;
  ptrs.reserve(v.size());
  for (const auto& s : v) ptrs.push_back(s.c_str());
  const Handle type = utf8_string_type();
  write_raw_column(group, name, type, ptrs.data(), ptrs.size());
}

size_t column_length(hid_t group, const char* name) {
  const Handle set = open_column(group, name);
  Handle space(check_id(H5Dget_space(set), std::string("get dataspace of ") + name), H5Sclose);
  if (H5Sget_simple_extent_ndims(space) != 1) {
    throw ResultsError("", std::string("column ") + name + " is not one-dimensional");
  }
  hsize_t dims = 0;
  check_status(H5Sget_simple_extent_dims(space, &dims, nullptr),
               std::string("get length of ") + name);
  return static_cast<size_t>(dims);
}

void read_raw_column(hid_t group, const char* name, hid_t mem_type, void* out, size_t n) {
  if (n == 0) return;
  const Handle set = open_column(group, name);
  check_status(H5Dread(set, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out),
               std::string("read column ") + name);
}

std::vector<std::string> read_strings(hid_t group, const char* name) {
  const size_t n = column_length(group, name);
  std::vector<char*> buf(n, nullptr);
  const Handle type = utf8_string_type();
  read_raw_column(group, name, type, buf.data(), n);
  std::vector<std::string> out;
  out.reserve(n);
  for (char* s : buf) out.emplace_back(s != nullptr ? s : "");
  if (n > 0) reclaim_strings(type, n, buf);
  return out;
}

}  // namespace xoff::analysis::h5
