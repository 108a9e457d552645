// Scale: whole runs of the same traffic on spine-leaf fabrics of 16 to 4,096
// hosts, to show whether the cost per event and the memory per host and per
// flow stay flat as the fabric grows (bench/README.md "Scale").
//
// Two traffic kinds, each a committed TOML file sized by overrides:
//   Scale/permutation/hosts:H   bench/scenarios/scale_permutation.toml
//   Scale/ring/hosts:H          bench/scenarios/scale_ring.toml (64 KB per rank)
//   Scale/fat_tree/hosts:H      bench/scenarios/fat_tree_128.toml, k = 4, 8, 16
//                               (16, 128, 1,024 hosts); run to completion; the
//                               128-host point is the cross-simulator workload
// H = L leaves x L hosts per leaf... (see kSizes), every link 100 Gb/s,
// non-blocking, PFC + ECN/DCQCN, deadlock detection on, 300 us simulated.
//
// Timed: World::run only (not the build). Counters: events/s (items),
// pkt_hops/s (frames put on any link per CPU second), events/hop, flows,
// world_MB (heap bytes the world holds at the end of the run, from
// mallinfo2: independent of what other cases left behind), B/host and B/flow
// (world bytes over hosts and over planned flows), peak_rss_MB (the process's
// high-water mark, app::memory_use: a true peak only when one case runs alone, e.g. with
// --benchmark_filter). XOFF_BENCH_LOOKAHEAD: see lookahead_override().
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "app/config/error.h"
#include "app/run/huge_pages.h"
#include "app/run/world.h"
#include "app/scenario/scenario.h"
#include "models/monitor/recorder.h"
#include "sim/log.h"

#ifndef XOFF_SOURCE_DIR
#error "XOFF_SOURCE_DIR must name the source tree (bench/CMakeLists.txt sets it)"
#endif

