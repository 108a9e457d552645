#include "analysis/results/h5_writer.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unordered_set>
#include <vector>

#include "analysis/results/h5_io.h"
#include "analysis/results/h5_write_tables.h"
#include "sim/check.h"

namespace xoff::analysis {
namespace {

// Root group: no timestamps; creation order asked for (HDF5 1.10 ignores it on the
// root, so there h5py lists the top-level groups by name).
h5::Handle file_creation_plist() {
  h5::Handle p(h5::check_id(H5Pcreate(H5P_FILE_CREATE), "create file property list"), H5Pclose);
  h5::check_status(H5Pset_link_creation_order(p, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
                   "track link creation order");
  h5::check_status(H5Pset_obj_track_times(p, 0), "disable root group timestamps");
  return p;
}

// The file is built in memory (HDF5's core driver, no backing store) and
// written out by us: a full disk or a file-size limit is then a failed
// fwrite we report and clean up, never an HDF5 file left half-open, whose
// flush at exit crashed the process.
void write_file(const RunData& run, const std::string& tmp) {
  const h5::Handle fcpl = file_creation_plist();
  h5::Handle fapl(h5::check_id(H5Pcreate(H5P_FILE_ACCESS), "create file access list"), H5Pclose);
  h5::check_status(H5Pset_fapl_core(fapl, size_t{1} << 20, 0), "use the in-memory driver");
  h5::Handle file(h5::check_id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl, fapl), "create " + tmp),
                  H5Fclose);
  detail::write_meta(file, run.meta);
  detail::write_flows(file, run.flows);
  detail::write_collectives(file, run.collectives);
  detail::write_counters(file, run.queues, run.drops);
  detail::write_buffers(file, run.buffers);
  detail::write_events(file, run);
  detail::write_series(file, run.series, series_keys(run.series));
  if (!run.topology_nodes.empty() || !run.topology_links.empty()) {
    detail::write_topology(file, run.topology_nodes, run.topology_links);
  }
  h5::check_status(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + tmp);
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size < 0) throw ResultsError("", "read back the in-memory file");
  std::vector<char> image(static_cast<size_t>(size));
  if (H5Fget_file_image(file, image.data(), image.size()) != size) {
    throw ResultsError("", "read back the in-memory file");
  }
  h5::check_status(file.close(), "close " + tmp);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw ResultsError("", "create " + tmp + ": " + std::strerror(errno));
  const bool written = std::fwrite(image.data(), 1, image.size(), f) == image.size();
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    throw ResultsError("", "write " + tmp + ": " + std::strerror(written ? errno : err));
  }
}

}  // namespace

H5Recorder::H5Recorder() {
  data_.flows.reserve(1024);
  data_.pfc_events.reserve(4096);
  data_.queues.reserve(256);
}

uint32_t H5Recorder::declare_series(const std::string& name, const std::string& unit) {
  const auto [it, inserted] =
      series_index_.try_emplace(name, static_cast<uint32_t>(data_.series.size()));
  if (inserted) {
    SeriesData& s = data_.series.emplace_back();
    s.name = name;
    s.unit = unit;
    s.time_ps.reserve(1024);
    s.value.reserve(1024);
  }
  return it->second;
}

void H5Recorder::sample(const models::SamplePoint& p) {
  XOFF_CHECK(p.series < data_.series.size(), "sample for an undeclared series");
  SeriesData& s = data_.series[p.series];
  s.time_ps.push_back(p.time.count_ps());
  s.value.push_back(p.value);
}

void H5Recorder::set_topology(std::vector<TopologyNode> nodes, std::vector<TopologyLink> links) {
  data_.topology_nodes = std::move(nodes);
  data_.topology_links = std::move(links);
}

void H5Recorder::write(const RunMetadata& meta, const std::string& path) {
  data_.meta = meta;
  write_results(data_, path);
}

// Temporary files of `path` left by writers that were killed (their process
// no longer exists) are removed; a live writer's file is left alone.
static void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string prefix = p.filename().string() + ".tmp.";
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove(e.path(), ec);
    }
  }
}

void write_results(const RunData& run, const std::string& path) {
  remove_stale_temporaries(path);
  const std::string tmp = temporary_path(path, run.meta.fingerprint);
  const h5::QuietErrors quiet;
  std::error_code ignored;
  try {
    write_file(run, tmp);
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw ResultsError("", "rename " + tmp + " to " + path + ": " + ec.message());
  } catch (const ResultsError& e) {
    std::filesystem::remove(tmp, ignored);
    throw ResultsError(path, e.what_failed());
  } catch (...) {
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

// Unique per process: two runs writing the same -o at once (a sweep gone
// wrong, two shells) each write their own file and the last rename wins with
// a whole file, never an interleaving.
std::string temporary_path(const std::string& path, uint64_t fingerprint) {
  char tail[48];
  std::snprintf(tail, sizeof tail, ".tmp.%ld.%016llx", static_cast<long>(getpid()),
                static_cast<unsigned long long>(fingerprint));
  return path + tail;
}

std::vector<std::string> series_keys(const std::vector<SeriesData>& series) {
  std::vector<std::string> keys;
  std::unordered_set<std::string> used;
  keys.reserve(series.size());
  for (size_t i = 0; i < series.size(); ++i) {
    std::string key = series[i].name;
    for (char& c : key) {
      if (c == '/') c = '.';
    }
    // append() rather than "~" + to_string(i): GCC 12 -Wrestrict false positive.
    const std::string suffix = std::string(1, '~').append(std::to_string(i));
    if (key.empty() || key == "." || key == "..") key += suffix;
    while (used.contains(key)) key += suffix;
    used.insert(key);
    keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace xoff::analysis
