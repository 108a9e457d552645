#include "app/run/runner.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "analysis/results/h5_writer.h"
#include "app/config/error.h"
#include "app/run/estimate.h"
#include "app/run/huge_pages.h"
#include "app/run/pcap.h"
#include "app/run/progress.h"
#include "app/run/summary.h"
#include "app/run/world.h"
#include "app/scenario/scenario.h"
#include "sim/log.h"
#include "sim/unit_parse.h"

namespace xoff::app {

void set_topology(analysis::H5Recorder& rec, const models::Topology& t, models::Network* net) {
  std::vector<analysis::TopologyNode> nodes;
  for (const auto& n : t.nodes) {
    nodes.push_back({n.name, n.kind == models::NodeKind::kHost ? "host" : "switch", n.tier});
  }
  std::vector<analysis::TopologyLink> links;
  for (const auto& l : t.links) {
    const bool up = net == nullptr ||
                    net->node(models::NodeId(l.a)).port(models::PortIndex(l.a_port)).link_up();
    links.push_back({t.nodes[l.a].name, t.nodes[l.b].name, l.a_port, l.b_port, l.rate.count(),
                     l.delay.count_ps(), up});
  }
  rec.set_topology(std::move(nodes), std::move(links));
}

analysis::RunMetadata finish_run(World& w, analysis::H5Recorder& rec, const ScenarioConfig& cfg,
                                 const RunArgs& a, const std::string& status, double wall_seconds) {
  w.net().report_counters();
  w.traffic().report_unfinished();
  set_topology(rec, cfg.topology, &w.net());  // links as the run left them
  rec.canonicalize();
  w.net().check_conservation();

  analysis::RunMetadata meta;
  meta.xoff_version = XOFF_VERSION;
  meta.scenario_name = cfg.variant.empty() ? cfg.name : cfg.name + " [" + cfg.variant + "]";
  meta.scenario_text = scenario_text(cfg, a);
  meta.seed = cfg.seed;
  meta.fingerprint = w.sim().fingerprint();
  meta.events = w.sim().events_executed();
  meta.sim_time = w.sim().now();
  meta.status = status;
  meta.flows_planned = w.planned_flows();
  meta.collectives_planned = 0;  // one row per iteration of each collective
  for (const auto& c : cfg.traffic.collectives) meta.collectives_planned += c.iterations;
  // The wall time is the one thing in the file that differs between two runs of
  // the same scenario and seed; --reproducible leaves it out (0).
  meta.wall_seconds = a.reproducible ? 0.0 : wall_seconds;
  return meta;
}

std::vector<std::string> run_overrides(const RunArgs& a) {
  std::vector<std::string> overrides;
  if (!a.variant.empty()) overrides.push_back("scenario.variant=" + a.variant);
  overrides.insert(overrides.end(), a.overrides.begin(), a.overrides.end());
  if (a.seed) overrides.push_back("scenario.seed=" + std::to_string(*a.seed));
  return overrides;
}

std::string scenario_text(const ScenarioConfig& cfg, const RunArgs& a) {
  std::string text = cfg.text;
  if (!a.variant.empty()) text += "\n# --variant " + a.variant;
  for (const auto& o : a.overrides) text += "\n# --set " + o;
  if (a.seed) text += "\n# --seed " + std::to_string(*a.seed);
  return text;
}

namespace {

volatile int g_interrupted = 0;

extern "C" void on_interrupt(int) { g_interrupted = 1; }

// SIGINT and SIGTERM set the flag the run loop checks (a second one kills as
// usual: the handlers are reset), restored on scope exit.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

const char* status_name(World::End e) {
  switch (e) {
    case World::End::kComplete:
      return "complete";
    case World::End::kInterrupted:
      return "interrupted";
    case World::End::kEventBudget:
      return "event_budget";
    case World::End::kWallBudget:
      return "wall_budget";
  }
  return "complete";
}

}  // namespace

std::string default_output(const std::string& scenario_path) {
  return "out/" + std::filesystem::path(scenario_path).stem().string() + ".h5";
}

RunOutcome run_scenario(const RunArgs& a) {
  // From here SIGINT/SIGTERM stop the run (at once if it has not started:
  // a signal while the scenario loads or the fabric is built ends the run
  // before its first event) and the results so far are written, marked
  // interrupted. Installed first, so a signal during a long load is never
  // the default one that kills the process and leaves nothing.
  const InterruptGuard signals;
  RunOutcome out;
  ScenarioConfig cfg;
  try {
    cfg = load_scenario(a.scenario, run_overrides(a));
  } catch (const config::ScenarioError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    out.exit_code = 2;
    return out;
  }
  if (!a.no_output && !a.output.empty()) {
    std::error_code ec;
    const auto out_path = std::filesystem::weakly_canonical(a.output, ec);
    if (!ec && out_path == std::filesystem::weakly_canonical(a.scenario, ec)) {
      std::fprintf(stderr, "%s: error: -o names the scenario file itself; give another -o\n",
                   a.scenario.c_str());
      out.exit_code = 2;
      return out;
    }
  }
  // Refuse up front what would not fit, with the figures.
  if (a.max_memory != "off") {
    uint64_t limit = default_memory_limit();
    if (!a.max_memory.empty()) {
      try {
        limit = static_cast<uint64_t>(sim::parse_bytes(a.max_memory).count());
      } catch (const sim::UnitError& e) {
        std::fprintf(stderr, "xoff: error: --max-memory %s: %s (or off)\n", a.max_memory.c_str(),
                     e.what());
        out.exit_code = 2;
        return out;
      }
    }
    const MemoryEstimate m = estimate_memory(cfg);
    if (limit > 0 && m.bytes > limit) {
      std::fprintf(
          stderr,
          "%s: error: this scenario needs about %s (%llu hosts, %llu flows, %llu "
          "samples), more than the %s allowed (--max-memory; off to run anyway)\n",
          a.scenario.c_str(), sim::format_bytes(sim::Bytes(static_cast<int64_t>(m.bytes))).c_str(),
          static_cast<unsigned long long>(m.hosts), static_cast<unsigned long long>(m.flows),
          static_cast<unsigned long long>(m.samples),
          sim::format_bytes(sim::Bytes(static_cast<int64_t>(limit))).c_str());
      out.exit_code = 2;
      return out;
    }
  }
  sim::set_log_level(spdlog::level::from_str(a.log_level));
  // Legal but inconsistent QoS across links (as `xoff check` reports them).
  if (!a.quiet) {
    for (const std::string& w : cfg.qos_warnings)
      std::fprintf(stderr, "xoff: warning: %s\n", w.c_str());
  }
  analysis::H5Recorder rec;
  set_topology(rec, cfg.topology);
  std::unique_ptr<World> world;
  try {
    world = std::make_unique<World>(cfg, rec);
  } catch (const std::exception& e) {  // a model refused input the schema let through
    std::fprintf(stderr, "%s: error: %s\n", a.scenario.c_str(), e.what());
    out.exit_code = 2;
    return out;
  }
  World& w = *world;
  // Packet capture: [[monitor.pcap]] ports, or every host with --pcap alone.
  std::unique_ptr<PcapWriter> pcap;
  if (!cfg.monitor.pcap.empty() || !a.pcap_dir.empty()) {
    const std::string base = a.output.empty() ? default_output(a.scenario) : a.output;
    const std::filesystem::path dir =
        !a.pcap_dir.empty() ? std::filesystem::path(a.pcap_dir)
                            : std::filesystem::path(base).parent_path() /
                                  (std::filesystem::path(base).stem().string() + "_pcap");
    try {
      pcap = std::make_unique<PcapWriter>(
          w.net(), cfg.monitor.pcap.empty() ? PcapWriter::every_host(w.net()) : cfg.monitor.pcap,
          dir, cfg.roce.ack_every);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xoff: error: packet capture: %s\n", e.what());
      out.exit_code = 1;
      return out;
    }
  }
  w.sim().set_profiling(a.stats);
  w.start();
  Progress progress(!a.quiet, cfg.duration);
  World::Limits limits;
  limits.max_events = a.max_events;
  limits.max_wall_seconds = a.max_wall;
  limits.interrupted = &g_interrupted;
  const World::End end = w.run(&progress, limits);
  out.status = status_name(end);
  const analysis::RunMetadata meta =
      finish_run(w, rec, cfg, a, out.status, progress.elapsed_seconds());
  out.data = rec.data();
  out.data.meta = meta;
  fill_outcome(w, out);
  if (!a.no_output) {
    out.output_path = a.output.empty() ? default_output(a.scenario) : a.output;
    try {
      const auto parent = std::filesystem::path(out.output_path).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent);
      rec.write(meta, out.output_path);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xoff: error: cannot write results: %s\n", e.what());
      out.exit_code = 1;
      out.output_path.clear();
    }
  }
  if (a.print_summary) print_summary(stdout, w, out);
  if (pcap) {
    const uint64_t frames = pcap->close();
    if (a.print_summary) {
      std::printf("Pcap         %llu frames in %zu files under %s\n",
                  static_cast<unsigned long long>(frames), pcap->files(), pcap->dir().c_str());
    }
  }
  if (end != World::End::kComplete) {
    std::fprintf(stderr,
                 "xoff: %s at %s of %s simulated (%llu events): the results%s are partial, "
                 "marked /meta@status = \"%s\"\n",
                 end == World::End::kInterrupted   ? "interrupted"
                 : end == World::End::kEventBudget ? "stopped by --max-events"
                                                   : "stopped by --max-wall",
                 sim::format_duration(w.sim().now() - sim::Time::zero()).c_str(),
                 sim::format_duration(cfg.duration).c_str(),
                 static_cast<unsigned long long>(w.sim().events_executed()),
                 out.output_path.empty() ? "" : (" in " + out.output_path).c_str(),
                 out.status.c_str());
    if (out.exit_code == 0) out.exit_code = end == World::End::kInterrupted ? 130 : 3;
  }
  if (a.stats) {
    print_event_profile(stdout, w.sim(), progress.elapsed_seconds());
    std::printf("Windows      %s", w.windows_note().c_str());
    if (w.sim().parts() > 0)
      std::printf(", %llu windows (XOFF_WINDOWS=off runs it in one sequence: the same results)",
                  static_cast<unsigned long long>(w.sim().windows_run()));
    std::printf("\n");
    std::printf("Memory       %s\n", describe(memory_use()).c_str());
    const size_t pkts = w.net().packet_capacity();
    std::printf(
        "Packets      room for %zu in the pool (%.1f MB, %zu B each): the peak live, rounded up to "
        "a chunk of %zu\n",
        pkts, static_cast<double>(pkts * sizeof(models::Packet)) / 1e6, sizeof(models::Packet),
        models::Network::packet_chunk());
  }
  return out;
}

int cmd_run(const RunArgs& a) { return run_scenario(a).exit_code; }

}  // namespace xoff::app
