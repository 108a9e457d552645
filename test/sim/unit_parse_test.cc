#include "sim/unit_parse.h"

#include <gtest/gtest.h>

namespace xoff::sim {
namespace {
using namespace literals;

TEST(ParseDuration, AcceptsAllUnitsAndDecimals) {
  EXPECT_EQ(parse_duration("2us"), 2_us);
  EXPECT_EQ(parse_duration("1.5us").count_ps(), 1'500'000);
  EXPECT_EQ(parse_duration("335.5us").count_ps(), 335'500'000);
  EXPECT_EQ(parse_duration("640ps").count_ps(), 640);
  EXPECT_EQ(parse_duration("10ms"), 10_ms);
  EXPECT_EQ(parse_duration("0.000001s"), 1_us);
  EXPECT_EQ(parse_duration("0ns"), Duration::zero());
}

TEST(ParseBytes, DecimalAndBinaryPrefixes) {
  EXPECT_EQ(parse_bytes("9KB"), 9000_B);
  EXPECT_EQ(parse_bytes("9KiB"), 9216_B);
  EXPECT_EQ(parse_bytes("1.5MiB"), Bytes(1'572'864));  // 1.5 * 1048576
  EXPECT_EQ(parse_bytes("12MB"), Bytes(12'000'000));
  EXPECT_EQ(parse_bytes("1500B"), 1500_B);
}

TEST(ParseRate, EthernetSpeeds) {
  EXPECT_EQ(parse_rate("100Gbps"), 100_Gbps);
  EXPECT_EQ(parse_rate("25Gbps"), 25_Gbps);
  EXPECT_EQ(parse_rate("2.5Gbps"), BitsPerSecond(2'500'000'000));
  EXPECT_EQ(parse_rate("1Tbps"), BitsPerSecond(1'000'000'000'000));
}

TEST(ParseLength, CableLengths) {
  EXPECT_EQ(parse_length_mm("100m"), 100'000);
  EXPECT_EQ(parse_length_mm("1.5km"), 1'500'000);
}

void expect_error(Duration (*)(std::string_view), std::string_view text, std::string_view needle) {
  try {
    parse_duration(text);
    FAIL() << "accepted " << text;
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(ParseDuration, RejectsBadStringsWithReason) {
  expect_error(parse_duration, "2", "a unit is required");
  expect_error(parse_duration, "us", "no number");
  expect_error(parse_duration, "2 sec", "unknown unit \"sec\"");
  expect_error(parse_duration, "0.5ps", "not a whole number of ps");
  expect_error(parse_duration, "", "no number");
  expect_error(parse_duration, "-1us", "no number");
}

TEST(ParseRate, RejectsMissingSuffixAndNamesAllowedUnits) {
  try {
    parse_rate("100G");
    FAIL();
  } catch (const UnitError& e) {
    EXPECT_STREQ(e.what(),
                 "expected a rate like \"100Gbps\" (units: bps, Kbps, Mbps, Gbps, Tbps), got "
                 "\"100G\": unknown unit \"G\"");
  }
  EXPECT_THROW(parse_bytes("1.1B"), UnitError);
  EXPECT_THROW(parse_bytes("99999999999999999999999GB"), UnitError);
}

TEST(Format, PicksLargestWholeUnit) {
  EXPECT_EQ(format_duration(2_us), "2us");
  EXPECT_EQ(format_duration(Duration::ps(1'500'000)), "1.500us");
  EXPECT_EQ(format_bytes(Bytes(9000)), "9KB");
  EXPECT_EQ(format_rate(100_Gbps), "100Gbps");
}

}  // namespace
}  // namespace xoff::sim
