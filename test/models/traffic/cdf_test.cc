#include "models/traffic/cdf.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace xoff::models {
namespace {

std::string shipped(const std::string& name) {
  std::ifstream in(std::string(XOFF_SOURCE_DIR) + "/scenarios/cdf/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The message of the CdfError that parsing `text` throws, and its line.
std::pair<std::string, int> parse_error(const std::string& text) {
  try {
    parse_cdf(text, "t.txt");
  } catch (const CdfError& e) {
    return {e.what(), e.line()};
  }
  return {"no error", -1};
}

TEST(FlowSizeCdf, ShippedWebSearchHasTheTrapezoidMean) {
  const FlowSizeCdf cdf = parse_cdf(shipped("websearch.txt"), "websearch.txt");
  ASSERT_EQ(cdf.points().size(), 12u);
  // By hand, in percent x bytes: 15x5k + 5x15k + 10x25k + 10x40k + 13x65k + 7x140k
  // + 10x600k + 10x1.5M + 10x3.5M + 7x7.5M + 3x20M = 171 125 000 -> 1 711 250 B.
  EXPECT_NEAR(cdf.mean_bytes(), 1'711'250.0, 1e-6);
}

TEST(FlowSizeCdf, ShippedHadoopHasTheTrapezoidMean) {
  const FlowSizeCdf cdf = parse_cdf(shipped("hadoop.txt"), "hadoop.txt");
  ASSERT_EQ(cdf.points().size(), 20u);
  // Segments up to 30 kB add 92 075 %B; then 10x40k + 5x65k + 3x100k + 5x210k
  // + 2.5x650k + 1.5x1.5M + 1x6M = 11 950 000 %B; total 12 042 075 -> 120 420.75 B.
  EXPECT_NEAR(cdf.mean_bytes(), 120'420.75, 1e-6);
}

TEST(FlowSizeCdf, InterpolatesLinearlyWithinASegment) {
  const FlowSizeCdf cdf = parse_cdf(shipped("websearch.txt"));
  // u = 0.5 lies between (50 000 B, 0.40) and (80 000 B, 0.53):
  // 50 000 + 30 000 x 0.10 / 0.13 = 73 076.9 B.
  EXPECT_NEAR(cdf.quantile(0.5), 73'076.923, 1e-3);
  EXPECT_DOUBLE_EQ(cdf.quantile(0.0), 0.0);
  EXPECT_DOUBLE_EQ(cdf.quantile(1.0), 30'000'000.0);
}

TEST(FlowSizeCdf, PercentFilesReadLikeFractionFiles) {
  const FlowSizeCdf pct = parse_cdf("0 0\n1000 50\n3000 100\n");
  const FlowSizeCdf frac = parse_cdf("0 0\n1000 0.5\n3000 1\n");
  EXPECT_DOUBLE_EQ(pct.mean_bytes(), frac.mean_bytes());
  // 0.5 x 500 + 0.5 x 2000 = 1250 B.
  EXPECT_DOUBLE_EQ(frac.mean_bytes(), 1250.0);
}

TEST(FlowSizeCdf, FirstPointAboveZeroIsAPointMass) {
  // 30% of flows are exactly 100 B, the rest uniform on 100..1100 B.
  const FlowSizeCdf cdf = parse_cdf("# comment\n\n100 0.3   # mice\n1100 1\n");
  EXPECT_DOUBLE_EQ(cdf.quantile(0.1), 100.0);
  // 0.3 x 100 + 0.7 x 600 = 450 B.
  EXPECT_DOUBLE_EQ(cdf.mean_bytes(), 450.0);
  sim::Rng rng(1, "test/cdf");
  for (int i = 0; i < 100; ++i) {
    const int64_t s = cdf.sample(rng).count();
    EXPECT_GE(s, 100);
    EXPECT_LE(s, 1100);
  }
}

TEST(CdfParser, NamesTheLineOfADecreasingSize) {
  const auto [msg, line] = parse_error("# sizes\n0 0\n10000 0.5\n5000 0.7\n20000 1\n");
  EXPECT_EQ(line, 4);
  EXPECT_EQ(msg, "t.txt:4: size 5000 is below the previous size 10000 (sizes must not decrease)");
}

TEST(CdfParser, NamesTheLineOfADecreasingCdf) {
  const auto [msg, line] = parse_error("0 0\n10 0.6\n20 0.4\n30 1\n");
  EXPECT_EQ(line, 3);
  EXPECT_EQ(msg, "t.txt:3: cdf 0.4 is below the previous cdf 0.6 (a CDF must not decrease)");
}

TEST(CdfParser, ShowsPercentValuesAsWritten) {
  const auto [msg, line] = parse_error("0 0\n10 60\n20 40\n30 100\n");
  EXPECT_EQ(msg, "t.txt:3: cdf 40 is below the previous cdf 60 (a CDF must not decrease)");
}

TEST(CdfParser, RefusesACdfThatDoesNotEndAtOne) {
  const auto [msg, line] = parse_error("0 0\n10 0.5\n\n20 0.97\n# end\n");
  EXPECT_EQ(line, 4);
  EXPECT_EQ(msg, "t.txt:4: the last cdf is 0.97; a CDF must end at 1 (or at 100 when in percent)");
}

TEST(CdfParser, RefusesALineThatIsNotTwoNumbers) {
  auto [msg, line] = parse_error("0 0\n10 0.5 7\n20 1\n");
  EXPECT_EQ(line, 2);
  EXPECT_EQ(msg, "t.txt:2: expected two numbers 'size_bytes cdf', got '10 0.5 7'");
  std::tie(msg, line) = parse_error("0 0\n10KB 0.5\n20 1\n");
  EXPECT_EQ(line, 2);
}

TEST(CdfParser, RefusesValuesOutOfRangeAndEmptyText) {
  EXPECT_EQ(parse_error("0 0\n10 1.5\n20 1\n").first, "t.txt:2: cdf 1.5 is outside [0, 1]");
  EXPECT_EQ(parse_error("-5 0\n20 1\n").first,
            "t.txt:1: size -5 must be a finite number of bytes >= 0");
  EXPECT_EQ(parse_error("# nothing\n").first,
            "t.txt: no points: expected lines of 'size_bytes cdf'");
}

TEST(FlowSizeCdf, BuiltFromPointsChecksThemToo) {
  EXPECT_THROW(FlowSizeCdf({{0, 0}, {10, 0.5}}), CdfError);
  EXPECT_THROW(FlowSizeCdf({}), CdfError);
}

}  // namespace
}  // namespace xoff::models
