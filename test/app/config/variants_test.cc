// [variant.<name>] tables: the one selected by scenario.variant (or the last
// --set scenario.variant=) is merged into the document before the overrides.
#include <gtest/gtest.h>

#include "test/app/config/test_util.h"

namespace xoff::config {
namespace {
using namespace sim::literals;
using testing::Scenario;
using Sets = std::vector<std::string>;

constexpr std::string_view kText = R"([scenario]
variant = "tuned"

[ecn]
enabled = false
kmin = "100KB"

[buffer]
alpha = 0.25

[variant.baseline]

[variant.tuned.ecn]
enabled = true
kmax = "400KB"
)";

TEST(Variants, TheSelectedVariantMergesTableByTable) {
  Scenario s(kText);
  TableReader ecn = s.root.table("ecn");
  EXPECT_TRUE(ecn.required<bool>("enabled"));           // replaced by the variant
  EXPECT_EQ(ecn.required<sim::Bytes>("kmin"), 100_KB);  // kept from the file
  EXPECT_EQ(ecn.required<sim::Bytes>("kmax"), 400_KB);  // added by the variant
  EXPECT_EQ(s.root.table("buffer").required<double>("alpha"), 0.25);
}

TEST(Variants, SetSelectsTheVariantAndStillWinsOverIt) {
  const Sets pick_baseline = {"scenario.variant=baseline"};
  Scenario a(kText, pick_baseline);
  EXPECT_FALSE(a.root.table("ecn").required<bool>("enabled"));  // the empty variant changes nothing

  const Sets tuned_but = {"scenario.variant=\"tuned\"", "ecn.kmax=300KB"};
  Scenario b(kText, tuned_but);
  EXPECT_TRUE(b.root.table("ecn").required<bool>("enabled"));
  EXPECT_EQ(b.root.table("ecn").required<sim::Bytes>("kmax"), 300_KB);
}

TEST(Variants, AnUnknownVariantListsTheDefinedOnes) {
  try {
    Scenario s(kText, Sets{"scenario.variant=tunde"});
    FAIL() << "an unknown variant must be refused";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set scenario.variant=tunde: error: scenario.variant: no variant \"tunde\" in "
              "this scenario (it defines baseline, tuned)");
  }
  try {
    Scenario s("[scenario]\nvariant = \"x\"\n");
    FAIL() << "a variant in a file without variants must be refused";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.toml:2:11: error: scenario.variant: no variant \"x\" in this scenario (it "
              "defines none: add [variant.<name>] tables)");
  }
}

}  // namespace
}  // namespace xoff::config