namespace {
using namespace xoff;

struct Size {
  int hosts, leaves, hosts_per_leaf, spines;
};
// Non-blocking at 100G: spines = hosts per leaf (each leaf has as many
// uplinks as hosts). 16 is the smoke size.
constexpr Size kSizes[] = {{16, 4, 4, 4}, {128, 8, 16, 16}, {1024, 32, 32, 32}, {4096, 64, 64, 64}};

// Fat-trees of k-port switches: k^3 / 4 hosts.
constexpr int kFatTreeK[] = {4, 8, 16};

struct Kind {
  const char* name;
  const char* path;
  bool ring;
};
constexpr Kind kKinds[] = {
    {"permutation", "bench/scenarios/scale_permutation.toml", false},
    {"ring", "bench/scenarios/scale_ring.toml", true},
};

int64_t packet_hops(models::Network& net) {
  int64_t hops = 0;
  for (size_t n = 0; n < net.num_nodes(); ++n) {
    models::Node& node = net.node(models::NodeId(static_cast<uint32_t>(n)));
    for (size_t p = 0; p < node.num_ports(); ++p) {
      const models::PortCounters& c =
          node.port(models::PortIndex(static_cast<uint16_t>(p))).counters();
      hops += c.control_packets;
      for (int64_t k : c.tx_packets) hops += k;
    }
  }
  return hops;
}

double heap_in_use() { return static_cast<double>(mallinfo2().uordblks); }

// XOFF_BENCH_LOOKAHEAD=deep|shallow forces the simulator's lookahead depth
// (sim::Simulator::set_deep_lookahead) to compare both on one binary in the
// same minutes; unset, the world's own choice (deep from 2,048 ports).
int lookahead_override() {
  static const int v = [] {
    const char* e = std::getenv("XOFF_BENCH_LOOKAHEAD");
    if (e == nullptr) return -1;
    return std::string(e) == "deep" ? 1 : std::string(e) == "shallow" ? 0 : -1;
  }();
  return v;
}

void RunScale(benchmark::State& state, const app::ScenarioConfig& cfg) {
  uint64_t events = 0;
  int64_t hops = 0;
  double world_bytes = 0;
  double flows = 0;
  double finished = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const double before = heap_in_use();
    models::Recorder recorder;  // keeps nothing
    auto w = std::make_unique<app::World>(cfg, recorder);
    if (lookahead_override() >= 0) w->sim().set_deep_lookahead(lookahead_override() == 1);
    w->start();
    state.ResumeTiming();

    w->run();

    state.PauseTiming();
    world_bytes = heap_in_use() - before;
    w->net().check_conservation();
    events += w->sim().events_executed();
    hops += packet_hops(w->net());
    flows = static_cast<double>(w->traffic().num_flows());
    finished = static_cast<double>(w->traffic().flows_finished());
    w.reset();
    state.ResumeTiming();
  }
  const double hosts = static_cast<double>(cfg.topology.num_hosts());
  state.SetItemsProcessed(static_cast<int64_t>(events));
  state.counters["pkt_hops/s"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
  state.counters["events/hop"] = static_cast<double>(events) / static_cast<double>(hops);
  state.counters["hosts"] = hosts;
  state.counters["flows"] = flows;
  state.counters["finished"] = finished;
  state.counters["world_MB"] = world_bytes / 1e6;
  state.counters["B/host"] = world_bytes / hosts;
  state.counters["B/flow"] = flows > 0 ? world_bytes / flows : 0;
  state.counters["peak_rss_MB"] = static_cast<double>(xoff::app::memory_use().peak_rss) / 1e6;
}

// Registers one case; the scenario is loaded on first use, so a filtered run
// loads only its own.
void add_case(std::vector<std::unique_ptr<xoff::app::ScenarioConfig>>& configs,
              const std::string& name, const char* file, std::vector<std::string> set, int hosts) {
  const std::string path = std::string(XOFF_SOURCE_DIR) + "/" + file;
  configs.emplace_back();
  auto* slot = &configs.back();
  benchmark::RegisterBenchmark(name.c_str(),
                               [slot, path, set](benchmark::State& st) {
                                 if (!*slot) {
                                   try {
                                     *slot = std::make_unique<xoff::app::ScenarioConfig>(
                                         xoff::app::load_scenario(path, set));
                                   } catch (const xoff::config::ScenarioError& e) {
                                     st.SkipWithError(e.what());
                                     for (auto _ : st) {
                                     }
                                     return;
                                   }
                                 }
                                 RunScale(st, **slot);
                               })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(hosts >= 1024 ? 1 : 3);
}

}  // namespace

int main(int argc, char** argv) {
  // As `xoff run` does (app/run/huge_pages.h): the rates are what users get.
  xoff::app::use_huge_pages(argv);
  xoff::sim::set_log_level(spdlog::level::off);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::vector<std::unique_ptr<xoff::app::ScenarioConfig>> configs;
  configs.reserve(std::size(kKinds) * std::size(kSizes) + std::size(kFatTreeK));  // by address
  for (const Kind& k : kKinds) {
    for (const Size& s : kSizes) {
      std::vector<std::string> set = {"topology.leaves=" + std::to_string(s.leaves),
                                      "topology.hosts_per_leaf=" + std::to_string(s.hosts_per_leaf),
                                      "topology.spines=" + std::to_string(s.spines)};
      // 64 KB per rank: the ring's chunk is 64 KB at every size.
      if (k.ring) set.push_back("collective[0].size=" + std::to_string(64 * s.hosts) + "KB");
      add_case(configs, std::string("Scale/") + k.name + "/hosts:" + std::to_string(s.hosts),
               k.path, std::move(set), s.hosts);
    }
  }
  for (int k : kFatTreeK) {
    const int hosts = k * k * k / 4;
    add_case(configs, "Scale/fat_tree/hosts:" + std::to_string(hosts),
             "bench/scenarios/fat_tree_128.toml", {"topology.k=" + std::to_string(k)}, hosts);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
