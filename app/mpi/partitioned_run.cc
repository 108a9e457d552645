#include "app/mpi/partitioned_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/results/h5_reader.h"
#include "analysis/results/h5_writer.h"
#include "analysis/stats/run_metrics.h"
#include "app/config/error.h"
#include "app/mpi/merge.h"
#include "app/mpi/partition.h"
#include "app/run/progress.h"
#include "app/run/runner.h"
#include "app/run/world.h"
#include "sim/log.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {

// A frame on its way to another part: where it arrives and when, in what
// place of the order, and the packet itself (the same binary runs everywhere).
struct WireFrame {
  uint32_t node;  // the sending port's node (topology index)
  uint16_t port;
  uint16_t unused = 0;
  uint32_t key_stream;
  uint64_t key_seq;
  int64_t arrival_ps;
  models::Packet packet;
};
static_assert(std::is_trivially_copyable_v<WireFrame>, "frames are copied as bytes");
static_assert(std::is_trivially_copyable_v<models::StuckQueue>, "stuck queues are copied as bytes");
static_assert(std::is_trivially_copyable_v<models::CollectiveLaunch>,
              "collective launches are copied as bytes");

// Every part's vector of plain values, through all_gather.
template <class T>
std::vector<std::vector<T>> gather_all(PartComm& comm, const std::vector<T>& mine) {
  std::vector<char> buf(mine.size() * sizeof(T));
  if (!mine.empty()) std::memcpy(buf.data(), mine.data(), buf.size());
  std::vector<std::vector<T>> out;
  for (const auto& b : comm.all_gather(buf)) {
    std::vector<T>& v = out.emplace_back(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  }
  return out;
}

// Collective flows launched in the window whose receivers another part
// simulates: each part takes the others' before the next window (a flow's
// first frame crosses no earlier than the window after its launch).
void exchange_launches(PartComm& comm, models::CollectiveEngine& engine) {
  const auto all = gather_all(comm, engine.take_launches());
  for (size_t k = 0; k < all.size(); ++k) {
    if (static_cast<int>(k) == comm.rank()) continue;
    for (const models::CollectiveLaunch& l : all[k]) engine.import_launch(l);
  }
}

template <class T>
void append(std::vector<char>& buf, const T& v) {
  const size_t at = buf.size();
  buf.resize(at + sizeof(T));
  std::memcpy(buf.data() + at, &v, sizeof(T));
}

// The frames leaving this part, by destination part.
class Outbox final : public models::FrameExit {
 public:
  Outbox(models::Network& net, const Partition& p, int parts)
      : net_(net), part_(p), out_(static_cast<size_t>(parts)) {}
  void frame_left(models::EgressPort& port, models::Packet& pkt, sim::Time arrival,
                  sim::EventKey key) override {
    const WireFrame f{port.owner().id().value(),
                      port.index().value(),
                      0,
                      key.stream,
                      key.seq,
                      arrival.count_ps(),
                      pkt};
    append(out_[static_cast<size_t>(part_.owner[port.peer().id().value()])], f);
    net_.export_packet(pkt);
    ++frames_;
  }
  std::vector<std::vector<char>>& buffers() { return out_; }
  uint64_t frames() const { return frames_; }

 private:
  models::Network& net_;
  const Partition& part_;
  std::vector<std::vector<char>> out_;
  uint64_t frames_ = 0;
};

// Deadlock scans over the whole fabric: every part contributes its queues.
class StuckExchange final : public models::StuckQueueExchange {
 public:
  explicit StuckExchange(PartComm& c) : comm_(c) {}
  std::vector<models::StuckQueue> exchange(std::vector<models::StuckQueue> local) override {
    std::vector<models::StuckQueue> all;
    for (const auto& part : gather_all(comm_, local))
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }

 private:
  PartComm& comm_;
};

// Hands the outboxes over and schedules what arrived (frames of one port come
// from one part, in the order they left).
void exchange_frames(PartComm& comm, Outbox& out, World& w) {
  const auto in = comm.exchange(out.buffers());
  for (auto& b : out.buffers()) b.clear();
  for (const auto& buf : in) {
    for (size_t at = 0; at + sizeof(WireFrame) <= buf.size(); at += sizeof(WireFrame)) {
      WireFrame f;
      std::memcpy(&f, buf.data() + at, sizeof(WireFrame));
      models::EgressPort& port =
          w.net().node(models::NodeId(f.node)).port(models::PortIndex(f.port));
      port.inject_arrival(w.net().import_packet(f.packet), sim::Time::from_ps(f.arrival_ps),
                          sim::EventKey{f.key_stream, f.key_seq});
    }
  }
}

void print_summary(const analysis::RunData& d, const Partition& p, const models::Topology& t,
                   uint64_t windows, uint64_t frames, double wall) {
  const analysis::Metrics m = analysis::run_metrics(d);
  const auto get = [&](const std::string& name) {
    for (const auto& [k, v] : m) {
      if (k == name) return v;
    }
    return std::nan("");
  };
  std::printf("Scenario     %s (%s)\n", d.meta.scenario_name.c_str(), d.meta.status.c_str());
  std::string hosts;
  for (uint32_t h : p.hosts_per_part(t)) hosts += (hosts.empty() ? "" : "/") + std::to_string(h);
  std::printf(
      "Partition    %d processes (%s), hosts %s, %llu links between processes, lookahead %s\n",
      p.parts, p.method, hosts.c_str(), static_cast<unsigned long long>(p.crossing_links),
      p.parts > 1 ? sim::format_duration(p.lookahead).c_str() : "-");
  std::printf("Flows        %.0f finished, %.0f unfinished\n", get("flows_finished"),
              get("flows_unfinished"));
  for (const char* proto : {"roce", "tcp"}) {
    const double p50 = get(std::string("fct_p50_us_") + proto);
    if (std::isnan(p50)) continue;
    std::printf("FCT %-8s p50 %.3f us, p99 %.3f us, max %.3f us; slowdown p50 %.2f, p99 %.2f\n",
                proto, p50, get(std::string("fct_p99_us_") + proto),
                get(std::string("fct_max_us_") + proto), get(std::string("slowdown_p50_") + proto),
                get(std::string("slowdown_p99_") + proto));
  }
  for (const models::CollectiveRecord& c : d.collectives) {
    const sim::Duration took = c.finish - c.start;
    std::printf("Collective   %s (%s %s, %u ranks): %s, ideal %s (%.3fx)\n", c.name.c_str(),
                c.op.c_str(), c.algorithm.c_str(), c.ranks, sim::format_duration(took).c_str(),
                sim::format_duration(c.ideal).c_str(),
                c.ideal > sim::Duration::zero()
                    ? static_cast<double>(took.count_ps()) / static_cast<double>(c.ideal.count_ps())
                    : std::nan(""));
  }
  std::printf(
      "PFC / ECN    %.0f XOFF frames, %.0f ECN marks, %.0f lossless violations, %.0f "
      "deadlocks\n",
      get("xoff_frames"), get("ecn_marks"), get("lossless_violations"), get("deadlocks"));
  std::printf(
      "Run          %s simulated, %.2f M events in %llu windows, %llu frames between "
      "processes, %.2f s, fingerprint %016llx\n",
      sim::format_duration(d.meta.sim_time - sim::Time::zero()).c_str(),
      static_cast<double>(d.meta.events) / 1e6, static_cast<unsigned long long>(windows),
      static_cast<unsigned long long>(frames), wall,
      static_cast<unsigned long long>(d.meta.fingerprint));
}

}  // namespace

