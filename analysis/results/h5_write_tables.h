#pragma once
// Internal to the writer: one function per part of the layout in schema.h.
#include <hdf5.h>

#include <string>
#include <vector>

#include "analysis/results/run_data.h"

namespace xoff::analysis::detail {

void write_meta(hid_t file, const RunMetadata& meta);
void write_flows(hid_t file, const std::vector<models::FlowRecord>& flows);
void write_collectives(hid_t file, const std::vector<models::CollectiveRecord>& collectives);
void write_counters(hid_t file, const std::vector<models::QueueCounters>& queues,
                    const std::vector<models::DropCounters>& drops);
void write_buffers(hid_t file, const std::vector<models::BufferCounters>& buffers);
void write_events(hid_t file, const RunData& run);
void write_series(hid_t file, const std::vector<SeriesData>& series,
                  const std::vector<std::string>& keys);
void write_topology(hid_t file, const std::vector<TopologyNode>& nodes,
                    const std::vector<TopologyLink>& links);

}  // namespace xoff::analysis::detail
