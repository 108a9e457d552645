#include "models/topology/headroom.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace xoff::models {
namespace {
using namespace sim::literals;

TEST(TopologyHeadroom, HundredGigHundredMetresJumboFrames) {
  const HeadroomResult r = pfc_headroom({100_Gbps, 100'000, 9000_B, 1_us});
  // Cable: 100 m x 5 ns/m = 500 ns one way; round trip 1 us x 100 Gb/s = 1e5 bit = 12500 B.
  EXPECT_EQ(r.cable_delay, 500_ns);
  EXPECT_EQ(r.cable_round_trip, 12500_B);
  EXPECT_EQ(r.local_frame, 9000_B);     // MTU[R] ahead of the PAUSE
  EXPECT_EQ(r.upstream_frame, 9000_B);  // MTU[S] finished by the sender
  EXPECT_EQ(r.response, 12500_B);       // 1 us x 100 Gb/s = 12500 B
  EXPECT_EQ(r.pause_frame, 64_B);
  // 12500 + 2 x 9000 + 12500 + 64 = 43064 B.
  EXPECT_EQ(r.total, 43064_B);
}

TEST(TopologyHeadroom, ResponseDelayOfAnnexNAt100G) {
  // Annex N bounds the 100GbE response at 201728 bit times = 2017.28 ns; those bits
  // are 201728 / 8 = 25216 B. With a 3 m cable (15 ns, 30 ns round trip = 375 B) and
  // 1500 B frames: 375 + 3000 + 25216 + 64 = 28655 B.
  const HeadroomResult r = pfc_headroom({100_Gbps, 3'000, 1500_B, 2'017'280_ps});
  EXPECT_EQ(r.response, 25216_B);
  EXPECT_EQ(r.cable_round_trip, 375_B);
  EXPECT_EQ(r.total, 28655_B);
}

TEST(TopologyHeadroom, RoundsPartialBytesUp) {
  // 25 Gb/s, 1 m: 5 ns one way, 10 ns round trip x 25 Gb/s = 250 bit = 31.25 B -> 32 B.
  // Response 1 ns x 25 Gb/s = 25 bit = 3.125 B -> 4 B.
  const HeadroomResult r = pfc_headroom({25_Gbps, 1'000, 1500_B, 1_ns});
  EXPECT_EQ(r.cable_round_trip, 32_B);
  EXPECT_EQ(r.response, 4_B);
  EXPECT_EQ(r.total, 3100_B);  // 32 + 3000 + 4 + 64
}

TEST(TopologyHeadroom, FromLinkDelayEqualsFromLength) {
  const HeadroomResult a = pfc_headroom({400_Gbps, 30'000, 4096_B, 500_ns});
  const HeadroomResult b = pfc_headroom_for_delay(400_Gbps, 150_ns, 4096_B, 500_ns);
  // 30 m x 5 ns/m = 150 ns; round trip 300 ns x 400 Gb/s = 120000 bit = 15000 B;
  // response 500 ns x 400 Gb/s = 25000 B; 15000 + 8192 + 25000 + 64 = 48256 B.
  EXPECT_EQ(a.total, b.total);
  EXPECT_EQ(a.total, 48256_B);
}

TEST(TopologyHeadroom, DescribeListsEveryTerm) {
  const HeadroomInput in{100_Gbps, 100'000, 9000_B, 1_us};
  const std::string text = describe(in, pfc_headroom(in));
  for (const char* want : {"100Gbps", "cable round trip", "2 x 500ns", "local frame",
                           "upstream frame", "response delay", "PAUSE frame", "43064 B"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << " missing in\n" << text;
  }
}

TEST(TopologyHeadroom, RejectsImpossibleInput) {
  EXPECT_THROW(pfc_headroom({sim::BitsPerSecond(0), 1'000, 1500_B, 1_us}), std::invalid_argument);
  EXPECT_THROW(pfc_headroom({100_Gbps, -1, 1500_B, 1_us}), std::invalid_argument);
  EXPECT_THROW(pfc_headroom({100_Gbps, 1'000, 0_B, 1_us}), std::invalid_argument);
}

}  // namespace
}  // namespace xoff::models

namespace xoff::models {
namespace {

// SONiC's dynamic buffer calculation (sonic-swss cfgmgr/buffer_headroom_*.lua),
// by hand: 100G, 5 m, 9100 B frames, 144 B cells, 819 B MAC/PHY, 18432 B pipeline:
//   cable    2 x 5 m x 1e11 bit/s / 1.98e8 m/s / 8 = 631.3 -> 632 B
//   peer     394 quanta (IEEE 802.3 31B.3.7 at 100G) x 64 B = 25,216 B
//   propag.  9100 + 632 + 0 + 819 + 25,216 = 35,767 B
//   xoff     9100 + 35,767 x 1 = 44,867 B; xon 18,432 B; headroom 63,299 B
TEST(SonicHeadroom, MatchesTheTermsComputedByHand) {
  SonicHeadroomInput in;
  in.rate = sim::BitsPerSecond(100'000'000'000);
  in.cable_length_mm = 5'000;
  in.frame = sim::Bytes(9100);
  in.mac_phy_delay = sim::Bytes(819);
  in.pipeline_latency = sim::Bytes(18432);
  const SonicHeadroomResult r = sonic_headroom(in);
  EXPECT_EQ(r.bytes_on_cable.count(), 632);
  EXPECT_EQ(r.peer_response_quanta, 394);
  EXPECT_EQ(r.peer_response.count(), 25'216);
  EXPECT_EQ(r.propagation.count(), 35'767);
  EXPECT_EQ(r.xoff.count(), 44'867);
  EXPECT_EQ(r.headroom.count(), 63'299);
  // Half small packets: factor 144/64 = 2.25, occupancy (50 + 50 x 2.25)/100
  // = 1.625; xoff = 9100 + ceil(35,767 x 1.625 = 58,121.375) = 67,222 B.
  in.small_packet_percent = 50;
  const SonicHeadroomResult s = sonic_headroom(in);
  EXPECT_DOUBLE_EQ(s.worst_case_factor, 2.25);
  EXPECT_DOUBLE_EQ(s.cell_occupancy, 1.625);
  EXPECT_EQ(s.xoff.count(), 67'222);
  // A small cell (<= 128 B): factor 2 x 96 / 97.
  in.cell_size = sim::Bytes(96);
  EXPECT_DOUBLE_EQ(sonic_headroom(in).worst_case_factor, 192.0 / 97.0);
}

TEST(SonicHeadroom, PeerResponseFollowsTheIeeeTableAndDoublesAt400G) {
  EXPECT_EQ(ieee_pause_quanta(sim::BitsPerSecond(25'000'000'000)), 80);
  EXPECT_EQ(ieee_pause_quanta(sim::BitsPerSecond(400'000'000'000)), 905);
  EXPECT_EQ(ieee_pause_quanta(sim::BitsPerSecond(123'000'000'000)), -1);
  SonicHeadroomInput in;
  in.rate = sim::BitsPerSecond(400'000'000'000);
  in.frame = sim::Bytes(9100);
  EXPECT_EQ(sonic_headroom(in).peer_response.count(), 905 * 64 * 2);  // 115,840 B
  in.rate = sim::BitsPerSecond(123'000'000'000);
  EXPECT_THROW(sonic_headroom(in), std::invalid_argument);  // no table entry: say the quanta
  in.peer_response_quanta = 100;
  EXPECT_EQ(sonic_headroom(in).peer_response.count(), 6'400);
}

}  // namespace
}  // namespace xoff::models
