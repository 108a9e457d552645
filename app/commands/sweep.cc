// `xoff sweep`: one run per value of a parameter, then a table of the numbers
// that buffer and threshold studies compare (FCT tail, pauses, ECN marks,
// lossless violations, peak queue, AllReduce time).
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "analysis/stats/stats.h"
#include "app/commands/commands.h"
#include "app/run/runner.h"

namespace xoff::app {
namespace {

std::string sanitize(const std::string& s) {
  std::string o;
  for (char c : s)
    o += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
  return o;
}

void print_row(const std::string& value, const RunOutcome& r) {
  std::vector<double> fct;
  for (const auto& f : r.data.flows) fct.push_back((f.finish - f.start).to_us());
  int64_t peak = 0;  // the fullest switch buffer
  for (const auto& b : r.data.buffers) peak = std::max(peak, b.peak_total_bytes);
  double allreduce = 0;
  if (!r.data.collectives.empty()) {
    const auto& c = r.data.collectives.front();
    allreduce = (c.finish - c.start).to_us();
  }
  std::printf("%-14s %9zu %12.2f %12.2f %10lld %10lld %10lld %12lld %12.2f %s\n", value.c_str(),
              fct.size(), fct.empty() ? 0.0 : analysis::percentile(fct, 50),
              fct.empty() ? 0.0 : analysis::percentile(fct, 99),
              static_cast<long long>(r.pause_frames), static_cast<long long>(r.ecn_marks),
              static_cast<long long>(r.lossless_violations), static_cast<long long>(peak),
              allreduce, r.traffic_finished ? "" : "(traffic unfinished)");
}

}  // namespace

int cmd_sweep(const SweepArgs& a) {
  std::vector<std::pair<std::string, RunOutcome>> rows;
  const std::string dir = a.output_dir.empty() ? "out/sweep" : a.output_dir;
  for (const std::string& v : a.values) {
    RunArgs r = a.base;
    r.overrides.push_back(a.parameter + "=" + v);
    r.output = dir + "/" + std::filesystem::path(a.base.scenario).stem().string() + "_" +
               sanitize(a.parameter) + "_" + sanitize(v) + ".h5";
    std::printf("=== %s = %s\n", a.parameter.c_str(), v.c_str());
    RunOutcome o = run_scenario(r);
    if (o.exit_code != 0) return o.exit_code;
    rows.emplace_back(v, std::move(o));
  }
  std::printf("\n%-14s %9s %12s %12s %10s %10s %10s %12s %12s\n", a.parameter.c_str(), "flows",
              "FCT p50 us", "FCT p99 us", "XOFF", "ECN marks", "lossless", "peak buffer B",
              "allreduce us");
  for (const auto& [v, r] : rows) print_row(v, r);
  return 0;
}

}  // namespace xoff::app
