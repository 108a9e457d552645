#include "app/run/summary.h"

#include <algorithm>
#include <string>

#include "analysis/stats/run_metrics.h"
#include "analysis/stats/stats.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {

std::string us(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 1000 ? "%.3f ms" : "%.2f us", v >= 1000 ? v / 1000 : v);
  return b;
}

std::string dur(sim::Duration d) { return us(d.to_us()); }

void print_flows(std::FILE* f, World& w, const analysis::RunData& d) {
  const auto& tm = w.traffic();
  // Collective steps not yet generated count as flows that did not finish.
  const uint64_t ungenerated = w.collectives().ungenerated_flows();
  const uint64_t planned = w.planned_flows();
  std::fprintf(f, "Flows        %llu of %llu finished",
               static_cast<unsigned long long>(tm.flows_finished()),
               static_cast<unsigned long long>(planned));
  if (tm.flows_finished() < planned) {
    const uint64_t running = tm.flows_running();
    const uint64_t waiting = tm.num_flows() - tm.flows_started();
    std::fprintf(f, ": %llu running, %llu never started", static_cast<unsigned long long>(running),
                 static_cast<unsigned long long>(waiting + ungenerated));
    if (ungenerated > 0) {
      std::fprintf(f, " (%llu of them collective steps not yet generated)",
                   static_cast<unsigned long long>(ungenerated));
    }
    std::fprintf(f, "; FCTs below are of finished flows only");
  }
  std::fprintf(f, "\n");
  if (tm.flows_finished() == 0) return;
  const analysis::FlowSummary s = analysis::summarize_flows(d.flows);
  for (const auto& p : s.by_protocol) {
    std::fprintf(f, "  %-5s %5zu flows  FCT p50 %s  p99 %s  max %s", p.protocol.c_str(), p.flows,
                 us(p.fct_us.p50).c_str(), us(p.fct_us.p99).c_str(), us(p.fct_us.max).c_str());
    if (p.slowdown.count > 0) {
      std::fprintf(f, "  slowdown p50 %.2f p99 %.2f", p.slowdown.p50, p.slowdown.p99);
    }
    std::fprintf(f, "\n");
  }
}

// ECMP balance: per switch, the bytes sent on each uplink (a port towards a
// higher tier) against the mean of its uplinks; the worst switch. 1.00 is a
// perfect spread; a collective's step waits for the busiest uplink.
struct Imbalance {
  double ratio = 0;
  std::string node;
};
Imbalance uplink_imbalance(World& w) {
  const models::Topology& t = w.config().topology;
  std::vector<std::vector<int64_t>> up(t.nodes.size());
  for (const auto& l : t.links) {
    const auto& a = t.nodes[l.a];
    const auto& b = t.nodes[l.b];
    if (a.kind == models::NodeKind::kHost || b.kind == models::NodeKind::kHost || a.tier == b.tier)
      continue;
    const bool a_low = a.tier < b.tier;
    const uint32_t low = a_low ? l.a : l.b;
    const auto port = models::PortIndex(a_low ? l.a_port : l.b_port);
    int64_t bytes = 0;
    for (int64_t v : w.net().node(models::NodeId(low)).port(port).counters().tx_bytes) bytes += v;
    up[low].push_back(bytes);
  }
  Imbalance worst;
  for (size_t n = 0; n < up.size(); ++n) {
    if (up[n].size() < 2) continue;
    int64_t sum = 0;
    int64_t max = 0;
    for (int64_t v : up[n]) {
      sum += v;
      max = std::max(max, v);
    }
    if (sum == 0) continue;
    const double ratio =
        static_cast<double>(max) * static_cast<double>(up[n].size()) / static_cast<double>(sum);
    if (ratio > worst.ratio) worst = {ratio, t.nodes[n].name};
  }
  return worst;
}

void print_breakdown(std::FILE* f, World& w, const models::CollectiveRecord& r) {
  const analysis::CollectiveBreakdown b = analysis::collective_breakdown(r);
  if (!b.valid || b.total_us <= 0) return;
  auto part = [&](const char* what, double v) {
    std::fprintf(f, "%s %s (%.0f%%)", what, us(v).c_str(), 100.0 * v / b.total_us);
  };
  std::fprintf(f, "  critical path of %u flows: ", b.flows);
  part("bandwidth", b.bandwidth_us);
  part(", headers and latency", b.overhead_us);
  part(", congestion", b.congestion_us);
  if (b.wait_us != 0) part(", waiting", b.wait_us);
  std::fprintf(f, "\n");
  const Imbalance im = uplink_imbalance(w);
  if (im.ratio > 0) {
    std::fprintf(f, "  ECMP: busiest uplink carried %.2fx its switch's uplink mean (at %s)\n",
                 im.ratio, im.node.c_str());
  }
}

