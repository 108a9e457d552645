#pragma once
// Internal to the reader: table access with length checks, and the readers of
// events, series and topology (h5_read_tables.cc).
#include <string>
#include <vector>

#include "analysis/results/h5_io.h"
#include "analysis/results/results_error.h"
#include "analysis/results/run_data.h"

namespace xoff::analysis::detail {

// A table group whose columns must all have the same length.
class TableReader {
 public:
  TableReader(hid_t file, const char* path) : group_(h5::open_group(file, path)), path_(path) {}

  template <class T>
  std::vector<T> get(const char* name) {
    return checked(h5::read_column<T>(group_, name), name);
  }
  std::vector<std::string> strings(const char* name) {
    return checked(h5::read_strings(group_, name), name);
  }
  size_t rows() const { return rows_; }
  bool has(const char* name) const { return h5::has_link(group_, name); }

 private:
  template <class V>
  V checked(V v, const char* name) {
    if (!first_read_ && v.size() != rows_) {
      throw ResultsError("", "/" + path_ + "/" + name + " has " + std::to_string(v.size()) +
                                 " rows, other columns have " + std::to_string(rows_));
    }
    first_read_ = false;
    rows_ = v.size();
    return v;
  }
  h5::Handle group_;
  std::string path_;
  size_t rows_ = 0;
  bool first_read_ = true;
};

std::vector<models::PfcEventRecord> read_pfc(hid_t file);
std::vector<models::WatchdogEventRecord> read_watchdog(hid_t file);
std::vector<models::DeadlockRecord> read_deadlocks(hid_t file);
std::vector<SeriesData> read_series(hid_t file);
// Fills run.topology_* when the file has /topology.
void read_topology(hid_t file, RunData& run);

}  // namespace xoff::analysis::detail
