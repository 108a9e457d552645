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
    out = v->get();
    return std::nullopt;
  }
  return "expected a string, got " + describe(node);
}

Problem convert(const toml::node& node, sim::Duration& out) {
  return convert_unit(node, out, sim::parse_duration);
}

Problem convert(const toml::node& node, sim::Bytes& out) {
  return convert_unit(node, out, sim::parse_bytes);
}

Problem convert(const toml::node& node, sim::BitsPerSecond& out) {
  return convert_unit(node, out, sim::parse_rate);
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
