// Handles, errors, groups and attributes; column datasets are in h5_columns.cc.
#include "analysis/results/h5_io.h"

#include <utility>

#include "analysis/results/results_error.h"

namespace xoff::analysis::h5 {
namespace {

// H5E_WALK_UPWARD starts at the most specific entry (e.g. the errno text of a failed
// open); keep that one.
herr_t take_first_description(unsigned, const H5E_error2_t* err, void* out) {
  auto& text = *static_cast<std::string*>(out);
  if (text.empty() && err->desc != nullptr) text = err->desc;
  return 0;
}

bool tracks_creation_order(hid_t group) {
  // A file id stands for its root group; its creation list is the file's.
  const hid_t plist =
      H5Iget_type(group) == H5I_FILE ? H5Fget_create_plist(group) : H5Gget_create_plist(group);
  Handle gcpl(check_id(plist, "get group creation property list"), H5Pclose);
  unsigned flags = 0;
  check_status(H5Pget_link_creation_order(gcpl, &flags), "get link creation order");
  return (flags & H5P_CRT_ORDER_INDEXED) != 0;
}

Handle group_creation_plist() {
  Handle p(check_id(H5Pcreate(H5P_GROUP_CREATE), "create group property list"), H5Pclose);
  check_status(H5Pset_link_creation_order(p, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track link creation order");
  check_status(H5Pset_obj_track_times(p, 0), "disable group timestamps");
  return p;
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    (void)close();
    id_ = std::exchange(o.id_, H5I_INVALID_HID);
    closer_ = o.closer_;
  }
  return *this;
}

herr_t Handle::close() {
  if (id_ < 0 || closer_ == nullptr) return 0;
  const herr_t status = closer_(std::exchange(id_, H5I_INVALID_HID));
  return status;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

void fail(const std::string& what) {
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_first_description, &detail);
  H5Eclear2(H5E_DEFAULT);
  throw ResultsError("", detail.empty() ? what : what + " (HDF5: " + detail + ")");
}

hid_t check_id(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}

void check_status(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

Handle create_group(hid_t parent, const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && !has_link(parent, path.substr(0, slash))) {
    (void)create_group(parent, path.substr(0, slash));
  }
  const Handle gcpl = group_creation_plist();
  return Handle(check_id(H5Gcreate2(parent, path.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT),
                         "create group /" + path),
                H5Gclose);
}

Handle open_group(hid_t parent, const std::string& path) {
  if (!has_link(parent, path)) throw ResultsError("", "missing group /" + path);
  return Handle(check_id(H5Gopen2(parent, path.c_str(), H5P_DEFAULT), "open group /" + path),
                H5Gclose);
}

bool has_link(hid_t parent, const std::string& path) {
  // H5Lexists does not walk intermediate links itself: check each prefix.
  size_t from = 0;
  while (true) {
    const size_t slash = path.find('/', from);
    const std::string prefix = path.substr(0, slash);
    if (H5Lexists(parent, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    from = slash + 1;
  }
}

std::vector<std::string> child_names(hid_t group) {
  H5G_info_t info;
  check_status(H5Gget_info(group, &info), "get group info");
  const H5_index_t order = tracks_creation_order(group) ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t len =
        H5Lget_name_by_idx(group, ".", order, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    check_status(static_cast<herr_t>(len < 0 ? -1 : 0), "list group members");
    std::string name(static_cast<size_t>(len), '\0');
    H5Lget_name_by_idx(group, ".", order, H5_ITER_INC, i, name.data(), name.size() + 1,
                       H5P_DEFAULT);
    names.push_back(std::move(name));
  }
  return names;
}

template <>
hid_t native_type<int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
hid_t native_type<uint64_t>() {
  return H5T_NATIVE_UINT64;
}
template <>
hid_t native_type<int32_t>() {
  return H5T_NATIVE_INT32;
}
template <>
hid_t native_type<uint32_t>() {
  return H5T_NATIVE_UINT32;
}
template <>
hid_t native_type<uint16_t>() {
  return H5T_NATIVE_UINT16;
}
template <>
hid_t native_type<uint8_t>() {
  return H5T_NATIVE_UINT8;
}
template <>
hid_t native_type<double>() {
  return H5T_NATIVE_DOUBLE;
}

void write_raw_attr(hid_t obj, const char* name, hid_t mem_type, const void* value) {
  const std::string what = std::string("write attribute ") + name;
  Handle space(check_id(H5Screate(H5S_SCALAR), what), H5Sclose);
  Handle attr(check_id(H5Acreate2(obj, name, mem_type, space, H5P_DEFAULT, H5P_DEFAULT), what),
              H5Aclose);
  check_status(H5Awrite(attr, mem_type, value), what);
}

void write_attr(hid_t obj, const char* name, const std::string& value) {
  const Handle type = utf8_string_type();
  const char* text = value.c_str();
  write_raw_attr(obj, name, type, &text);
}

void read_raw_attr(hid_t obj, const char* name, hid_t mem_type, void* out) {
  const std::string what = std::string("read attribute ") + name;
  if (!has_attr(obj, name)) throw ResultsError("", "missing attribute " + std::string(name));
  Handle attr(check_id(H5Aopen(obj, name, H5P_DEFAULT), what), H5Aclose);
  check_status(H5Aread(attr, mem_type, out), what);
}

std::string read_string_attr(hid_t obj, const char* name) {
  const Handle type = utf8_string_type();
  char* text = nullptr;
  read_raw_attr(obj, name, type, &text);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  return value;
}

bool has_attr(hid_t obj, const char* name) { return H5Aexists(obj, name) > 0; }

Handle utf8_string_type() {
  Handle t(check_id(H5Tcopy(H5T_C_S1), "copy string type"), H5Tclose);
  check_status(H5Tset_size(t, H5T_VARIABLE), "set variable string size");
  check_status(H5Tset_cset(t, H5T_CSET_UTF8), "set UTF-8 character set");
  return t;
}

}  // namespace xoff::analysis::h5
