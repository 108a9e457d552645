// TableReader on scalar values: every type, unit and bound errors at the value's own line and
// column, choices, missing and unknown keys, cross-field errors, and collecting them all.
// Columns are counted by hand from the TOML text beside each expectation (1-based).
#include <gtest/gtest.h>

#include "app/config/reader.h"
#include "sim/unit_parse.h"
#include "test/app/config/test_util.h"

namespace xoff::config {
namespace {
using namespace sim::literals;
using testing::Scenario;

TEST(TableReader, ReadsEveryTypeWithItsUnit) {
  Scenario s(R"(hosts = 16
alpha = 0.5
enabled = true
name = "incast"
delay = "1.5us"
size = "9KiB"
rate = "100Gbps"
cable = "100m"
)");
  EXPECT_EQ(s.root.required<int64_t>("hosts", {.min = 1, .max = 1024}), 16);
  EXPECT_EQ(s.root.required<double>("alpha", {.min = 0.0, .max = 1.0}), 0.5);
  EXPECT_TRUE(s.root.required<bool>("enabled"));
  EXPECT_EQ(s.root.required<std::string>("name"), "incast");
  EXPECT_EQ(s.root.required<sim::Duration>("delay").count_ps(), 1'500'000);
  EXPECT_EQ(s.root.required<sim::Bytes>("size"), 9216_B);
  EXPECT_EQ(s.root.required<sim::BitsPerSecond>("rate"), 100_Gbps);
  EXPECT_EQ(s.root.required<LengthMm>("cable").mm, 100'000);
  s.root.finish();
  EXPECT_EQ(s.errors(), "");
}

TEST(TableReader, OptionalFallsBackOnlyWhenAbsent) {
  Scenario s("pmax = 0.2\n");
  EXPECT_EQ(s.root.optional("pmax", 0.5), 0.2);
  EXPECT_EQ(s.root.optional("kmin", 5_KB), 5_KB);
  EXPECT_EQ(s.root.maybe<sim::Duration>("rto"), std::nullopt);
  EXPECT_EQ(s.errors(), "");
}

TEST(TableReader, UnitErrorsPointAtTheValue) {
  Scenario s(R"([link]
rate = "100G"
delay = 2
)");
  TableReader link = s.root.table("link");
  EXPECT_EQ(link.required<sim::BitsPerSecond>("rate"), sim::BitsPerSecond(0));
  EXPECT_EQ(link.optional("delay", 1_us), 1_us);  // the fallback, after reporting
  // rate = "100G": the value opens at column 8; delay = 2: at column 9.
  EXPECT_EQ(s.errors(),
            "t.toml:2:8: error: link.rate: expected a rate like \"100Gbps\" (units: bps, Kbps, "
            "Mbps, Gbps, Tbps), got \"100G\": unknown unit \"G\"\n"
            "t.toml:3:9: error: link.delay: expected a duration like \"2us\" (units: ps, ns, us, "
            "ms, s), got 2: a unit is required");
}

TEST(TableReader, BoundsErrorsSayTheLimits) {
  Scenario s(R"(hosts = 0
alpha = 1.5
buffer = "20MB"
)");
  EXPECT_EQ(s.root.required<int64_t>("hosts", {.min = 1, .max = 1024}), 0);
  EXPECT_EQ(s.root.optional("alpha", 0.25, {.min = 0.0, .max = 1.0}), 0.25);
  s.root.required<sim::Bytes>("buffer", {.max = 12_MB});
  EXPECT_EQ(s.errors(),
            "t.toml:1:9: error: hosts: must be between 1 and 1024, got 0\n"
            "t.toml:2:9: error: alpha: must be between 0 and 1, got 1.5\n"
            "t.toml:3:10: error: buffer: must be at most 12MB, got \"20MB\"");
}

TEST(TableReader, ChoiceErrorListsTheAllowedValues) {
  Scenario s(R"([pfc.watchdog]
action = "dorp"
mode = "pause"
level = 1
)");
  TableReader wd = s.root.table("pfc").table("watchdog");
  EXPECT_EQ(wd.choice("action", {"drop", "forward", "alert"}), "");
  EXPECT_EQ(wd.choice("mode", {"lossless", "lossy"}, "lossy"), "lossy");
  EXPECT_EQ(wd.choice("level", {"low", "high"}, "low"), "low");
  EXPECT_EQ(s.errors(),
            "t.toml:2:10: error: pfc.watchdog.action: expected one of \"drop\", \"forward\", "
            "\"alert\", got \"dorp\" (did you mean \"drop\"?)\n"
            "t.toml:3:8: error: pfc.watchdog.mode: expected one of \"lossless\", \"lossy\", got "
            "\"pause\"\n"
            "t.toml:4:9: error: pfc.watchdog.level: expected one of \"low\", \"high\", got 1");
}

TEST(TableReader, ChoiceReturnsTheValueWritten) {
  Scenario s("action = \"forward\"\n");
  EXPECT_EQ(s.root.choice("action", {"drop", "forward", "alert"}, "drop"), "forward");
  EXPECT_EQ(s.root.choice("other", {"a", "b"}, "b"), "b");
  EXPECT_EQ(s.errors(), "");
}

TEST(TableReader, MissingRequiredKeyIsReportedAtItsTable) {
  Scenario s(R"(name = "x"

[ecn]
kmax = "200KB"
)");
  s.root.required<int64_t>("seed");
  TableReader ecn = s.root.table("ecn");
  ecn.required<sim::Bytes>("kmin");
  ecn.required<sim::Bytes>("kmax");
  s.root.required<std::string>("name");
  // The root table starts at 1:1; [ecn] at 3:1.
  EXPECT_EQ(s.errors(),
            "t.toml:1:1: error: missing required key \"seed\"\n"
            "t.toml:3:1: error: ecn: missing required key \"kmin\"");
}

TEST(TableReader, UnknownKeySuggestsTheNearestKnownKey) {
  Scenario s(R"([ecn]
kmni = "100KB"
kmax = "200KB"
)");
  TableReader ecn = s.root.table("ecn");
  ecn.optional("kmin", 5_KB);
  ecn.optional("kmax", 200_KB);
  s.root.finish();
  EXPECT_EQ(s.errors(), "t.toml:2:1: error: ecn: unknown key \"kmni\" (did you mean \"kmin\"?)");
}

TEST(TableReader, UnknownKeyFarFromAllListsTheKnownKeys) {
  Scenario s("[ecn]\nfoo = 1\n");
  TableReader ecn = s.root.table("ecn");
  ecn.maybe<sim::Bytes>("kmin");
  ecn.maybe<sim::Bytes>("kmax");
  ecn.maybe<double>("pmax");
  s.root.finish();
  EXPECT_EQ(s.errors(),
            "t.toml:2:1: error: ecn: unknown key \"foo\" (known keys here: kmax, kmin, pmax)");
}

TEST(TableReader, UnknownSectionIsReportedOnceAtItsName) {
  Scenario s(R"(seed = 1

[ecnn]
kmin = "1KB"
)");
  s.root.required<int64_t>("seed");
  EXPECT_FALSE(s.root.optional_table("ecn").has_value());
  s.root.finish();
  s.root.finish();  // idempotent
  // The key "ecnn" of the header [ecnn] starts at column 2; its contents are not reported.
  EXPECT_EQ(s.errors(), "t.toml:3:2: error: unknown key \"ecnn\" (did you mean \"ecn\"?)");
}

TEST(TableReader, ArraysOfValuesCheckEachElement) {
  Scenario s(R"(hosts = ["h0", "h1"]
ports = [1, 2, 70]
times = ["1us", 2]
single = "h0"
)");
  EXPECT_EQ(s.root.array<std::string>("hosts"), (std::vector<std::string>{"h0", "h1"}));
  EXPECT_EQ(s.root.array<int64_t>("ports", {.max = 64}), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(s.root.array<sim::Duration>("times"), (std::vector<sim::Duration>{1_us}));
  EXPECT_TRUE(s.root.array<std::string>("single").empty());
  EXPECT_TRUE(s.root.array<int64_t>("absent").empty());
  // ports = [1, 2, 70]: "70" at column 16. times = ["1us", 2]: "2" at column 17.
  EXPECT_EQ(s.errors(),
            "t.toml:2:16: error: ports[2]: must be at most 64, got 70\n"
            "t.toml:3:17: error: times[1]: expected a duration like \"2us\" (units: ps, ns, us, "
            "ms, s), got 2: a unit is required\n"
            "t.toml:4:10: error: single: expected an array, got \"h0\"");
}

TEST(TableReader, CrossFieldErrorPointsAtTheNamedKey) {
  Scenario s(R"([ecn]
kmin = "300KB"
kmax = "200KB"
)");
  TableReader ecn = s.root.table("ecn");
  const sim::Bytes kmin = ecn.required<sim::Bytes>("kmin");
  const sim::Bytes kmax = ecn.required<sim::Bytes>("kmax");
  if (kmin > kmax) {
    ecn.error_at("kmin", ecn.path_of("kmin") + " (" + sim::format_bytes(kmin) +
                             ") must not exceed " + ecn.path_of("kmax") + " (" +
                             sim::format_bytes(kmax) + ")");
  }
  ecn.error_at("pmax", "is needed when kmin is set");  // absent: at the table
  EXPECT_EQ(s.errors(),
            "t.toml:1:1: error: ecn.pmax: is needed when kmin is set\n"
            "t.toml:2:8: error: ecn.kmin (300KB) must not exceed ecn.kmax (200KB)");
}

TEST(TableReader, CollectsEveryErrorAndRaisesThemInFileOrder) {
  Scenario s(R"(hosts = "4"
[link]
rate = 100
rte = "1Gbps"
)");
  s.root.table("link").required<sim::BitsPerSecond>("rate");
  s.root.required<int64_t>("hosts");
  s.root.finish();
  try {
    s.diag.raise_if_any();
    FAIL() << "no errors raised";
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(),
                 "t.toml:1:9: error: hosts: expected an integer, got \"4\"\n"
                 "t.toml:3:8: error: link.rate: expected a rate like \"100Gbps\" (units: bps, "
                 "Kbps, Mbps, Gbps, Tbps), got 100: a unit is required\n"
                 "t.toml:4:1: error: link: unknown key \"rte\" (did you mean \"rate\"?)");
    EXPECT_EQ(e.where().line, 1u);
  }
}

}  // namespace
}  // namespace xoff::config
