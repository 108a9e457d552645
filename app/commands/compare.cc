// `xoff compare A.h5 B.h5`: the before and after of a change (a buffer size,
// an ECN threshold): every headline metric of both runs side by side with the
// change in percent, the ones that differ first.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "analysis/results/h5_reader.h"
#include "analysis/results/results_error.h"
#include "analysis/stats/run_metrics.h"
#include "app/commands/commands.h"

namespace xoff::app {

std::vector<CompareRow> compare_runs(const analysis::RunData& a, const analysis::RunData& b) {
  const analysis::Metrics ma = analysis::run_metrics(a);
  const analysis::Metrics mb = analysis::run_metrics(b);
  std::map<std::string, double> vb(mb.begin(), mb.end());
  std::vector<CompareRow> rows;
  auto add = [&](const std::string& name, double x, double y) {
    CompareRow r{name, x, y, std::nan("")};
    if (!std::isnan(x) && !std::isnan(y)) {
      r.change_percent = x != 0 ? 100.0 * (y - x) / std::fabs(x) : (y == 0 ? 0.0 : std::nan(""));
    }
    rows.push_back(r);
  };
  std::map<std::string, bool> seen;
  for (const auto& [k, v] : ma) {
    seen[k] = true;
    const auto it = vb.find(k);
    add(k, v, it == vb.end() ? std::nan("") : it->second);
  }
  for (const auto& [k, v] : mb) {
    if (!seen.count(k)) add(k, std::nan(""), v);
  }
  return rows;
}

namespace {

std::string fmt(double v) {
  if (std::isnan(v)) return "-";
  char b[32];
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e9 || a < 1e-3)) {
    std::snprintf(b, sizeof b, "%.4g", v);
  } else if (v == std::floor(v)) {
    std::snprintf(b, sizeof b, "%.0f", v);
  } else {
    std::snprintf(b, sizeof b, "%.3f", v);
  }
  return b;
}

}  // namespace

int cmd_compare(const CompareArgs& args) {
  analysis::RunData a;
  analysis::RunData b;
  try {
    a = analysis::read_results(args.before);
  } catch (const analysis::ResultsError& e) {
    std::fprintf(stderr, "xoff compare: %s\n", e.what());
    return 2;
  }
  try {
    b = analysis::read_results(args.after);
  } catch (const analysis::ResultsError& e) {
    std::fprintf(stderr, "xoff compare: %s\n", e.what());
    return 2;
  }
  std::printf("A: %s (%s, seed %llu)\nB: %s (%s, seed %llu)\n", args.before.c_str(),
              a.meta.scenario_name.c_str(), static_cast<unsigned long long>(a.meta.seed),
              args.after.c_str(), b.meta.scenario_name.c_str(),
              static_cast<unsigned long long>(b.meta.seed));
  const auto rows = compare_runs(a, b);
  int width = 26;
  for (const auto& r : rows) width = std::max(width, static_cast<int>(r.name.size()));
  std::printf("%-*s %16s %16s %10s\n", width, "metric", "A", "B", "change");
  size_t same = 0;
  for (int pass = 0; pass < 2; ++pass) {  // what changed first, then the rest
    for (const auto& r : rows) {
      const bool equal = r.before == r.after || (std::isnan(r.before) && std::isnan(r.after));
      if ((pass == 0) == equal) continue;
      if (equal && !args.all) {
        ++same;
        continue;
      }
      char change[32] = "";
      if (!std::isnan(r.change_percent)) {
        std::snprintf(change, sizeof change, "%+.1f%%", r.change_percent);
      } else if (!equal) {
        std::snprintf(change, sizeof change, "n/a");
      }
      std::printf("%-*s %16s %16s %10s\n", width, r.name.c_str(), fmt(r.before).c_str(),
                  fmt(r.after).c_str(), change);
    }
  }
  if (same > 0) std::printf("(%zu metrics equal in both; --all lists them)\n", same);
  if (a.meta.fingerprint == b.meta.fingerprint) {
    std::printf("Same event fingerprint %016llx: the two runs are the same simulation\n",
                static_cast<unsigned long long>(a.meta.fingerprint));
  }
  return 0;
}

}  // namespace xoff::app
