#include "analysis/results/run_data.h"

#include "analysis/results/schema.h"

namespace xoff::analysis {

std::string format_deadlock_members(const std::vector<models::DeadlockMember>& members) {
  std::string out;
  for (const auto& m : members) {
    if (!out.empty()) out += schema::events::kMemberSeparator;
    out += m.node + ":" + std::to_string(m.port) + ":" + std::to_string(m.traffic_class);
  }
  return out;
}

}  // namespace xoff::analysis