// "AllReduce" etc., as nccl-tests names its tests.
const char* op_label(const std::string& op) {
  if (op == "reduce_scatter") return "ReduceScatter";
  if (op == "all_gather") return "AllGather";
  if (op == "all_to_all") return "AllToAll";
  if (op == "workload") return "Workload";
  return "AllReduce";
}

std::string segment_label(const models::CollectiveSegment& s) {
  std::string l = std::string(op_label(s.op)) + " " + sim::format_bytes(sim::Bytes(s.size_bytes));
  if (s.group != "all") l += " per " + s.group;
  if (s.algorithm != "ring" && s.algorithm != "direct") l += " (" + s.algorithm + ")";
  return l;
}

// A workload's collectives in order, each with its mean over the iterations.
void print_segment_means(std::FILE* f, const std::vector<const models::CollectiveRecord*>& its) {
  const size_t n = its.front()->segments.size();
  std::string line;
  for (size_t s = 0; s < n; ++s) {
    std::vector<double> t;
    for (const auto* r : its) {
      if (s < r->segments.size())
        t.push_back((r->segments[s].finish - r->segments[s].start).to_us());
    }
    line += (s == 0 ? "" : ", ") + segment_label(its.front()->segments[s]) + " " +
            us(analysis::mean(t));
  }
  if (n > 0) std::fprintf(f, "  mean per collective: %s\n", line.c_str());
}

void print_collectives(std::FILE* f, World& w, const analysis::RunData& d) {
  const auto& ce = w.collectives();
  for (uint32_t c = 0; c < ce.num_collectives(); ++c) {
    const auto& spec = w.config().traffic.collectives[c];
    if (!ce.is_finished(c)) {
      std::fprintf(f, "%-12s %s (%s, %zu ranks, %s): NOT FINISHED\n",
                   op_label(models::op_name(spec.op)), spec.name.c_str(),
                   models::algorithm_name(spec.algorithm), spec.ranks.size(),
                   sim::format_bytes(spec.size).c_str());
    }
  }
  // Training loops: one line per collective with iterations, then only the
  // first and last iteration in detail when there are more than three.
  std::vector<const models::CollectiveRecord*> shown;
  for (uint32_t c = 0; c < ce.num_collectives(); ++c) {
    const auto& spec = w.config().traffic.collectives[c];
    std::vector<const models::CollectiveRecord*> mine;
    for (const auto& r : d.collectives) {
      if (spec.iterations == 1 ? r.name == spec.name : r.name.rfind(spec.name + "/iter", 0) == 0)
        mine.push_back(&r);
    }
    if (spec.iterations > 1 && !mine.empty()) {
      std::vector<double> iter_us, ar_us;
      sim::Time prev = spec.start;
      for (const auto* r : mine) {
        iter_us.push_back((r->finish - prev).to_us());
        ar_us.push_back((r->finish - r->start).to_us());
        prev = r->finish;
      }
      const auto [lo, hi] = std::minmax_element(iter_us.begin(), iter_us.end());
      if (spec.workload.empty()) {
        const char* what = op_label(models::op_name(spec.op));
        std::fprintf(f,
                     "Training     %s: %zu of %u iterations, each %s compute + %s: "
                     "iteration time mean %s (min %s, max %s), %s mean %s\n",
                     spec.name.c_str(), mine.size(), spec.iterations, dur(spec.compute).c_str(),
                     what, us(analysis::mean(iter_us)).c_str(), us(*lo).c_str(), us(*hi).c_str(),
                     what, us(analysis::mean(ar_us)).c_str());
      } else {
        std::fprintf(f,
                     "Training     %s: %zu of %u iterations of the workload (its compute "
                     "included): iteration time mean %s (min %s, max %s)\n",
                     spec.name.c_str(), mine.size(), spec.iterations,
                     us(analysis::mean(iter_us)).c_str(), us(*lo).c_str(), us(*hi).c_str());
        print_segment_means(f, mine);
      }
    }
    for (size_t i = 0; i < mine.size(); ++i) {
      if (mine.size() <= 3 || i == 0 || i + 1 == mine.size()) shown.push_back(mine[i]);
    }
  }
  for (const auto* rp : shown) {
    const auto& r = *rp;
    const sim::Duration t = r.finish - r.start;
    std::fprintf(f, "%-12s %s (%s, %u ranks, %s): %s, ideal %s (%.3fx), %zu steps\n",
                 op_label(r.op), r.name.c_str(), r.algorithm.c_str(), r.ranks,
                 sim::format_bytes(sim::Bytes(r.size_bytes)).c_str(), dur(t).c_str(),
                 dur(r.ideal).c_str(),
                 static_cast<double>(t.count_ps()) / static_cast<double>(r.ideal.count_ps()),
                 r.step_times.size());
    // nccl-tests' figures; the line rate is the busbw of the ideal time.
    // A workload mixes collectives: none apply.
    if (r.op == "workload") {
      std::string line;
      for (const auto& s : r.segments) {
        line += (line.empty() ? "" : ", ") + segment_label(s) + " " + dur(s.finish - s.start);
      }
      if (!line.empty()) std::fprintf(f, "  collectives: %s\n", line.c_str());
      print_breakdown(f, w, r);
      continue;
    }
    const analysis::BusBandwidth bw = analysis::bus_bandwidth(r);
    const double line =
        bw.busbw_gbs * static_cast<double>(t.count_ps()) / static_cast<double>(r.ideal.count_ps());
    std::fprintf(f, "  algbw %.2f GB/s, busbw %.2f GB/s of %.2f GB/s line rate (nccl-tests)\n",
                 bw.algbw_gbs, bw.busbw_gbs, line);
    print_breakdown(f, w, r);
  }
}

