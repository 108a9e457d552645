#include "models/nic/nvlink.h"

#include <gtest/gtest.h>

#include <vector>

namespace xoff::models {
namespace {
using namespace sim::literals;

struct Finishes final : FlowListener {
  void flow_finished(uint32_t id, sim::Time t, int64_t) override {
    if (at.size() <= id) at.resize(id + 1);
    at[id] = t;
  }
  std::vector<sim::Time> at;
};

FlowSpec transfer(uint32_t id, uint32_t src, uint32_t dst, int64_t bytes) {
  FlowSpec f;
  f.id = id;
  f.src = src;
  f.dst = dst;
  f.size = sim::Bytes(bytes);
  f.protocol = Protocol::kNvlink;
  return f;
}

// 4.5 MB at 3.6 Tb/s = 4.5e6 x 8 / 3.6e12 s = 10 us; latency 1 us.
TEST(Nvlink, ATransferTakesSizeOverRatePlusLatency) {
  sim::Simulator sim;
  Finishes fin;
  NvlinkFabric nv(sim, NvlinkConfig{}, 16, fin);
  EXPECT_EQ(nv.ideal_fct(sim::Bytes(4'500'000)).count_ps(), 11'000'000);
  nv.endpoint(0).start_flow(transfer(0, 0, 1, 4'500'000));
  sim.run();
  EXPECT_EQ(fin.at[0].count_ps(), 11'000'000);
}

TEST(Nvlink, FlowsSharingAGpuQueueAndDistinctPairsDoNot) {
  sim::Simulator sim;
  Finishes fin;
  NvlinkFabric nv(sim, NvlinkConfig{}, 16, fin);
  nv.endpoint(0).start_flow(transfer(0, 0, 1, 4'500'000));  // 0 -> 1: 0..10 us
  nv.endpoint(0).start_flow(transfer(1, 0, 2, 4'500'000));  // same sender: 10..20 us
  nv.endpoint(3).start_flow(transfer(2, 3, 2, 4'500'000));  // receiver 2 busy until 20: 20..30
  nv.endpoint(4).start_flow(transfer(3, 4, 5, 4'500'000));  // its own pair: 0..10 us
  sim.run();
  EXPECT_EQ(fin.at[0].count_ps(), 11'000'000);
  EXPECT_EQ(fin.at[1].count_ps(), 21'000'000);
  EXPECT_EQ(fin.at[2].count_ps(), 31'000'000);
  EXPECT_EQ(fin.at[3].count_ps(), 11'000'000);
  EXPECT_EQ(nv.transfers(), 4u);
  EXPECT_EQ(nv.bytes(), 18'000'000);
}

TEST(NvlinkDeath, AFlowBetweenServersIsAModelError) {
  sim::Simulator sim;
  Finishes fin;
  NvlinkFabric nv(sim, NvlinkConfig{}, 16, fin);  // servers of 8: hosts 7 and 8 differ
  EXPECT_DEATH(nv.endpoint(7).start_flow(transfer(0, 7, 8, 1000)), "not two GPUs of one server");
}

}  // namespace
}  // namespace xoff::models
