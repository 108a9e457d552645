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

// What per-packet ACKs cost a ring AllReduce (issue 11): 8 hosts on one leaf,
// 16 MB, so each of the 14 steps moves 2 MB = 2000 segments of 1000 B per
// rank. A host's uplink carries its own 2000 data frames (1062 + 20 B on the
// wire) and the ACKs for the 2000 it receives from its ring neighbour
// (66 + 20 B each): per packet, 2000 x 1082 + 2000 x 86 = 2 336 000 B =
// 186.88 us at 100 Gb/s, 8 % above the data's 2 164 000 B = 173.12 us. The
// default coalescing (ACK on PSNs 255, 511, ..., 1791 and the last: 8 per
// flow, 688 B) leaves 173.175 us. Unloaded, a step's flow adds at most ~5 us
// of latency (two 1 us links, store and forward, the ACK back) to that.
TEST(NicKeys, CoalescedAcksGiveARingAllReduceItsWholeUplink) {
  const std::string ring = R"([scenario]
name = "ring_acks"
duration = "20ms"
[topology]
kind = "spine_leaf"
leaves = 1
spines = 1
hosts_per_leaf = 8
host_rate = "100Gbps"
host_delay = "1us"
[[collective]]
name = "ring"
algorithm = "ring"
size = "16MB"
hosts = "all"
)";
  const std::string path = write(ring);
  for (const int every : {1, 256}) {
    const RunOutcome o = testing::run_file(path, {"nic.ack_every=" + std::to_string(every)});
    ASSERT_EQ(o.exit_code, 0);
    ASSERT_EQ(o.data.flows.size(), 112u);  // 14 steps x 8 ranks
    const double uplink_us = every == 1 ? 186.88 : 173.12 + 8 * 86 * 8 / 100e3;
    for (const auto& f : o.data.flows) {
      const double fct = (f.finish - f.start).to_us();
      EXPECT_GE(fct, uplink_us) << f.name << " ack_every " << every;
      EXPECT_LE(fct, uplink_us + 5.0) << f.name << " ack_every " << every;
    }
  }
}

}  // namespace
}  // namespace xoff::app
