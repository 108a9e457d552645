#include "app/config/error.h"

#include <gtest/gtest.h>

namespace xoff::config {
namespace {

TEST(ScenarioError, FormatsLikeACompiler) {
  const ScenarioError e({"scenarios/incast.toml", 14, 9}, "link.rate",
                        "expected a rate like \"100Gbps\", got \"100G\"");
  EXPECT_STREQ(e.what(),
               "scenarios/incast.toml:14:9: error: link.rate: expected a rate like \"100Gbps\", "
               "got \"100G\"");
  EXPECT_EQ(e.where().line, 14u);
  EXPECT_EQ(e.where().column, 9u);
  EXPECT_EQ(e.key_path(), "link.rate");
  EXPECT_EQ(e.message(), "expected a rate like \"100Gbps\", got \"100G\"");
}

TEST(ScenarioError, PositionlessOriginPrintsOnlyTheOrigin) {
  const ScenarioError e({"--set ecn.kmni=1", 0, 0}, "ecn", "unknown key \"kmni\"");
  EXPECT_STREQ(e.what(), "--set ecn.kmni=1: error: ecn: unknown key \"kmni\"");
}

TEST(ScenarioError, LeavesOutAnEmptyKeyPath) {
  EXPECT_STREQ(ScenarioError({"a.toml", 2, 5}, "", "TOML syntax error").what(),
               "a.toml:2:5: error: TOML syntax error");
}

TEST(ScenarioError, DoesNotRepeatAKeyPathTheMessageStartsWith) {
  const ScenarioError e({"deadlock.toml", 12, 5}, "ecn.kmin",
                        "ecn.kmin (300KB) must not exceed ecn.kmax (200KB)");
  EXPECT_STREQ(e.what(),
               "deadlock.toml:12:5: error: ecn.kmin (300KB) must not exceed ecn.kmax (200KB)");
  // Only a whole path counts: "ecn.kminimum ..." does not start with the key "ecn.kmin".
  EXPECT_STREQ(ScenarioError({"d.toml", 1, 1}, "ecn.kmin", "ecn.kminimum is odd").what(),
               "d.toml:1:1: error: ecn.kmin: ecn.kminimum is odd");
}

TEST(Diagnostics, ReportsInFileOrderWithOverridesFirst) {
  Diagnostics diag;
  diag.add({"t.toml", 9, 1}, "b", "second");
  diag.add({"t.toml", 2, 7}, "a", "first");
  diag.add({"--set x=1", 0, 0}, "x", "override");
  diag.add({"t.toml", 2, 3}, "a", "first on its line");
  EXPECT_EQ(diag.count(), 4u);
  EXPECT_EQ(diag.report(),
            "--set x=1: error: x: override\n"
            "t.toml:2:3: error: a: first on its line\n"
            "t.toml:2:7: error: a: first\n"
            "t.toml:9:1: error: b: second");
}

TEST(Diagnostics, KeepsTheSameErrorOnce) {
  Diagnostics diag;
  diag.add({"t.toml", 1, 7}, "ecn", "expected a table, got 5");
  diag.add({"t.toml", 1, 7}, "ecn", "expected a table, got 5");
  diag.add({"t.toml", 1, 7}, "ecn", "something else");
  EXPECT_EQ(diag.count(), 2u);
}

TEST(Diagnostics, RaisesAllErrorsAtOnce) {
  Diagnostics diag;
  EXPECT_NO_THROW(diag.raise_if_any());
  diag.add({"t.toml", 3, 1}, "b", "two");
  diag.add({"t.toml", 1, 1}, "a", "one");
  try {
    diag.raise_if_any();
    FAIL() << "no throw";
  } catch (const ScenarioErrors& e) {
    EXPECT_STREQ(e.what(), "t.toml:1:1: error: a: one\nt.toml:3:1: error: b: two");
    ASSERT_EQ(e.errors().size(), 2u);
    EXPECT_EQ(e.key_path(), "a");  // the first in file order
    EXPECT_EQ(e.total(), 2u);
  }
}

TEST(Diagnostics, ShowsAtMostTwentyAndCountsTheRest) {
  Diagnostics diag;
  for (uint32_t line = 25; line >= 1; --line) diag.add({"t.toml", line, 1}, "k", "bad");
  const std::string report = diag.report();
  EXPECT_EQ(report.substr(0, report.find('\n')), "t.toml:1:1: error: k: bad");
  EXPECT_NE(report.find("t.toml:20:1: error: k: bad\n... and 5 more errors (25 in total)"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("t.toml:21:1"), std::string::npos);
  try {
    diag.raise_if_any();
    FAIL() << "no throw";
  } catch (const ScenarioErrors& e) {
    EXPECT_EQ(e.errors().size(), Diagnostics::kMaxShown);
    EXPECT_EQ(e.total(), 25u);
    EXPECT_EQ(std::string(e.what()), report);
  }
}

}  // namespace
}  // namespace xoff::config
