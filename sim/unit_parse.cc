#include "sim/unit_parse.h"

#include <cctype>
#include <cstdio>
#include <span>

namespace xoff::sim {
namespace {

struct UnitScale {
  std::string_view name;
  int64_t scale;  // base units per one of this unit
};

constexpr UnitScale kDurationUnits[] = {
    {"ps", 1}, {"ns", 1'000}, {"us", 1'000'000}, {"ms", 1'000'000'000}, {"s", 1'000'000'000'000}};
constexpr UnitScale kByteUnits[] = {
    {"B", 1},         {"KB", 1'000},    {"MB", 1'000'000},        {"GB", 1'000'000'000},
    {"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", int64_t{1} << 30}};
constexpr UnitScale kRateUnits[] = {{"bps", 1},
                                    {"Kbps", 1'000},
                                    {"Mbps", 1'000'000},
                                    {"Gbps", 1'000'000'000},
                                    {"Tbps", 1'000'000'000'000}};
constexpr UnitScale kLengthUnits[] = {{"mm", 1}, {"cm", 10}, {"m", 1'000}, {"km", 1'000'000}};

std::string unit_list(std::span<const UnitScale> units) {
  std::string out;
  for (const auto& u : units) {
    if (!out.empty()) out += ", ";
    out += u.name;
  }
  return out;
}

[[noreturn]] void fail(std::string_view kind, std::string_view example,
                       std::span<const UnitScale> units, std::string_view text,
                       std::string_view why) {
  throw UnitError("expected a " + std::string(kind) + " like \"" + std::string(example) +
                  "\" (units: " + unit_list(units) + "), got \"" + std::string(text) + "\"" +
                  (why.empty() ? "" : ": " + std::string(why)));
}

int64_t parse_scaled(std::string_view text, std::span<const UnitScale> units, std::string_view kind,
                     std::string_view example) {
  size_t i = 0;
  Int128 mantissa = 0;
  int frac_digits = 0;
  bool any_digit = false;
  bool in_fraction = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (mantissa > (static_cast<Int128>(1) << 100)) fail(kind, example, units, text, "too large");
      mantissa = mantissa * 10 + (c - '0');
      any_digit = true;
      if (in_fraction) ++frac_digits;
    } else if (c == '.' && !in_fraction) {
      in_fraction = true;
    } else if (c == '_' && any_digit) {
      continue;  // digit separator, as TOML allows in numbers
    } else {
      break;
    }
  }
  if (!any_digit) fail(kind, example, units, text, "no number");
  std::string_view unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) fail(kind, example, units, text, "a unit is required");
  for (const auto& u : units) {
    if (u.name != unit) continue;
    Int128 value = mantissa * u.scale;
    Int128 div = 1;
    for (int k = 0; k < frac_digits; ++k) div *= 10;
    if (value % div != 0)
      fail(kind, example, units, text, "not a whole number of " + std::string(units[0].name));
    value /= div;
    if (value > std::numeric_limits<int64_t>::max()) fail(kind, example, units, text, "too large");
    return static_cast<int64_t>(value);
  }
  fail(kind, example, units, text, "unknown unit \"" + std::string(unit) + "\"");
}

std::string format_scaled(int64_t v, std::span<const UnitScale> units) {
  const UnitScale* best = &units[0];
  for (const auto& u : units) {
    if (u.scale <= (v < 0 ? -v : v) && u.scale >= best->scale) best = &u;
  }
  char buf[64];
  if (v % best->scale == 0) {
    std::snprintf(buf, sizeof buf, "%lld%.*s", static_cast<long long>(v / best->scale),
                  static_cast<int>(best->name.size()), best->name.data());
  } else {
    std::snprintf(buf, sizeof buf, "%.3f%.*s",
                  static_cast<double>(v) / static_cast<double>(best->scale),
                  static_cast<int>(best->name.size()), best->name.data());
  }
  return buf;
}

}  // namespace

Duration parse_duration(std::string_view text) {
  return Duration::ps(parse_scaled(text, kDurationUnits, "duration", "2us"));
}
Bytes parse_bytes(std::string_view text) {
  return Bytes(parse_scaled(text, kByteUnits, "size", "9KB"));
}
BitsPerSecond parse_rate(std::string_view text) {
  return BitsPerSecond(parse_scaled(text, kRateUnits, "rate", "100Gbps"));
}
int64_t parse_length_mm(std::string_view text) {
  return parse_scaled(text, kLengthUnits, "length", "100m");
}

std::string format_duration(Duration d) { return format_scaled(d.count_ps(), kDurationUnits); }
std::string format_bytes(Bytes b) {
  // Decimal units only in output: people compare against datasheets in KB/MB.
  constexpr UnitScale dec[] = {{"B", 1}, {"KB", 1'000}, {"MB", 1'000'000}, {"GB", 1'000'000'000}};
  return format_scaled(b.count(), dec);
}
std::string format_rate(BitsPerSecond r) { return format_scaled(r.count(), kRateUnits); }

}  // namespace xoff::sim
