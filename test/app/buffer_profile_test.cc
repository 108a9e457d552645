// Buffer profiles per port (SONiC's by speed and cable length): host ports on
// short cables reserve less headroom than long uplinks, and the shared pool
// grows by the difference.
#include <gtest/gtest.h>

#include "app/config/error.h"
#include "app/run/runner.h"
#include "app/scenario/scenario.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {

// Two leaves of 4 hosts at 100G on 3 m (15 ns), two spines at 400G on 100 m
// (500 ns); frames 1518 B (the TCP maximum), response 1 us. The bounds:
//   host port  2 x 15 ns x 100G / 8 = 375 + 2 x 1518 + 12,500 + 64 = 15,975 B
//              -> 16 KiB = 16,384 B with headroom_profile = "auto"
//   uplink     2 x 500 ns x 400G / 8 = 50,000 + 3,036 + 50,000 + 64 = 103,100 B
//              -> 101 KiB = 103,424 B
constexpr const char* kFabric = R"([scenario]
name = "profiles"
duration = "2ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 2
hosts_per_leaf = 4
host_rate = "100Gbps"
fabric_rate = "400Gbps"
host_delay = "15ns"
fabric_delay = "500ns"
[ecn]
enabled = false
[nic]
dcqcn = "off"
[[traffic.incast]]
receiver = "h0"
senders = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
size = "512KB"
)";

std::string write(const std::string& tail) {
  return testing::write_temp("xoff_buffer_profiles.toml", std::string(kFabric) + tail);
}

using testing::run_file;

const models::BufferCounters& leaf0(const RunOutcome& o) {
  for (const auto& b : o.data.buffers) {
    if (b.node == "leaf0") return b;
  }
  static const models::BufferCounters none;
  ADD_FAILURE() << "no leaf0";
  return none;
}

TEST(BufferProfiles, AutoGivesEachPortItsOwnLinksBoundAndTheRestToTheSharedPool) {
  const std::string p = write(
      "[buffer]\nsize = \"2MB\"\nheadroom = \"110KB\"\n"
      "headroom_profile = \"auto\"\n");
  const ScenarioConfig s = load_scenario(p, {});
  const uint32_t leaf = *s.topology.find("leaf0");
  EXPECT_EQ(s.port_headroom[leaf][0], 16'384);   // h0, 3 m at 100G
  EXPECT_EQ(s.port_headroom[leaf][4], 103'424);  // spine0, 100 m at 400G
  const RunOutcome o = run_file(p);
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_GT(o.pause_frames, 0);
  // leaf0's partition: 4 x 16,384 + 2 x 103,424 = 272,384 B (one lossless PG);
  // the shared pool is the rest of 2,000,000 B, against 6 x 110,000 B fixed.
  EXPECT_EQ(leaf0(o).headroom_pool_bytes, 272'384);
  EXPECT_EQ(leaf0(o).shared_pool_bytes, 2'000'000 - 272'384);
  EXPECT_LE(leaf0(o).peak_pg_headroom_bytes, 103'424);
  const std::string fixed = write("[buffer]\nsize = \"2MB\"\nheadroom = \"110KB\"\n");
  const RunOutcome f = run_file(fixed);
  EXPECT_EQ(leaf0(f).shared_pool_bytes, 2'000'000 - 6 * 110'000);
}

TEST(BufferProfiles, LookupTakesTheShortestCableAtLeastAsLongAsTheLink) {
  const std::string p = write(R"([buffer]
size = "2MB"
headroom = "110KB"
[[buffer.profile]]
rate = "100Gbps"
cable = "300m"
headroom = "60KB"
[[buffer.profile]]
rate = "100Gbps"
cable = "5m"
headroom = "20KB"
xon_offset = "4KB"
[[buffer.profile]]
rate = "400Gbps"
cable = "100m"
headroom = "105KB"
)");
  const ScenarioConfig s = load_scenario(p, {});
  const uint32_t leaf = *s.topology.find("leaf0");
  EXPECT_EQ(s.port_headroom[leaf][1], 20'000);  // 3 m: the 5 m profile, not the 300 m one
  EXPECT_EQ(s.port_xon_offset[leaf][1], 4'000);
  EXPECT_EQ(s.port_headroom[leaf][5], 105'000);
  const RunOutcome o = run_file(p);
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_EQ(leaf0(o).headroom_pool_bytes, 4 * 20'000 + 2 * 105'000);
}

TEST(BufferProfiles, AProfileBelowItsLinksBoundIsRefused) {
  const std::string p = write(R"([buffer]
[[buffer.profile]]
rate = "400Gbps"
cable = "100m"
headroom = "90KB"
)");
  try {
    (void)load_scenario(p, {});
    FAIL() << "accepted a 90 KB profile on a link that needs 103,100 B";
  } catch (const config::ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the buffer profile of leaf0:p4 gives 90KB of headroom, below the "
                        "103.100KB that link"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace xoff::app
