#include "app/sweep/grid.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "app/config/error.h"

namespace xoff::app::sweep {
namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& key, const std::string& msg) {
  throw config::ScenarioError(config::SourcePos{origin, 0, 0}, key, msg);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Splits at commas that are not inside [...], {...} or quotes.
std::vector<std::string> split_values(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : s) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(trim(cur));
  return out;
}

uint64_t parse_u64(const std::string& origin, const std::string& s) {
  uint64_t v = 0;
  const auto t = trim(s);
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc{} || ptr != t.data() + t.size()) {
    fail(origin, "",
         "expected a seed (a non-negative integer) or a range like 1-5, got \"" + t + "\"");
  }
  return v;
}

}  // namespace

Axis parse_axis(const std::string& spec) {
  const std::string origin = "--grid " + spec;
  const auto eq = spec.find('=');
  if (eq == std::string::npos) fail(origin, "", "expected KEY=V1,V2,... (no '=')");
  Axis a;
  a.key = trim(spec.substr(0, eq));
  if (a.key.empty()) fail(origin, "", "expected KEY=V1,V2,... (the key is empty)");
  a.values = split_values(spec.substr(eq + 1));
  std::set<std::string> seen;
  for (const auto& v : a.values) {
    if (v.empty()) fail(origin, a.key, "a value is empty (two commas in a row, or a trailing one)");
    if (!seen.insert(v).second) fail(origin, a.key, "value \"" + v + "\" is listed twice");
  }
  return a;
}

std::vector<uint64_t> parse_seeds(const std::string& spec) {
  const std::string origin = "--seeds " + spec;
  std::vector<uint64_t> seeds;
  std::set<uint64_t> seen;
  auto add = [&](uint64_t s) {
    if (!seen.insert(s).second) fail(origin, "", "seed " + std::to_string(s) + " is listed twice");
    if (seeds.size() >= 1'000'000) fail(origin, "", "more than 10^6 seeds");
    seeds.push_back(s);
  };
  for (const auto& part : split_values(spec)) {
    if (part.empty()) fail(origin, "", "an empty item (two commas in a row, or a trailing one)");
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      add(parse_u64(origin, part));
      continue;
    }
    const uint64_t lo = parse_u64(origin, part.substr(0, dash));
    const uint64_t hi = parse_u64(origin, part.substr(dash + 1));
    if (hi < lo) fail(origin, "", "range " + part + " runs backwards");
    if (hi - lo >= 1'000'000) fail(origin, "", "more than 10^6 seeds");
    for (uint64_t s = lo; s <= hi; ++s) add(s);
  }
  return seeds;
}

std::vector<Point> expand(const std::vector<Axis>& axes, const std::vector<uint64_t>& seeds) {
  std::set<std::string> keys;
  for (const auto& a : axes) {
    if (!keys.insert(a.key).second) {
      fail("--grid " + a.key + "=...", a.key, "is swept by two --grid options; give one");
    }
  }
  size_t combos = 1;
  for (const auto& a : axes) {
    combos *= a.values.size();
    if (combos > 10'000'000) fail("--grid", "", "more than 10^7 combinations");
  }
  const size_t reps = seeds.empty() ? 1 : seeds.size();
  const size_t total = combos * reps;
  size_t width = 4;
  for (size_t n = total; n >= 10'000; n /= 10) ++width;
  std::vector<Point> points;
  points.reserve(total);
  std::vector<size_t> pos(axes.size(), 0);
  for (size_t c = 0; c < combos; ++c) {
    // Mixed-radix digits of c, the last axis least significant.
    size_t rest = c;
    for (size_t k = axes.size(); k-- > 0;) {
      pos[k] = rest % axes[k].values.size();
      rest /= axes[k].values.size();
    }
    for (size_t r = 0; r < reps; ++r) {
      Point p;
      p.index = points.size();
      std::string n = std::to_string(p.index);
      p.name = "p";
      p.name.append(width > n.size() ? width - n.size() : 0, '0');
      p.name += n;
      for (size_t k = 0; k < axes.size(); ++k) p.values.push_back(axes[k].values[pos[k]]);
      if (!seeds.empty()) p.seed = seeds[r];
      points.push_back(std::move(p));
    }
  }
  return points;
}

std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p) {
  std::vector<std::string> o;
  for (size_t k = 0; k < axes.size(); ++k) o.push_back(axes[k].key + "=" + p.values[k]);
  return o;
}

std::string describe(const std::vector<Axis>& axes, const Point& p) {
  std::string s;
  for (size_t k = 0; k < axes.size(); ++k) {
    if (!s.empty()) s += ' ';
    s += axes[k].key + "=" + p.values[k];
  }
  if (p.seed) {
    if (!s.empty()) s += ' ';
    s += "seed=";
    s += std::to_string(*p.seed);
  }
  return s.empty() ? "(base scenario)" : s;
}

}  // namespace xoff::app::sweep
