// Whole scenarios, events per second: a committed TOML scenario is loaded once
// with app::load_scenario, then every iteration builds an app::World from it
// and runs it to the end the way `xoff run` does (app::World::run:
// slices of duration/1000, stop once all traffic finished plus the drain time),
// without the progress display, the HDF5 recorder or the summary. Only the run
// is timed; building the network and the final conservation check are not.
//
// Items are simulator events (every popped queue entry: transmission done,
// arrival, PFC/DCQCN/TCP/monitor timers, including timer entries made stale by
// a re-arm). Counters per run: events, simulated time, flows and flows
// finished, and packet-hops (frames transmitted on any link) per second with
// events per packet-hop. Logging is off and every scenario has a fixed seed, so each run
// executes the same events (the fingerprint is checked across iterations).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
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

struct Case {
  const char* name;
  const char* path;  // relative to the source tree
};

// Scale scenarios of bench/scenarios/ and the bundled ones.
constexpr Case kCases[] = {
    {"incast_64", "bench/scenarios/incast_64.toml"},
    {"spine_leaf_128_roce", "bench/scenarios/spine_leaf_128.toml"},
    {"spine_leaf_128_tcp", "bench/scenarios/spine_leaf_128_tcp.toml"},
    {"demo", "scenarios/demo.toml"},
    {"allreduce_tcp", "scenarios/allreduce_tcp.toml"},
};

// Packet transmissions on every link (data and control frames): packet-hops,
// a count that does not depend on how a simulator cuts its work into events.
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

void RunScenario(benchmark::State& state, const app::ScenarioConfig& cfg) {
  uint64_t events = 0;
  int64_t hops = 0;
  uint64_t fingerprint = 0;
  double sim_us = 0;
  double flows = 0;
  double finished = 0;
  for (auto _ : state) {
    state.PauseTiming();
    models::Recorder recorder;  // keeps nothing
    auto w = std::make_unique<app::World>(cfg, recorder);
    w->start();
    state.ResumeTiming();

    w->run();

    state.PauseTiming();
    w->net().check_conservation();
    const uint64_t fp = w->sim().fingerprint();
    if (fingerprint != 0 && fp != fingerprint) {
      state.SkipWithError("the run is not deterministic: fingerprints differ between iterations");
    }
    fingerprint = fp;
    events += w->sim().events_executed();
    hops += packet_hops(w->net());
    sim_us = (w->sim().now() - sim::Time::zero()).to_us();
    flows = static_cast<double>(w->traffic().num_flows());
    finished = static_cast<double>(w->traffic().flows_finished());
    w.reset();
    state.ResumeTiming();
  }
  const auto runs = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(events));
  state.counters["events"] = static_cast<double>(events) / runs;
  state.counters["pkt_hops/s"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
  state.counters["events/hop"] = static_cast<double>(events) / static_cast<double>(hops);
  state.counters["sim_us"] = sim_us;
  state.counters["flows"] = flows;
  state.counters["finished"] = finished;
  state.counters["hosts"] = static_cast<double>(cfg.topology.num_hosts());
}

}  // namespace

int main(int argc, char** argv) {
  // As `xoff run` does (app/run/huge_pages.h): the rates are what users get.
  xoff::app::use_huge_pages(argv);
  xoff::sim::set_log_level(spdlog::level::off);
  // Loaded once, before the runs; the configs must outlive the benchmarks.
  std::vector<std::unique_ptr<xoff::app::ScenarioConfig>> configs;
  for (const Case& c : kCases) {
    const std::string path = std::string(XOFF_SOURCE_DIR) + "/" + c.path;
    try {
      configs.push_back(
          std::make_unique<xoff::app::ScenarioConfig>(xoff::app::load_scenario(path, {})));
    } catch (const xoff::config::ScenarioError& e) {
      std::fprintf(stderr, "bench_scenarios: %s\n", e.what());
      return 2;
    }
    const xoff::app::ScenarioConfig& cfg = *configs.back();
    benchmark::RegisterBenchmark((std::string("Scenario/") + c.name).c_str(),
                                 [&cfg](benchmark::State& s) { RunScenario(s, cfg); })
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
