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
