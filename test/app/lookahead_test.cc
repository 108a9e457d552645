// The simulator's deep lookahead (sim::Simulator::set_deep_lookahead) is a
// prefetch schedule only: the world turns it on for large fabrics, and a run
// does exactly the same things with it on or off.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/run/world.h"
#include "app/scenario/scenario.h"
#include "models/monitor/recorder.h"

namespace xoff::app {
namespace {

ScenarioConfig permutation(int per_dim, const std::string& duration) {
  std::vector<std::string> set = {"scenario.duration=" + duration};
  if (per_dim > 0) {
    // per_dim leaves of per_dim hosts, per_dim spines: per_dim^2 hosts and
    // 4 per_dim^2 ports (each leaf 2 per_dim, each spine per_dim, each host 1).
    for (const char* k : {"topology.leaves=", "topology.hosts_per_leaf=", "topology.spines="})
      set.push_back(k + std::to_string(per_dim));
  }
  return load_scenario(std::string(XOFF_SOURCE_DIR) + "/bench/scenarios/scale_permutation.toml",
                       set);
}

struct Outcome {
  uint64_t events = 0;
  uint64_t fingerprint = 0;
  int64_t finished = 0;
};

Outcome run(const ScenarioConfig& cfg, bool deep) {
  models::Recorder recorder;
  World w(cfg, recorder);
  w.sim().set_deep_lookahead(deep);
  w.start();
  w.run();
  w.net().check_conservation();
  return {w.sim().events_executed(), w.sim().fingerprint(),
          static_cast<int64_t>(w.traffic().flows_finished())};
}

TEST(DeepLookahead, OnFromTwoThousandPortsOffBelow) {
  models::Recorder recorder;
  // The bundled 128-host point: 8 x 32 leaf ports + 16 x 8 spine ports + 128 = 512.
  World small(permutation(0, "1us"), recorder);
  EXPECT_FALSE(small.sim().deep_lookahead());
  // 22 x 22: 4 x 484 = 1,936 ports, below 2,048; 23 x 23: 2,116, above.
  World below(permutation(22, "1us"), recorder);
  EXPECT_FALSE(below.sim().deep_lookahead());
  World above(permutation(23, "1us"), recorder);
  EXPECT_TRUE(above.sim().deep_lookahead());
}

// At each part's turn the world prefetches the frames arriving at the part:
// the ports it names for part p are exactly those whose peer runs in p, each
// port under one part. (A wrong part would change no result, only what is
// loaded ahead, so results cannot catch it.) The wiring only: the hook that
// reads it is covered by the simulator's tests.
TEST(Windows, EachPartIsToldOfThePortsInto) {
  ::unsetenv("XOFF_WINDOWS");  // the world's own choice, whatever the caller's shell says
  models::Recorder recorder;
  World w(permutation(32, "1us"), recorder);  // 1,024 hosts: windows on by themselves
  // 1,088 nodes, one part asked per four: a leaf with its 32 hosts fills a
  // part alone, the 32 spines go four to a part: 32 + 8.
  ASSERT_EQ(w.sim().parts(), 40u);
  size_t named = 0;
  std::set<const models::EgressPort*> seen;
  for (size_t p = 0; p < w.sim().parts(); ++p) {
    for (const models::EgressPort* port : w.ports_into(p)) {
      EXPECT_EQ(w.sim().part_of(port->peer().sim_stream()), p);
      EXPECT_TRUE(seen.insert(port).second);
      ++named;
    }
  }
  // 4 x 32^2 ports: each leaf 64, each spine 32, each host 1.
  EXPECT_EQ(named, 4096u);
}

// Parts asked beyond what the fabric can fill are not kept empty: the
// 128-host spine-leaf has 24 groups (8 leaves with their 16 hosts, 16
// spines; a group is never split), so 4,096 asked run as 24, each with
// ports into it.
TEST(Windows, OnlyPartsWithNodesAreKept) {
  ::setenv("XOFF_WINDOWS", "4096", 1);
  models::Recorder recorder;
  World w(permutation(0, "1us"), recorder);
  ::unsetenv("XOFF_WINDOWS");
  EXPECT_EQ(w.sim().parts(), 24u);
  EXPECT_EQ(w.windows_note().rfind("24 parts (4096 asked", 0), 0u) << w.windows_note();
  for (size_t p = 0; p < w.sim().parts(); ++p) EXPECT_FALSE(w.ports_into(p).empty()) << p;
}

TEST(DeepLookahead, ChangesNothingThatRuns) {
  // 1,024 hosts, cut at 20 us: hundreds of thousands of events through
  // every hop kind, queues building behind the ECMP collisions.
  const ScenarioConfig cfg = permutation(32, "20us");
  const Outcome on = run(cfg, true);
  const Outcome off = run(cfg, false);
  EXPECT_GT(on.events, 100'000u);
  EXPECT_EQ(on.events, off.events);
  EXPECT_EQ(on.fingerprint, off.fingerprint);
  EXPECT_EQ(on.finished, off.finished);
}

}  // namespace
}  // namespace xoff::app
