#include "analysis/results/run_data.h"

#include <algorithm>

#include "analysis/results/schema.h"

namespace xoff::analysis {

void canonical_order(RunData& d) {
  std::stable_sort(d.flows.begin(), d.flows.end(),
                   [](const auto& a, const auto& b) { return a.flow_id < b.flow_id; });
  const auto by_time_node = [](const auto& a, const auto& b) {
    return a.time != b.time ? a.time < b.time : a.node < b.node;
  };
  std::stable_sort(d.pfc_events.begin(), d.pfc_events.end(), by_time_node);
  std::stable_sort(d.watchdog_events.begin(), d.watchdog_events.end(), by_time_node);
  // In completion order; names are unique, so a tie cannot depend on which
  // part of a partitioned run reported first.
  std::stable_sort(d.collectives.begin(), d.collectives.end(), [](const auto& a, const auto& b) {
    return a.finish != b.finish ? a.finish < b.finish : a.name < b.name;
  });
}

std::string format_deadlock_members(const std::vector<models::DeadlockMember>& members) {
  std::string out;
  for (const auto& m : members) {
    if (!out.empty()) out += schema::events::kMemberSeparator;
    out += m.node + ":" + std::to_string(m.port) + ":" + std::to_string(m.traffic_class);
  }
  return out;
}

}  // namespace xoff::analysis
