#include "app/config/convert.h"

#include <cmath>
#include <sstream>

#include "sim/unit_parse.h"

namespace xoff::config {
namespace {

using Problem = std::optional<std::string>;

// What `parse` expects, in the unit parser's own words: the part of its message before
// ", got": `expected a duration like "2us" (units: ps, ns, us, ms, s)`.
template <class Parse>
std::string expected_by(Parse parse) {
  std::string message = "expected a value with a unit";
  try {
    parse("");
  } catch (const sim::UnitError& e) {
    message = e.what();
  }
  const size_t got = message.find(", got \"");
  return got == std::string::npos ? message : message.substr(0, got);
}

// Units need strings: "2us". A bare number is the commonest mistake, so it gets its reason.
template <class T, class Parse>
Problem convert_unit(const toml::node& node, T& out, Parse parse) {
  if (const auto* text = node.as_string()) {
    try {
      out = parse(text->get());
      return std::nullopt;
    } catch (const sim::UnitError& e) {
      return e.what();
    }
  }
  const bool number = node.is_integer() || node.is_floating_point();
  return expected_by(parse) + ", got " + describe(node) + (number ? ": a unit is required" : "");
}

}  // namespace

Problem convert(const toml::node& node, int64_t& out) {
  if (const auto* v = node.as_integer()) {
    out = v->get();
    return std::nullopt;
  }
  return "expected an integer, got " + describe(node);
}

Problem convert(const toml::node& node, double& out) {
  if (const auto* i = node.as_integer()) {
    out = static_cast<double>(i->get());
  } else if (const auto* f = node.as_floating_point()) {
    out = f->get();
  } else {
    return "expected a number, got " + describe(node);
  }
  if (!std::isfinite(out)) return "expected a finite number, got " + describe(node);
  return std::nullopt;
}

Problem convert(const toml::node& node, bool& out) {
  if (const auto* v = node.as_boolean()) {
    out = v->get();
    return std::nullopt;
  }
  return "expected true or false, got " + describe(node);
}

Problem convert(const toml::node& node, std::string& out) {
  if (const auto* v = node.as_string()) {
    if (v->get().find('\0') != std::string::npos) {
      return "a string may not contain NUL (\\u0000), got " + describe(node);
    }
    out = v->get();
    return std::nullopt;
  }
  return "expected a string, got " + describe(node);
}

// Ceilings for every value of a unit, far above anything physical and far
// below int64: sums of times and products of sizes stay exact (a 2^63 ps
// link delay used to wrap into "event scheduled in the past").
constexpr int64_t kMaxDurationPs = 1'000'000'000'000'000'000;  // 10^6 s
constexpr int64_t kMaxBytes = int64_t{1} << 50;                // 1 PiB
constexpr int64_t kMaxRateBps = 100'000'000'000'000;           // 100 Tbps

Problem convert(const toml::node& node, sim::Duration& out) {
  Problem p = convert_unit(node, out, sim::parse_duration);
  if (!p && out.count_ps() > kMaxDurationPs) return "must be at most 10^6 s, got " + describe(node);
  return p;
}

Problem convert(const toml::node& node, sim::Bytes& out) {
  Problem p = convert_unit(node, out, sim::parse_bytes);
  if (!p && out.count() > kMaxBytes) return "must be at most 1 PiB, got " + describe(node);
  return p;
}

Problem convert(const toml::node& node, sim::BitsPerSecond& out) {
  Problem p = convert_unit(node, out, sim::parse_rate);
  if (!p && out.count() > kMaxRateBps) return "must be at most 100 Tbps, got " + describe(node);
  return p;
}

Problem convert(const toml::node& node, LengthMm& out) {
  return convert_unit(node, out,
                      [](std::string_view t) { return LengthMm{sim::parse_length_mm(t)}; });
}

std::string show(int64_t v) { return std::to_string(v); }
std::string show(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
std::string show(bool v) { return v ? "true" : "false"; }
std::string show(const std::string& v) { return '"' + v + '"'; }
std::string show(sim::Duration v) { return sim::format_duration(v); }
std::string show(sim::Bytes v) { return sim::format_bytes(v); }
std::string show(sim::BitsPerSecond v) { return sim::format_rate(v); }
std::string show(LengthMm v) { return std::to_string(v.mm) + "mm"; }

}  // namespace xoff::config
