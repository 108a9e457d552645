// --set path=value overrides: applied before reading, through the same checks as the file,
// with errors that name the override instead of a file position.
#include "app/config/overrides.h"

#include <gtest/gtest.h>

#include "test/app/config/test_util.h"

namespace xoff::config {
namespace {
using namespace sim::literals;
using testing::Scenario;
using Sets = std::vector<std::string>;

TEST(Overrides, ReplaceAndAddValuesBeforeReading) {
  const Sets sets = {"ecn.kmin=50KB", "buffer.alpha=0.5", "pfc.enabled=false", "name=\"a b\""};
  Scenario s(R"([ecn]
kmin = "100KB"

[buffer]
alpha = 0.25
)",
             sets);
  EXPECT_EQ(s.root.table("ecn").required<sim::Bytes>("kmin"), 50_KB);
  EXPECT_EQ(s.root.table("buffer").required<double>("alpha"), 0.5);
  EXPECT_FALSE(s.root.table("pfc").optional("enabled", true));  // table and key added
  EXPECT_EQ(s.root.required<std::string>("name"), "a b");
  s.root.finish();
  EXPECT_EQ(s.errors(), "");
}

TEST(Overrides, ValuesParseAsTomlElseAsText) {
  const Sets sets = {"a=hello world", "b=x=y", "c=[1, 2]", "d=true", "e=7", "f=", "g=[1,"};
  Scenario s("", sets);
  EXPECT_EQ(s.root.required<std::string>("a"), "hello world");
  EXPECT_EQ(s.root.required<std::string>("b"), "x=y");  // split at the first '='
  EXPECT_EQ(s.root.array<int64_t>("c"), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(s.root.required<bool>("d"));
  EXPECT_EQ(s.root.required<int64_t>("e"), 7);
  EXPECT_EQ(s.root.required<std::string>("f"), "");
  EXPECT_EQ(s.root.required<std::string>("g"), "[1,");
  EXPECT_EQ(s.errors(), "");
}

TEST(Overrides, LaterOverridesWin) {
  const Sets sets = {"seed=1", "seed=2"};
  Scenario s("seed = 0\n", sets);
  EXPECT_EQ(s.root.required<int64_t>("seed"), 2);
}

TEST(Overrides, BadValueErrorNamesTheOverride) {
  const Sets sets = {"link.rate=100G"};
  Scenario s("[link]\nrate = \"100Gbps\"\n", sets);
  s.root.table("link").required<sim::BitsPerSecond>("rate");
  EXPECT_EQ(s.errors(),
            "--set link.rate=100G: error: link.rate: expected a rate like \"100Gbps\" (units: "
            "bps, Kbps, Mbps, Gbps, Tbps), got \"100G\": unknown unit \"G\"");
}

TEST(Overrides, UnknownKeyViaSetSuggestsTheNearestKey) {
  const Sets sets = {"ecn.kmni=1", "ecnn.kmin=1KB"};
  Scenario s("[ecn]\nkmin = \"100KB\"\n", sets);
  s.root.table("ecn").required<sim::Bytes>("kmin");
  s.root.finish();
  EXPECT_EQ(s.errors(),
            "--set ecn.kmni=1: error: ecn: unknown key \"kmni\" (did you mean \"kmin\"?)\n"
            "--set ecnn.kmin=1KB: error: unknown key \"ecnn\" (did you mean \"ecn\"?)");
}

TEST(Overrides, ArrayIndexSelectsOneTableOfAnArray) {
  const Sets sets = {"traffic.flows[2].size=1MB", "ports[1]=7"};
  Scenario s(R"(ports = [1, 2, 3]

[[traffic.flows]]
size = "1KB"

[[traffic.flows]]
size = "2KB"

[[traffic.flows]]
size = "3KB"
)",
             sets);
  std::vector<sim::Bytes> sizes;
  for (TableReader flow : s.root.table("traffic").array_of_tables("flows")) {
    sizes.push_back(flow.required<sim::Bytes>("size"));
  }
  EXPECT_EQ(sizes, (std::vector<sim::Bytes>{1_KB, 2_KB, 1_MB}));
  EXPECT_EQ(s.root.array<int64_t>("ports"), (std::vector<int64_t>{1, 7, 3}));
  EXPECT_EQ(s.errors(), "");
}

TEST(Overrides, ErrorsInTheOverridesThemselvesAreReportedTogether) {
  const Sets sets = {
      "ecn.kmin",     "traffic.flows[5].size=1MB", "name.x=1", "ecn[0].kmin=1", "a..b=1",
      "nothere[0]=1", "traffic.flows[x]=1"};
  try {
    Scenario s(R"(name = "x"
[ecn]
kmin = "1KB"
[[traffic.flows]]
size = "1KB"
)",
               sets);
    FAIL() << "no error";
  } catch (const ScenarioErrors& e) {
    const std::string usage =
        "expected path=value, e.g. --set ecn.kmin=100KB or --set flows[2].size=1MB";
    EXPECT_EQ(std::string(e.what()),
              "--set ecn.kmin: error: " + usage + "\n" +
                  "--set traffic.flows[5].size=1MB: error: traffic.flows: index 5 is out of "
                  "range (1 entry, counted from 0)\n"
                  "--set name.x=1: error: name: is \"x\", not a table\n"
                  "--set ecn[0].kmin=1: error: ecn: cannot index a table with [0]\n"
                  "--set a..b=1: error: " +
                  usage + "\n" +
                  "--set nothere[0]=1: error: nothere: there is no array \"nothere\" to index\n"
                  "--set traffic.flows[x]=1: error: " +
                  usage);
    EXPECT_EQ(e.errors().size(), 7u);
  }
}

TEST(Overrides, ApplyOverrideReportsIntoDiagnostics) {
  toml::table doc = toml::parse("x = 1");
  Diagnostics diag;
  EXPECT_TRUE(apply_override(doc, "x=2", diag));
  EXPECT_FALSE(apply_override(doc, "x.y=2", diag));
  EXPECT_EQ(doc["x"].value<int64_t>(), 2);
  EXPECT_EQ(diag.report(), "--set x.y=2: error: x: is 2, not a table");
}

}  // namespace
}  // namespace xoff::config
