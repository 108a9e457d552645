// [nic.dcqcn_params]: the profile keys NICs expose, read onto the chosen
// profile, and refused out of range with the key's position.
#include <gtest/gtest.h>

#include "app/config/error.h"
#include "app/scenario/scenario.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {
constexpr const char* kFabric = R"([scenario]
name = "nic_keys"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 1
spines = 1
hosts_per_leaf = 2
host_rate = "100Gbps"
)";

std::string write(const std::string& text) {
  return testing::write_temp("xoff_nic_keys.toml", text);
}

TEST(NicKeys, DcqcnProfileKeysOverrideTheProfile) {
  const ScenarioConfig s = load_scenario(write(std::string(kFabric) + R"([nic]
dcqcn = "nic_like"
[nic.dcqcn_params]
clamp_target = true
rate_on_first_cnp = 0.25
min_decrease_factor = 0.75
rate_timer = "55us"
)"),
                                         {});
  const models::DcqcnParams& d = s.roce.dcqcn;
  EXPECT_TRUE(d.clamp_target_always);  // nic_like alone: false
  EXPECT_DOUBLE_EQ(d.rate_on_first_cnp, 0.25);
  EXPECT_DOUBLE_EQ(d.min_decrease_factor, 0.75);
  EXPECT_EQ(d.rate_timer, sim::Duration::us(55));
  EXPECT_EQ(d.byte_counter, sim::Bytes(32767));  // the rest stays nic_like
}

TEST(NicKeys, OutOfRangeProfileKeysAreRefusedAtTheirPosition) {
  try {
    (void)load_scenario(write(std::string(kFabric) + R"([nic.dcqcn_params]
rate_on_first_cnp = 1.5
)"),
                        {});
    FAIL() << "accepted rate_on_first_cnp = 1.5";
  } catch (const config::ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("xoff_nic_keys.toml:11:21"), std::string::npos) << what;
    EXPECT_NE(what.find("nic.dcqcn_params.rate_on_first_cnp"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace xoff::app
