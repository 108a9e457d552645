// `xoff check`: validates scenario files without running them, and warns about
// setups that are legal but dangerous (routes with a cyclic buffer dependency).
#include <cstdio>

#include "app/commands/commands.h"
#include "app/config/error.h"
#include "app/run/faults.h"
#include "app/scenario/scenario.h"

namespace xoff::app {
namespace {

void warn_cycles(const ScenarioConfig& s) {
  const auto tables = compute_routes(s, models::all_links_up(s.topology));
  const auto cycle = models::find_dependency_cycle(s.topology, tables);
  if (cycle.empty()) return;
  std::string text;
  for (const auto& c : cycle) {
    if (!text.empty()) text += " -> ";
    text += s.topology.nodes[c.node].name + ":p" + std::to_string(c.port);
  }
  std::printf(
      "  warning: routes have a cyclic buffer dependency (%s); a PFC deadlock is possible\n",
      text.c_str());
}

}  // namespace

int cmd_check(const CheckArgs& a) {
  int rc = 0;
  for (const std::string& file : a.scenarios) {
    try {
      std::vector<std::string> overrides;
      if (!a.variant.empty()) overrides.push_back("scenario.variant=" + a.variant);
      overrides.insert(overrides.end(), a.overrides.begin(), a.overrides.end());
      const ScenarioConfig s = load_scenario(file, overrides);
      size_t switches = s.topology.nodes.size() - s.topology.num_hosts();
      const TrafficConfig& tr = s.traffic;
      const size_t generators =
          tr.incasts.size() + tr.permutations.size() + tr.all_to_all.size() + tr.poisson.size();
      std::printf(
          "%s: ok: \"%s\", %u hosts, %zu switches, %zu links; %zu explicit flows, "
          "%zu generators, %zu collectives, %zu rpc probes, %zu faults\n",
          file.c_str(), s.name.c_str(), s.topology.num_hosts(), switches, s.topology.links.size(),
          tr.flows.size(), generators, tr.collectives.size(), tr.rpcs.size(),
          s.link_faults.size() + s.storms.size() + s.pfc_frames.size() + s.slow_receivers.size() +
              s.mismarks.size());
      warn_cycles(s);
      for (const std::string& w : s.qos_warnings) std::printf("  warning: %s\n", w.c_str());
    } catch (const config::ScenarioError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      rc = 2;
    } catch (const std::exception& e) {  // a model refused input the schema let through
      std::fprintf(stderr, "%s: error: %s\n", file.c_str(), e.what());
      rc = 2;
    }
  }
  return rc;
}

}  // namespace xoff::app
