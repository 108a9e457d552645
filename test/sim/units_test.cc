#include "sim/units.h"

#include <gtest/gtest.h>

namespace xoff::sim {
namespace {
using namespace literals;

TEST(TxTime, FullFrameAt100GbpsIs120ns) {
  // 1500 B * 8 = 12000 bit; 12000 bit / 100e9 bit/s = 120e-9 s = 120000 ps.
  EXPECT_EQ(tx_time(1500_B, 100_Gbps).count_ps(), 120'000);
}

TEST(TxTime, MinFrameAt800GbpsIs640ps) {
  // 64 B * 8 = 512 bit; 512 / 800e9 = 0.64 ns = 640 ps.
  EXPECT_EQ(tx_time(64_B, 800_Gbps).count_ps(), 640);
}

TEST(TxTime, ExactAtCommonSpeeds) {
  // One byte: 8 bit / rate. 10G: 800 ps, 25G: 320 ps, 40G: 200 ps, 400G: 20 ps.
  EXPECT_EQ(tx_time(1_B, 10_Gbps).count_ps(), 800);
  EXPECT_EQ(tx_time(1_B, 25_Gbps).count_ps(), 320);
  EXPECT_EQ(tx_time(1_B, 40_Gbps).count_ps(), 200);
  EXPECT_EQ(tx_time(1_B, 400_Gbps).count_ps(), 20);
  // 9 KB jumbo (9000 B) at 25G: 72000 bit / 25e9 = 2.88 us.
  EXPECT_EQ(tx_time(9_KB, 25_Gbps), 2880_ns);
}

TEST(TxTime, RoundsPartialPicosecondUp) {
  // 1 B at 3 bps: 8/3 s = 2.666..e12 ps, rounded up.
  EXPECT_EQ(tx_time(1_B, BitsPerSecond(3)).count_ps(), 2'666'666'666'667);
}

TEST(TxTime, LargeTransferDoesNotOverflow) {
  // 64 MiB at 100G: 67108864 * 8 / 1e11 s = 5.36870912 ms = 5368709120 ps.
  EXPECT_EQ(tx_time(64_MiB, 100_Gbps).count_ps(), 5'368'709'120);
}

TEST(Serializer, MultipliesAtEthernetSpeedsAndDividesOtherwise) {
  // 1062 B (a RoCE frame) + 20 B of preamble and gap = 1082 B = 8656 bit:
  // 86.56 ns at 100G (80 ps a byte), 21.64 ns at 400G (20 ps a byte).
  EXPECT_EQ(Serializer(100_Gbps).tx_time(1082_B).count_ps(), 86'560);
  EXPECT_EQ(Serializer(400_Gbps).tx_time(1082_B).count_ps(), 21'640);
  // 7 Gb/s does not divide 8e12: 1500 B = 12000 bit / 7e9 = 1714285.71 ps, up.
  EXPECT_EQ(Serializer(BitsPerSecond(7'000'000'000)).tx_time(1500_B).count_ps(), 1'714'286);
  for (const BitsPerSecond r : {10_Gbps, 25_Gbps, 40_Gbps, 100_Gbps, 200_Gbps, 800_Gbps,
                                BitsPerSecond(3), BitsPerSecond(56'000'000'000)}) {
    for (const Bytes b : {1_B, 64_B, 1500_B, 9216_B})
      EXPECT_EQ(Serializer(r).tx_time(b), tx_time(b, r));
  }
}

TEST(BytesIn, InverseOfTxTime) {
  // 120 ns at 100G carries 1500 B.
  EXPECT_EQ(bytes_in(120_ns, 100_Gbps), 1500_B);
  EXPECT_EQ(bytes_in(1_us, 40_Gbps), 5000_B);
}

TEST(Time, ArithmeticKeepsPointsAndSpansApart) {
  const Time t0 = Time::zero() + 5_us;
  const Time t1 = t0 + 250_ns;
  EXPECT_EQ(t1 - t0, 250_ns);
  EXPECT_EQ((t1 - 1_us).count_ps(), 4'250'000);
  EXPECT_LT(t0, t1);
  EXPECT_EQ(2_ms / 1_us, 2000);
}

}  // namespace
}  // namespace xoff::sim
