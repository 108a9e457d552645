#include "app/sweep/collect.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/results/h5_reader.h"
#include "analysis/stats/run_metrics.h"
#include "analysis/stats/stats.h"

namespace xoff::app::sweep {
namespace fs = std::filesystem;
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const analysis::TableColumn* find(const std::vector<analysis::TableColumn>& t,
                                  const std::string& name) {
  for (const auto& c : t) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string fmt(double v) {
  char b[32];
  if (std::isnan(v)) return "-";
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e7 || a < 1e-3)) {
    std::snprintf(b, sizeof b, "%.3g", v);
  } else if (a >= 1000 || v == std::floor(v)) {
    std::snprintf(b, sizeof b, "%.0f", v);
  } else {
    std::snprintf(b, sizeof b, "%.3g", v);
  }
  return b;
}

}  // namespace

std::vector<analysis::TableColumn> collect_table(const Plan& plan, const fs::path& dir) {
  using analysis::TableColumn;
  std::vector<TableColumn> t;
  TableColumn point{"point", false, {}, {}};
  TableColumn name{"name", true, {}, {}};
  std::vector<TableColumn> keys;
  for (const auto& a : plan.axes) keys.push_back(TableColumn{a.key, true, {}, {}});
  TableColumn seed{"seed", false, {}, {}};
  TableColumn status{"status", true, {}, {}};
  std::vector<std::string> metric_names;
  std::map<std::string, std::vector<double>> metric_values;
  for (const auto& p : plan.points) {
    point.numbers.push_back(static_cast<double>(p.index));
    name.strings.push_back(p.name);
    for (size_t k = 0; k < keys.size(); ++k) keys[k].strings.push_back(p.values[k]);
    double s = p.seed ? static_cast<double>(*p.seed)
               : p.index < plan.effective_seeds.size()
                   ? static_cast<double>(plan.effective_seeds[p.index])
                   : kNaN;
    analysis::Metrics m;
    const fs::path out = output_path(dir, p);
    if (!fs::exists(out)) {
      status.strings.emplace_back("missing");
    } else {
      try {
        const analysis::RunData d = analysis::read_results(out.string());
        m = analysis::run_metrics(d);
        s = static_cast<double>(d.meta.seed);
        status.strings.emplace_back(d.meta.complete() ? "ok" : d.meta.status);
      } catch (const std::exception&) {
        status.strings.emplace_back("unreadable");
      }
    }
    seed.numbers.push_back(s);
    const size_t row = p.index;
    for (const auto& [k, v] : m) {
      auto [it, fresh] = metric_values.try_emplace(k);
      if (fresh) metric_names.push_back(k);
      it->second.resize(plan.points.size(), kNaN);
      it->second[row] = v;
    }
  }
  t.push_back(std::move(point));
  t.push_back(std::move(name));
  for (auto& k : keys) t.push_back(std::move(k));
  t.push_back(std::move(seed));
  t.push_back(std::move(status));
  for (const auto& n : metric_names) {
    auto& v = metric_values[n];
    v.resize(plan.points.size(), kNaN);
    t.push_back(TableColumn{n, false, {}, std::move(v)});
  }
  return t;
}

std::vector<std::string> default_terminal_metrics() {
  return {"flows_unfinished",  "fct_p50_us_all", "fct_p99_us_all",
          "xoff_frames",       "ecn_marks",      "lossless_violations",
          "peak_buffer_bytes", "allreduce_us",   "collective_mean_us"};
}

size_t print_table(std::FILE* f, const Plan& plan, const std::vector<analysis::TableColumn>& t,
                   const std::vector<std::string>& metrics) {
  const auto* status = find(t, "status");
  std::vector<const analysis::TableColumn*> cols;
  for (const auto& m : metrics) {
    const auto* c = find(t, m);
    if (c == nullptr || c->text) continue;
    if (std::all_of(c->numbers.begin(), c->numbers.end(), [](double v) { return std::isnan(v); }))
      continue;
    cols.push_back(c);
  }
  // Combinations in point order: points of one combination are adjacent
  // (seeds are the innermost loop).
  const size_t reps = plan.seeds.empty() ? 1 : plan.seeds.size();
  std::vector<std::string> header;
  for (const auto& a : plan.axes) header.push_back(a.key);
  header.emplace_back("n");
  for (const auto* c : cols) header.push_back(c->name);
  std::vector<std::vector<std::string>> lines;
  size_t not_ok = 0;
  for (size_t first = 0; first < plan.points.size(); first += reps) {
    std::vector<std::string> line = plan.points[first].values;
    size_t n = 0;
    for (size_t r = first; r < first + reps; ++r) {
      if (status->strings[r] == "ok") {
        ++n;
      } else {
        ++not_ok;
      }
    }
    std::string count = std::to_string(n);
    if (n < reps) {
      count += '/';
      count += std::to_string(reps);
    }
    line.push_back(count);
    for (const auto* c : cols) {
      std::vector<double> v;
      for (size_t r = first; r < first + reps; ++r) {  // complete runs only
        if (status->strings[r] == "ok" && !std::isnan(c->numbers[r])) v.push_back(c->numbers[r]);
      }
      if (v.empty()) {
        line.emplace_back("-");
      } else if (v.size() == 1) {
        line.push_back(fmt(v[0]));
      } else {
        line.push_back(fmt(analysis::mean(v)) + " +- " + fmt(analysis::stddev(v)));
      }
    }
    lines.push_back(std::move(line));
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& l : lines) width[c] = std::max(width[c], l[c].size());
  }
  auto print_line = [&](const std::vector<std::string>& l) {
    for (size_t c = 0; c < l.size(); ++c) {
      std::fprintf(f, c == 0 ? "%-*s" : "  %*s", static_cast<int>(width[c]), l[c].c_str());
    }
    std::fprintf(f, "\n");
  };
  print_line(header);
  for (const auto& l : lines) print_line(l);
  if (reps > 1) std::fprintf(f, "(mean +- standard deviation over %zu seeds)\n", reps);
  return not_ok;
}

}  // namespace xoff::app::sweep