int run_partitioned(const RunArgs& a, PartComm& comm) {
  const int rank = comm.rank();
  const bool lead = rank == 0;
  // Every process meets the same bad input; part 0 says so, all exit 2.
  const auto refuse = [&](const std::string& message) {
    if (lead) std::fprintf(stderr, "%s\n", message.c_str());
    return 2;
  };
  const auto cannot_yet = [&](const std::string& what) {
    return refuse(a.scenario + ": error: xoff-mpi cannot run this scenario yet: " + what +
                  " (run it with `xoff run`)");
  };
  ScenarioConfig cfg;
  try {
    cfg = load_scenario(a.scenario, run_overrides(a));
  } catch (const config::ScenarioError& e) {
    return refuse(e.what());
  }
  const std::vector<std::string> unsupported = partition_unsupported(cfg);
  for (const std::string& u : unsupported) cannot_yet(u);
  if (!unsupported.empty()) return 2;
  Partition part;
  try {
    part = partition_fabric(
        cfg.topology, comm.size(),
        a.partition == "metis" ? PartitionMethod::kMetis : PartitionMethod::kContiguous);
  } catch (const std::exception& e) {
    return refuse("xoff-mpi: error: --partition " + a.partition + ": " + e.what());
  }
  if (part.parts > 1 && part.lookahead <= sim::Duration::zero()) {
    return refuse(a.scenario +
                  ": error: a link between processes has no delay, so nothing can be simulated "
                  "ahead (give every link a delay, or run on one process)");
  }
  sim::set_log_level(spdlog::level::from_str(a.log_level));
  const std::string output = a.output.empty() ? default_output(a.scenario) : a.output;
  const std::filesystem::path parts_dir = output + ".parts";

  analysis::H5Recorder rec;
  set_topology(rec, cfg.topology);
  World w(cfg, rec, part.local_nodes(rank));
  if (const std::string why = partition_unsupported(w.traffic()); !why.empty())
    return cannot_yet(why);
  if (lead) {
    std::error_code ec;
    std::filesystem::remove_all(parts_dir, ec);  // a dead run's
    std::filesystem::create_directories(parts_dir, ec);
  }
  comm.barrier();
  Outbox outbox(w.net(), part, part.parts);
  for (uint32_t i = 0; i < cfg.topology.nodes.size(); ++i) {
    if (part.owner[i] != rank) continue;
    models::Node& n = w.node(i);
    for (size_t q = 0; q < n.num_ports(); ++q) {
      models::EgressPort& port = n.port(models::PortIndex(static_cast<uint16_t>(q)));
      if (part.owner[port.peer().id().value()] != rank) port.set_exit(&outbox);
    }
  }
  StuckExchange stuck(comm);
  if (w.deadlock_detector() != nullptr && part.parts > 1)
    w.deadlock_detector()->set_exchange(&stuck);
  w.start();

  // World::run's slices and completion checks, cut into windows.
  Progress progress(!a.quiet && lead, cfg.duration);
  const sim::Time end = sim::Time::zero() + cfg.duration;
  const sim::Duration slice = World::slice(cfg.duration);
  const sim::Duration window = part.parts > 1 ? part.lookahead : cfg.duration;
  sim::Simulator& sim = w.sim();
  sim::Time stop_at = end;
  bool done = false;
  const bool collectives = w.collectives().num_collectives() > 0;
  bool first = true;  // the first window includes time 0
  uint64_t windows = 0;
  while (sim.now() < stop_at) {
    const sim::Time target = std::min(stop_at, sim.now() + slice);
    while (sim.now() < target) {
      // Frames sent in (now, b] arrive after now + window, so after b.
      const sim::Duration ahead = first ? window - sim::Duration::ps(1) : window;
      const sim::Time b = target - sim.now() > ahead ? sim.now() + ahead : target;
      first = false;
      sim.run_until(b);
      ++windows;
      if (part.parts > 1) exchange_frames(comm, outbox, w);
      if (part.parts > 1 && collectives) exchange_launches(comm, w.collectives());
    }
    const auto totals = comm.sum({w.traffic().flows_finished(), sim.events_executed()});
    if (lead) progress.update(sim.now(), totals[1], totals[0], w.planned_flows());
    if (!done && cfg.stop_when_done && totals[0] == w.planned_flows()) {
      done = true;
      stop_at = std::min(end, sim.now() + cfg.drain);
    }
  }
  if (lead) progress.finish();
  const double wall = progress.elapsed_seconds();
  // The collectives' records: every part's sums, combined on part 0 (whose
  // file the merge takes them from).
  if (collectives) {
    const auto partials = gather_all(comm, w.collectives().export_partials());
    if (lead) w.collectives().finish_from_partials(partials);
  }

  const analysis::RunMetadata meta = finish_run(w, rec, cfg, a, "complete", wall);
  const uint64_t frames = comm.sum({outbox.frames()})[0];

  int status = 0;
  try {
    rec.write(meta, (parts_dir / ("part" + std::to_string(rank) + ".h5")).string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xoff-mpi: process %d: error: cannot write its results: %s\n", rank,
                 e.what());
    status = 1;
  }
  if (comm.sum({static_cast<uint64_t>(status)})[0] != 0) return 1;
  if (!lead) return 0;
  std::vector<analysis::RunData> parts;
  try {
    for (int k = 0; k < part.parts; ++k)
      parts.push_back(
          analysis::read_results((parts_dir / ("part" + std::to_string(k) + ".h5")).string()));
    const analysis::RunData merged = merge_parts(parts, part, cfg.topology);
    if (!a.no_output) analysis::write_results(merged, output);  // parts_dir made its folder
    std::error_code ec;
    std::filesystem::remove_all(parts_dir, ec);
    if (a.print_summary) {
      print_summary(merged, part, cfg.topology, windows, frames, wall);
      if (!a.no_output) std::printf("Results      %s\n", output.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xoff-mpi: error: cannot merge the results: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace xoff::app
