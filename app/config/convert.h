#pragma once
// Turning one TOML node into a typed value, and checking it against bounds: the per-type rules
// and messages behind TableReader, kept apart so that they can be tested one by one.
//
// Messages say what was expected and what was written, never where (the reader adds that):
//   expected an integer, got "4"
//   expected a rate like "100Gbps" (units: bps, Kbps, Mbps, Gbps, Tbps), got "100G": unknown unit
//   "G" expected a duration like "2us" (units: ps, ns, us, ms, s), got 2: a unit is required must
//   be between 0 and 1, got 1.5
#include <toml++/toml.h>

#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>

#include "app/config/source.h"
#include "sim/units.h"

namespace xoff::config {

// A length in millimetres (cable lengths, from which propagation delay is derived).
struct LengthMm {
  int64_t mm = 0;
  auto operator<=>(const LengthMm&) const = default;
};

// Inclusive limits; an empty side is unbounded. Designated initializers read well:
// `{.min = 1, .max = 1024}`.
template <class T>
struct Bounds {
  std::optional<T> min = std::nullopt;
  std::optional<T> max = std::nullopt;
};

// The value types a scenario can hold. Integers read as double; nothing else converts.
template <class T>
concept Readable = std::same_as<T, int64_t> || std::same_as<T, double> || std::same_as<T, bool> ||
    std::same_as<T, std::string> || std::same_as<T, sim::Duration> || std::same_as<T, sim::Bytes> ||
    std::same_as<T, sim::BitsPerSecond> || std::same_as<T, LengthMm>;

// The problem with `node` as the type of `out`, or nullopt (and `out` set) when it is one.
std::optional<std::string> convert(const toml::node& node, int64_t& out);
std::optional<std::string> convert(const toml::node& node, double& out);
std::optional<std::string> convert(const toml::node& node, bool& out);
std::optional<std::string> convert(const toml::node& node, std::string& out);
std::optional<std::string> convert(const toml::node& node, sim::Duration& out);
std::optional<std::string> convert(const toml::node& node, sim::Bytes& out);
std::optional<std::string> convert(const toml::node& node, sim::BitsPerSecond& out);
std::optional<std::string> convert(const toml::node& node, LengthMm& out);

// How a bound is printed: 1024, 0.5, 2us, 9KB, 100Gbps, 100000mm.
std::string show(int64_t v);
std::string show(double v);
std::string show(bool v);
std::string show(const std::string& v);
std::string show(sim::Duration v);
std::string show(sim::Bytes v);
std::string show(sim::BitsPerSecond v);
std::string show(LengthMm v);

// The problem with `value` (read from `node`) against `bounds`, or nullopt when within them.
template <Readable T>
std::optional<std::string> check_bounds(const T& value, const Bounds<T>& bounds,
                                        const toml::node& node) {
  const bool low = bounds.min && value < *bounds.min;
  const bool high = bounds.max && value > *bounds.max;
  if (!low && !high) return std::nullopt;
  std::string limit;
  if (bounds.min && bounds.max) {
    limit = "must be between " + show(*bounds.min) + " and " + show(*bounds.max);
  } else if (bounds.min) {
    limit = "must be at least " + show(*bounds.min);
  } else {
    limit = "must be at most " + show(*bounds.max);
  }
  return limit + ", got " + describe(node);
}

}  // namespace xoff::config
