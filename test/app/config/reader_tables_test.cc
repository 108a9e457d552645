// TableReader on nested tables: paths through arrays of tables in messages, missing or
// mistyped tables reported once, user-named keys, and which tables finish() checks.
// Columns are counted by hand from the TOML text beside each expectation (1-based).
#include <gtest/gtest.h>

#include "app/config/reader.h"
#include "test/app/config/test_util.h"

namespace xoff::config {
namespace {
using namespace sim::literals;
using testing::Scenario;

constexpr const char* kLinks = R"([topology]
kind = "explicit"

[[topology.links]]
a = "h0"
rate = "100Gbps"
rte = "1Gbps"

[[topology.links]]
a = "h1"
rate = "40G"

[[topology.links]]
a = "h2"
)";

TEST(TableReader, ArrayOfTablesPathsNameTheElement) {
  Scenario s(kLinks);
  TableReader topology = s.root.table("topology");
  EXPECT_EQ(topology.choice("kind", {"spine_leaf", "fat_tree", "ring", "explicit"}), "explicit");
  std::vector<std::string> ends;
  std::vector<sim::BitsPerSecond> rates;
  for (TableReader link : topology.array_of_tables("links")) {
    ends.push_back(link.required<std::string>("a"));
    rates.push_back(link.required<sim::BitsPerSecond>("rate"));
  }
  s.root.finish();
  EXPECT_EQ(ends, (std::vector<std::string>{"h0", "h1", "h2"}));
  EXPECT_EQ(rates[0], 100_Gbps);
  // rte: line 7; rate = "40G": line 11, column 8; the third [[topology.links]]: line 13.
  EXPECT_EQ(s.errors(),
            "t.toml:7:1: error: topology.links[0]: unknown key \"rte\" (did you mean \"rate\"?)\n"
            "t.toml:11:8: error: topology.links[1].rate: expected a rate like \"100Gbps\" "
            "(units: bps, Kbps, Mbps, Gbps, Tbps), got \"40G\": unknown unit \"G\"\n"
            "t.toml:13:1: error: topology.links[2]: missing required key \"rate\"");
}

TEST(TableReader, InlineTablesReadLikeTablesAndOtherElementsAreRefused) {
  // links = [{ rate = "1Gbps" }, 5]: the "5" is at column 30.
  Scenario s("links = [{ rate = \"1Gbps\" }, 5]\nports = 5\n");
  std::vector<TableReader> links = s.root.array_of_tables("links");
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].path(), "links[0]");
  EXPECT_EQ(links[0].required<sim::BitsPerSecond>("rate"), 1_Gbps);
  EXPECT_TRUE(s.root.array_of_tables("ports").empty());
  EXPECT_TRUE(s.root.array_of_tables("absent").empty());
  EXPECT_EQ(s.errors(),
            "t.toml:1:30: error: links[1]: expected a table, got 5\n"
            "t.toml:2:9: error: ports: expected an array of tables ([[ports]]), got 5");
}

TEST(TableReader, MissingRequiredTableIsReportedOnce) {
  Scenario s("seed = 1\n");
  s.root.required<int64_t>("seed");
  TableReader ecn = s.root.table("ecn");
  EXPECT_EQ(ecn.path(), "ecn");
  EXPECT_EQ(ecn.required<sim::Bytes>("kmin"), sim::Bytes(0));  // not reported again
  EXPECT_TRUE(ecn.array_of_tables("queues").empty());
  s.root.finish();
  EXPECT_EQ(s.errors(), "t.toml:1:1: error: missing required key \"ecn\"");
}

TEST(TableReader, MistypedTableIsReportedOnceAtTheValue) {
  Scenario s("ecn = 5\n");  // "5" at column 7
  s.root.table("ecn").required<sim::Bytes>("kmin");
  EXPECT_FALSE(s.root.optional_table("ecn").has_value());  // the same error is kept once
  s.root.finish();
  EXPECT_EQ(s.errors(), "t.toml:1:7: error: ecn: expected a table, got 5");
}

TEST(TableReader, KeysAcceptsUserChosenNames) {
  Scenario s(R"([dscp]
rdma = 3
cnp = 6
)");
  TableReader dscp = s.root.table("dscp");
  const std::vector<std::string> names = dscp.keys();
  EXPECT_EQ(names, (std::vector<std::string>{"cnp", "rdma"}));  // toml++ keeps keys sorted
  for (const auto& name : names) dscp.required<int64_t>(name, {.min = 0, .max = 63});
  s.root.finish();
  EXPECT_EQ(s.errors(), "");
}

TEST(TableReader, HasMakesAKeyKnownWithoutOpeningIt) {
  Scenario s("[pfc]\nenabled = true\n");
  EXPECT_TRUE(s.root.has("pfc"));
  EXPECT_FALSE(s.root.has("ecn"));
  s.root.finish();  // pfc was never opened, so its keys are not checked
  EXPECT_EQ(s.errors(), "");
}

TEST(TableReader, FinishChecksTablesAtEveryDepth) {
  Scenario s(R"([a]
x = 1
[a.b]
y = 2
z = 3
)");
  TableReader a = s.root.table("a");
  a.required<int64_t>("x");
  a.table("b").required<int64_t>("y");
  s.root.finish();
  EXPECT_EQ(s.errors(), "t.toml:5:1: error: a.b: unknown key \"z\" (known keys here: y)");
}

TEST(TableReader, QuotesKeysThatAreNotBareInPaths) {
  Scenario s("[hosts.\"h 1\"]\nrate = 1\n");
  TableReader h1 = s.root.table("hosts").table("h 1");
  EXPECT_EQ(h1.path_of("rate"), "hosts.\"h 1\".rate");
}

}  // namespace
}  // namespace xoff::config
