#include "analysis/stats/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "analysis/stats/stats.h"
#include "models/core/drop.h"

namespace xoff::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void add_protocol(Metrics& m, const ProtocolSummary& p) {
  const std::string& s = p.protocol;
  m.emplace_back("fct_p50_us_" + s, p.fct_us.p50);
  m.emplace_back("fct_p99_us_" + s, p.fct_us.p99);
  m.emplace_back("fct_max_us_" + s, p.fct_us.max);
  m.emplace_back("slowdown_p50_" + s, p.slowdown.count > 0 ? p.slowdown.p50 : kNaN);
  m.emplace_back("slowdown_p99_" + s, p.slowdown.count > 0 ? p.slowdown.p99 : kNaN);
}

}  // namespace

const std::vector<std::string>& lossy_drop_reasons() {
  static const std::vector<std::string> reasons = [] {
    std::vector<std::string> r;
    for (int i = 0; i < static_cast<int>(models::DropReason::kCount); ++i) {
      const auto why = static_cast<models::DropReason>(i);
      if (why != models::DropReason::kLosslessViolation) {
        r.emplace_back(models::drop_reason_name(why));
      }
    }
    return r;
  }();
  return reasons;
}

CollectiveBreakdown collective_breakdown(const models::CollectiveRecord& c) {
  CollectiveBreakdown b;
  if (c.path_flows == 0) return b;
  b.valid = true;
  b.flows = c.path_flows;
  b.total_us = (c.finish - c.start).to_us();
  b.bandwidth_us = c.path_bandwidth.to_us();
  b.overhead_us = c.path_overhead.to_us();
  b.congestion_us = c.path_congestion.to_us();
  b.wait_us = c.path_wait.to_us();
  return b;
}

BusBandwidth bus_bandwidth(const models::CollectiveRecord& c) {
  BusBandwidth b;
  const double t = (c.finish - c.start).to_us() * 1e-6;
  if (t <= 0 || c.ranks == 0 || c.op == "workload") return b;
  b.algbw_gbs = static_cast<double>(c.size_bytes) / t / 1e9;
  const double factor = c.op == "allreduce" ? 2.0 : 1.0;
  b.busbw_gbs = b.algbw_gbs * factor * (c.ranks - 1) / c.ranks;
  return b;
}

Metrics run_metrics(const RunData& d) {
  Metrics m;
  double finished = 0;
  double running = 0;
  for (const auto& f : d.flows) {
    finished += f.finished() ? 1 : 0;
    running += f.state == models::FlowRecord::State::kRunning ? 1 : 0;
  }
  m.emplace_back("flows_finished", finished);
  m.emplace_back("flows_unfinished", d.meta.flows_planned > 0
                                         ? static_cast<double>(d.meta.flows_planned) - finished
                                         : kNaN);
  m.emplace_back("flows_running", running);
  if (finished > 0) {
    const FlowSummary s = summarize_flows(d.flows);
    add_protocol(m, s.all);
    for (const auto& p : s.by_protocol) add_protocol(m, p);
  }
  int64_t xoff = 0;
  int64_t marks = 0;
  for (const auto& q : d.queues) {
    xoff += q.pause_sent;
    marks += q.ecn_marked;
  }
  m.emplace_back("xoff_frames", static_cast<double>(xoff));
  m.emplace_back("ecn_marks", static_cast<double>(marks));
  auto dropped = [&](const std::string& reason) {
    int64_t n = 0;
    for (const auto& r : d.drops) n += r.reason == reason ? r.packets : 0;
    return static_cast<double>(n);
  };
  m.emplace_back("lossless_violations", dropped("lossless_violation"));
  for (const auto& r : lossy_drop_reasons()) m.emplace_back("drops_" + r, dropped(r));
  int64_t peak = 0;
  for (const auto& b : d.buffers) peak = std::max(peak, b.peak_total_bytes);
  m.emplace_back("peak_buffer_bytes", static_cast<double>(peak));
  m.emplace_back("deadlocks", static_cast<double>(d.deadlocks.size()));
  double allreduce = kNaN;
  for (const auto& c : d.collectives) {
    const double t = (c.finish - c.start).to_us();
    allreduce = std::isnan(allreduce) ? t : std::max(allreduce, t);
  }
  m.emplace_back("allreduce_us", allreduce);
  // The longest collective's breakdown (NaN without one).
  CollectiveBreakdown b;
  for (const auto& c : d.collectives) {
    if ((c.finish - c.start).to_us() == allreduce) b = collective_breakdown(c);
  }
  double busbw = kNaN;
  for (const auto& c : d.collectives) {
    if ((c.finish - c.start).to_us() == allreduce) busbw = bus_bandwidth(c).busbw_gbs;
  }
  m.emplace_back("allreduce_busbw_gbs", busbw);
  m.emplace_back("allreduce_overhead_us", b.valid ? b.overhead_us : kNaN);
  m.emplace_back("allreduce_congestion_us", b.valid ? b.congestion_us : kNaN);
  m.emplace_back("allreduce_wait_us", b.valid ? b.wait_us : kNaN);
  // Training loops: the mean iteration record, and the mean time of each op
  // over the collectives and workload lines that ran it.
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_op;
  for (const auto& c : d.collectives) {
    all.push_back((c.finish - c.start).to_us());
    if (c.segments.empty()) by_op[c.op].push_back((c.finish - c.start).to_us());
    for (const auto& s : c.segments) by_op[s.op].push_back((s.finish - s.start).to_us());
  }
  m.emplace_back("collective_mean_us", all.empty() ? kNaN : mean(all));
  for (const auto& [op, ts] : by_op) m.emplace_back("collective_mean_us_" + op, mean(ts));
  // TCP RPC probes: latency from their series "rpc_latency_us/<probe>".
  constexpr std::string_view kRpc = "rpc_latency_us/";
  for (const auto& s : d.series) {
    if (!std::string_view(s.name).starts_with(kRpc) || s.value.empty()) continue;
    const std::string probe = s.name.substr(kRpc.size());
    const Distribution r = describe(s.value);
    m.emplace_back("rpc_p50_us_" + probe, r.p50);
    m.emplace_back("rpc_p99_us_" + probe, r.p99);
    m.emplace_back("rpc_mean_us_" + probe, mean(s.value));
  }
  // A file that records its plan has flows_planned > 0 (a collective is flows).
  const bool planned = d.meta.flows_planned > 0;
  m.emplace_back("collectives_unfinished", planned
                                               ? static_cast<double>(d.meta.collectives_planned) -
                                                     static_cast<double>(d.collectives.size())
                                               : kNaN);
  m.emplace_back("events", static_cast<double>(d.meta.events));
  m.emplace_back("sim_time_us", d.meta.sim_time.to_us());
  return m;
}

}  // namespace xoff::analysis