void print_pfc(std::FILE* f, const RunOutcome& out) {
  std::vector<const models::QueueCounters*> paused;
  int64_t received = 0;
  for (const auto& q : out.data.queues) {
    received += q.pause_received;
    if (q.paused_time.count_ps() > 0) paused.push_back(&q);
  }
  std::fprintf(f, "PFC          %lld XOFF sent, %lld received; %zu queues were paused\n",
               static_cast<long long>(out.pause_frames), static_cast<long long>(received),
               paused.size());
  std::sort(paused.begin(), paused.end(),
            [](auto* a, auto* b) { return a->paused_time > b->paused_time; });
  for (size_t i = 0; i < paused.size() && i < 3; ++i) {
    std::fprintf(f, "  paused longest: %s:p%u:tc%u %s\n", paused[i]->node.c_str(), paused[i]->port,
                 paused[i]->traffic_class, dur(paused[i]->paused_time).c_str());
  }
  std::fprintf(f, "ECN          %lld packets marked\n", static_cast<long long>(out.ecn_marks));
}

void print_buffers(std::FILE* f, const analysis::RunData& d) {
  const models::BufferCounters* top = nullptr;
  int64_t headroom = 0;
  for (const auto& b : d.buffers) {
    if (top == nullptr || b.peak_total_bytes > top->peak_total_bytes) top = &b;
    headroom = std::max(headroom, b.peak_pg_headroom_bytes);
  }
  if (top == nullptr) return;
  std::fprintf(f, "Buffer       peak %s of %s at %s (shared %s); most headroom one PG used: %s\n",
               sim::format_bytes(sim::Bytes(top->peak_total_bytes)).c_str(),
               sim::format_bytes(sim::Bytes(top->buffer_bytes)).c_str(), top->node.c_str(),
               sim::format_bytes(sim::Bytes(top->peak_shared_bytes)).c_str(),
               sim::format_bytes(sim::Bytes(headroom)).c_str());
}

void print_drops(std::FILE* f, World& w, const RunOutcome& out) {
  const models::Ledger& l = w.net().ledger();
  std::fprintf(f, "Drops        lossless violations: %lld",
               static_cast<long long>(out.lossless_violations));
  for (size_t r = 0; r < static_cast<size_t>(models::DropReason::kCount); ++r) {
    if (r == static_cast<size_t>(models::DropReason::kLosslessViolation) ||
        l.dropped_packets[r] == 0)
      continue;
    std::fprintf(f, ", %s: %lld",
                 std::string(models::drop_reason_name(static_cast<models::DropReason>(r))).c_str(),
                 static_cast<long long>(l.dropped_packets[r]));
  }
  std::fprintf(f, "\n");
}

