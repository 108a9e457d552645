#pragma once
// H5Recorder: the models' Recorder that buffers every record in memory during the
// run and writes one HDF5 results file at the end (layout: analysis/results/schema.h).
//
// Writing is atomic from the reader's point of view: the file is written to
// temporary_path(path, fingerprint) and renamed onto `path` only once complete and
// closed, so an interrupted or failed run never leaves a file that looks complete.
// The temporary suffix is the run fingerprint in hex: deterministic, no pid, no clock.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/results/results_error.h"
#include "analysis/results/run_data.h"
#include "models/monitor/recorder.h"

namespace xoff::analysis {

class H5Recorder final : public models::Recorder {
 public:
  H5Recorder();

  void flow_finished(const models::FlowRecord& r) override { data_.flows.push_back(r); }
  void flow_unfinished(const models::FlowRecord& r) override { data_.flows.push_back(r); }
  void pfc_event(const models::PfcEventRecord& r) override { data_.pfc_events.push_back(r); }
  void watchdog_event(const models::WatchdogEventRecord& r) override {
    data_.watchdog_events.push_back(r);
  }
  void deadlock(const models::DeadlockRecord& r) override { data_.deadlocks.push_back(r); }
  void collective_finished(const models::CollectiveRecord& r) override {
    data_.collectives.push_back(r);
  }
  // Declaring a name twice returns the first index (and keeps the first unit).
  uint32_t declare_series(const std::string& name, const std::string& unit) override;
  void sample(const models::SamplePoint& p) override;
  void queue_counters(const models::QueueCounters& c) override { data_.queues.push_back(c); }
  void drop_counters(const models::DropCounters& c) override { data_.drops.push_back(c); }
  void buffer_counters(const models::BufferCounters& c) override { data_.buffers.push_back(c); }

  // The topology, for pictures (/topology). Optional.
  void set_topology(std::vector<TopologyNode> nodes, std::vector<TopologyLink> links);

  // Stores `meta` with the records and writes everything to `path` (see above).
  // Throws ResultsError naming `path` and what failed; then no file is left at
  // `path` by this call and the temporary file is removed.
  void write(const RunMetadata& meta, const std::string& path);

  // Everything recorded so far (the app summarises from it without re-reading).
  const RunData& data() const { return data_; }
  // canonical_order() on what was recorded (before data() is read or written).
  void canonicalize() { canonical_order(data_); }

 private:
  RunData data_;
  std::unordered_map<std::string, uint32_t> series_index_;
};

// Writes `run` (including run.meta) to `path` through a temporary file, as above.
void write_results(const RunData& run, const std::string& path);

// `path` + ".tmp." + this process's id + "." + the fingerprint as 16 hex digits.
std::string temporary_path(const std::string& path, uint64_t fingerprint);

// The /series/<key> for each of `series`, in order: '/' becomes '.', and a key that
// is empty, "." or ".." or repeats an earlier key gets "~<index>" appended.
std::vector<std::string> series_keys(const std::vector<SeriesData>& series);

}  // namespace xoff::analysis
