#include "analysis/stats/stats.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace xoff::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Eigen::Map<const Eigen::ArrayXd> as_array(std::span<const double> v) {
  return {v.data(), static_cast<Eigen::Index>(v.size())};
}

std::vector<double> sorted(std::span<const double> v) {
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  return s;
}

// numpy's _lerp: a + (b-a)*t, computed from b for t >= 0.5 (same rounding as numpy).
double lerp(double a, double b, double t) {
  const double d = b - a;
  return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

double percentile_of_sorted(const std::vector<double>& s, double q) {
  if (!(q >= 0.0 && q <= 100.0)) throw std::invalid_argument("percentile q outside [0, 100]");
  if (s.empty()) return kNaN;
  const double h = static_cast<double>(s.size() - 1) * (q / 100.0);
  const double lo = std::floor(h);
  const auto i = static_cast<size_t>(lo);
  if (i + 1 >= s.size()) return s.back();
  return lerp(s[i], s[i + 1], h - lo);
}

ProtocolSummary summarize(const std::string& protocol,
                          const std::vector<const models::FlowRecord*>& flows) {
  ProtocolSummary out;
  out.protocol = protocol;
  out.flows = flows.size();
  std::vector<double> fct_us, slowdown, gbps;
  for (const auto* f : flows) {
    out.bytes += f->size_bytes;
    const sim::Duration fct = f->finish - f->start;
    fct_us.push_back(fct.to_us());
    if (f->ideal_fct.count_ps() > 0) slowdown.push_back(f->slowdown());
    if (fct.count_ps() > 0) {
      gbps.push_back(static_cast<double>(f->size_bytes) * 8.0 / fct.to_seconds() / 1e9);
    }
  }
  out.fct_us = describe(fct_us);
  out.slowdown = describe(slowdown);
  out.throughput_jain = jain_index(gbps);
  return out;
}

}  // namespace

double percentile(std::span<const double> values, double q) {
  return percentile_of_sorted(sorted(values), q);
}

std::vector<double> percentiles(std::span<const double> values, std::span<const double> qs) {
  const std::vector<double> s = sorted(values);
  std::vector<double> out;
  out.reserve(qs.size());
  for (double q : qs) out.push_back(percentile_of_sorted(s, q));
  return out;
}

double mean(std::span<const double> values) {
  return values.empty() ? kNaN : as_array(values).mean();
}

double stddev(std::span<const double> values) {
  if (values.empty()) return kNaN;
  const auto a = as_array(values);
  return std::sqrt((a - a.mean()).square().mean());
}

double jain_index(std::span<const double> values) {
  if (values.empty()) return kNaN;
  const auto a = as_array(values);
  const double sum_sq = a.square().sum();
  if (sum_sq == 0.0) return kNaN;
  const double sum = a.sum();
  return sum * sum / (static_cast<double>(values.size()) * sum_sq);
}

std::vector<CdfPoint> cdf(std::span<const double> values, size_t max_points) {
  const std::vector<double> s = sorted(values);
  const size_t n = s.size();
  std::vector<CdfPoint> out;
  if (n == 0 || max_points == 0) return out;
  const size_t points = std::min(n, max_points);
  out.reserve(points);
  for (size_t k = 1; k <= points; ++k) {
    const size_t rank = (k * n + points - 1) / points;  // ceil(k n / points), 1..n
    out.push_back({s[rank - 1], static_cast<double>(rank) / static_cast<double>(n)});
  }
  return out;
}

Distribution describe(std::span<const double> values) {
  Distribution d;
  d.count = values.size();
  const std::vector<double> s = sorted(values);
  d.mean = mean(values);
  d.stddev = stddev(values);
  d.min = s.empty() ? kNaN : s.front();
  d.max = s.empty() ? kNaN : s.back();
  d.p50 = percentile_of_sorted(s, 50.0);
  d.p95 = percentile_of_sorted(s, 95.0);
  d.p99 = percentile_of_sorted(s, 99.0);
  d.p999 = percentile_of_sorted(s, 99.9);
  return d;
}

FlowSummary summarize_flows(const std::vector<models::FlowRecord>& flows) {
  std::vector<const models::FlowRecord*> all;
  std::map<std::string, std::vector<const models::FlowRecord*>> by_protocol;
  for (const auto& f : flows) {
    if (!f.finished()) continue;  // an unfinished flow has no FCT
    all.push_back(&f);
    by_protocol[f.protocol].push_back(&f);
  }
  FlowSummary out;
  out.all = summarize("all", all);
  for (const auto& [protocol, members] : by_protocol) {
    out.by_protocol.push_back(summarize(protocol, members));
  }
  return out;
}

}  // namespace xoff::analysis
