#pragma once
// A small but realistic synthetic run for the results tests and the plot fixture:
// a ring of four switches (sw0..sw3, one host each) whose tc3 queues deadlock.
#include "analysis/results/h5_writer.h"

namespace xoff::analysis::fixture {

RunMetadata sample_metadata();

// Records the whole run into `rec`: 24 flows (RoCE and TCP), PFC frames, a watchdog
// storm, the deadlock cycle sw0:1:3 -> sw1:1:3 -> sw2:1:3 -> sw3:1:3, a ring
// AllReduce, queue and drop counters, queue/throughput/pause series, the topology.
void record_sample_run(H5Recorder& rec);

}  // namespace xoff::analysis::fixture