void print_watchdog_and_deadlock(std::FILE* f, const analysis::RunData& d) {
  if (!d.watchdog_events.empty()) {
    size_t storms = 0;
    for (const auto& e : d.watchdog_events) storms += e.state == "stormed";
    const auto& first = d.watchdog_events.front();
    std::fprintf(
        f, "Watchdog     %zu storms, %zu restorations; first: %s:p%u:tc%u %s at %s (action %s)\n",
        storms, d.watchdog_events.size() - storms, first.node.c_str(), first.port,
        first.traffic_class, first.state.c_str(), dur(first.time.since_epoch()).c_str(),
        first.action.c_str());
  }
  if (d.deadlocks.empty()) {
    std::fprintf(f, "Deadlock     none\n");
    return;
  }
  for (const auto& r : d.deadlocks) {
    std::fprintf(f, "Deadlock     YES: formed at %s, detected at %s, %s stuck\n  cycle: %s\n",
                 dur(r.formed.since_epoch()).c_str(), dur(r.detected.since_epoch()).c_str(),
                 sim::format_bytes(sim::Bytes(r.stuck_bytes)).c_str(),
                 analysis::format_deadlock_members(r.members).c_str());
  }
}

void print_rpcs(std::FILE* f, World& w) {
  const RpcDriver* d = w.rpcs();
  if (d == nullptr) return;
  for (size_t i = 0; i < d->probes().size(); ++i) {
    const auto& lat = d->latencies_us()[i];
    const auto& p = d->probes()[i];
    if (lat.empty()) {
      std::fprintf(f, "TCP RPC      %s: none of %u finished\n", p.name.c_str(), p.count);
      continue;
    }
    const analysis::Distribution s = analysis::describe(lat);
    std::fprintf(f, "TCP RPC      %-16s %zu/%u done, latency p50 %s  p99 %s  max %s\n",
                 p.name.c_str(), lat.size(), p.count, us(s.p50).c_str(), us(s.p99).c_str(),
                 us(s.max).c_str());
  }
}

}  // namespace

void fill_outcome(World& w, RunOutcome& out) {
  const models::Ledger& l = w.net().ledger();
  out.lossless_violations =
      l.dropped_packets[static_cast<size_t>(models::DropReason::kLosslessViolation)];
  for (const auto& q : out.data.queues) {
    out.pause_frames += q.pause_sent;
    out.ecn_marks += q.ecn_marked;
  }
  out.traffic_finished = w.traffic_done();
}

void print_summary(std::FILE* f, World& w, const RunOutcome& out) {
  const analysis::RunMetadata& m = out.data.meta;
  std::fprintf(f, "xoff %s: %s (seed %llu)\n", m.xoff_version.c_str(), m.scenario_name.c_str(),
               static_cast<unsigned long long>(m.seed));
  print_watchdog_and_deadlock(f, out.data);
  print_collectives(f, w, out.data);
  print_flows(f, w, out.data);
  print_rpcs(f, w);
  print_pfc(f, out);
  print_buffers(f, out.data);
  print_drops(f, w, out);
  std::fprintf(
      f,
      "Run          %s simulated, %.2f M events in %.2f s (%.2f M events/s), fingerprint %016llx\n",
      dur(m.sim_time.since_epoch()).c_str(), static_cast<double>(m.events) / 1e6, m.wall_seconds,
      m.events_per_second() / 1e6, static_cast<unsigned long long>(m.fingerprint));
  if (!out.output_path.empty()) std::fprintf(f, "Results      %s\n", out.output_path.c_str());
}

void print_event_profile(std::FILE* f, const sim::Simulator& sim, double wall_seconds) {
  const std::vector<sim::Simulator::KindCount> kinds = sim.event_profile();
  const double total = static_cast<double>(sim.events_executed());
  std::fprintf(f, "Events by kind (%llu events",
               static_cast<unsigned long long>(sim.events_executed()));
  if (wall_seconds > 0) std::fprintf(f, ", %.2f M/s", total / wall_seconds / 1e6);
  std::fprintf(f, ")\n");
  for (const auto& k : kinds) {
    std::fprintf(f, "  %-44s %12llu  %5.1f %%\n", k.kind.c_str(),
                 static_cast<unsigned long long>(k.events),
                 total > 0 ? 100.0 * static_cast<double>(k.events) / total : 0.0);
  }
}

}  // namespace xoff::app
