#include "app/config/convert.h"

#include <gtest/gtest.h>

namespace xoff::config {
namespace {
using namespace sim::literals;

// The node `x` of a one-line document "x = <text>".
toml::table doc_of(std::string_view text) { return toml::parse("x = " + std::string(text)); }

template <class T>
std::optional<std::string> problem(std::string_view text) {
  const toml::table doc = doc_of(text);
  T out{};
  return convert(*doc.get("x"), out);
}

template <class T>
T value(std::string_view text) {
  const toml::table doc = doc_of(text);
  T out{};
  EXPECT_EQ(convert(*doc.get("x"), out), std::nullopt) << text;
  return out;
}

TEST(Convert, ReadsEveryType) {
  EXPECT_EQ(value<int64_t>("16"), 16);
  EXPECT_EQ(value<double>("0.5"), 0.5);
  EXPECT_EQ(value<double>("2"), 2.0);  // an integer is a fine number
  EXPECT_EQ(value<bool>("true"), true);
  EXPECT_EQ(value<std::string>("\"incast\""), "incast");
  EXPECT_EQ(value<sim::Duration>("\"1.5us\"").count_ps(), 1'500'000);
  EXPECT_EQ(value<sim::Bytes>("\"9KiB\""), 9216_B);
  EXPECT_EQ(value<sim::BitsPerSecond>("\"100Gbps\""), 100_Gbps);
  EXPECT_EQ(value<LengthMm>("\"1.5km\"").mm, 1'500'000);
}

TEST(Convert, PassesOnTheUnitParsersReason) {
  EXPECT_EQ(problem<sim::BitsPerSecond>("\"100G\""),
            "expected a rate like \"100Gbps\" (units: bps, Kbps, Mbps, Gbps, Tbps), got \"100G\": "
            "unknown unit \"G\"");
  EXPECT_EQ(problem<sim::Duration>("\"0.5ps\""),
            "expected a duration like \"2us\" (units: ps, ns, us, ms, s), got \"0.5ps\": not a "
            "whole number of ps");
}

TEST(Convert, RefusesUnitlessNumbersWhereAUnitIsNeeded) {
  EXPECT_EQ(problem<sim::Duration>("2"),
            "expected a duration like \"2us\" (units: ps, ns, us, ms, s), got 2: a unit is "
            "required");
  EXPECT_EQ(problem<sim::Bytes>("1.5"),
            "expected a size like \"9KB\" (units: B, KB, MB, GB, KiB, MiB, GiB), got 1.5: a unit "
            "is required");
  EXPECT_EQ(problem<LengthMm>("true"),
            "expected a length like \"100m\" (units: mm, cm, m, km), got true");
}

TEST(Convert, NamesTheExpectedTypeAndWhatWasWritten) {
  EXPECT_EQ(problem<int64_t>("\"4\""), "expected an integer, got \"4\"");
  EXPECT_EQ(problem<int64_t>("4.0"), "expected an integer, got 4.0");
  EXPECT_EQ(problem<double>("\"0.5\""), "expected a number, got \"0.5\"");
  EXPECT_EQ(problem<double>("nan"), "expected a finite number, got nan");
  EXPECT_EQ(problem<bool>("\"yes\""), "expected true or false, got \"yes\"");
  EXPECT_EQ(problem<std::string>("5"), "expected a string, got 5");
  EXPECT_EQ(problem<std::string>("{ a = 1 }"), "expected a string, got a table");
  EXPECT_EQ(problem<std::string>("[1]"), "expected a string, got an array");
}

// Found by the fuzz driver: a NUL inside a string (a workload path) cut the
// message short at the NUL, so it lost its position. Now refused, escaped.
TEST(Convert, RefusesNulInStringsAndEscapesControlCharacters) {
  EXPECT_EQ(problem<std::string>("\"wor\\u0000k\""),
            "a string may not contain NUL (\\u0000), got \"wor\\u0000k\"");
  EXPECT_EQ(problem<int64_t>("\"a\\tb\""), "expected an integer, got \"a\\u0009b\"");
}

TEST(CheckBounds, SaysWhichLimitWasBroken) {
  const toml::table doc = doc_of("7");
  const toml::node& node = *doc.get("x");
  EXPECT_EQ(check_bounds<int64_t>(7, {.min = 1, .max = 8}, node), std::nullopt);
  EXPECT_EQ(check_bounds<int64_t>(7, {.min = 1, .max = 4}, node), "must be between 1 and 4, got 7");
  EXPECT_EQ(check_bounds<int64_t>(7, {.min = 8}, node), "must be at least 8, got 7");
  EXPECT_EQ(check_bounds<int64_t>(7, {.max = 6}, node), "must be at most 6, got 7");
  EXPECT_EQ(check_bounds<int64_t>(7, {.min = 7, .max = 7}, node), std::nullopt);  // inclusive
}

TEST(CheckBounds, PrintsLimitsInTheirUnits) {
  const toml::table doc = doc_of("\"20MB\"");
  EXPECT_EQ(check_bounds<sim::Bytes>(sim::Bytes(20'000'000), {.max = sim::Bytes(12'000'000)},
                                     *doc.get("x")),
            "must be at most 12MB, got \"20MB\"");
  EXPECT_EQ(show(2_us), "2us");
  EXPECT_EQ(show(100_Gbps), "100Gbps");
  EXPECT_EQ(show(0.25), "0.25");
  EXPECT_EQ(show(LengthMm{100'000}), "100000mm");
}

}  // namespace
}  // namespace xoff::config
