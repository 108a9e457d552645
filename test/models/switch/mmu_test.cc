#include "models/switch/mmu.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace xoff::models {
namespace {
using namespace sim::literals;
using V = Mmu::Verdict;

// Two ports, PG 3 lossless with 1000 B reserve and 5000 B headroom, PG 0 lossy
// with 1000 B reserve. B = 30000 B: reserves 2 ports x 2000 B = 4000 B,
// headroom 2 x 5000 B = 10000 B, shared pool 16000 B.
MmuConfig small() {
  MmuConfig c;
  c.total = 30'000_B;
  for (auto& pg : c.pg) {
    pg.lossless = false;
    pg.headroom = 0_B;
  }
  c.pg[3] = PgConfig{true, 1000_B, 1.0, 0_B, 5000_B, 1000_B};
  c.pg[0].reserved = 1000_B;
  return c;
}

// The MMU and the bytes its two ports queue per class, which the switch's
// ports count and give to Mmu::admit.
struct TwoPorts {
  Mmu mmu;
  std::array<std::array<int64_t, kNumClasses>, 2> queued{};
  explicit TwoPorts(const MmuConfig& c) : mmu(c) {
    mmu.add_port();
    mmu.add_port();
  }
  // From (in, pg) into queue (out, tc).
  Mmu::Admission admit(size_t in, int pg, size_t out, int tc, int64_t bytes) {
    const Mmu::Admission a = mmu.admit(in, pg, tc, bytes, queued[out][tc]);
    if (a.verdict == V::kAdmit) queued[out][tc] += bytes;
    return a;
  }
  bool release(size_t in, int pg, size_t out, int tc, int64_t bytes) {
    queued[out][tc] -= bytes;
    EXPECT_GE(queued[out][tc], 0);
    return mmu.release(in, pg, bytes);
  }
};

TEST(Mmu, PartitionsBufferIntoReservesHeadroomAndSharedPool) {
  TwoPorts t(small());
  EXPECT_EQ(t.mmu.shared_pool(), 16'000);
  EXPECT_EQ(t.mmu.headroom_pool(), 10'000);
  MmuConfig c = small();
  c.headroom_oversubscription = 2;  // shared headroom pool of 10000 / 2 = 5000 B
  TwoPorts s(c);
  EXPECT_EQ(s.mmu.headroom_pool(), 5'000);
  EXPECT_EQ(s.mmu.shared_pool(), 21'000);
}

TEST(Mmu, ChargesReserveThenSharedAndSendsXoffAtThreshold) {
  TwoPorts t(small());
  // Reserve first: 1000 B.
  EXPECT_EQ(t.admit(0, 3, 1, 3, 1000).verdict, V::kAdmit);
  EXPECT_EQ(t.mmu.pg(0, 3).reserved, 1000);
  // Shared: threshold = 1 x (16000 - shared). After 8 x 1000 B, 8000 >= 16000 - 8000: XOFF.
  for (int i = 0; i < 7; ++i) EXPECT_FALSE(t.admit(0, 3, 1, 3, 1000).send_xoff);
  const Mmu::Admission a = t.admit(0, 3, 1, 3, 1000);
  EXPECT_TRUE(a.send_xoff);
  EXPECT_EQ(t.mmu.pg(0, 3).shared, 8000);
  EXPECT_TRUE(t.mmu.pg(0, 3).xoff);
  // In XOFF: headroom, 5 x 1000 B, then a lossless violation.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(t.admit(0, 3, 1, 3, 1000).verdict, V::kAdmit);
  EXPECT_EQ(t.mmu.pg(0, 3).headroom, 5000);
  EXPECT_EQ(t.admit(0, 3, 1, 3, 1000).verdict, V::kLosslessViolation);
  EXPECT_EQ(t.mmu.totals().peak_total, 14'000);
}

TEST(Mmu, ReleasesHeadroomFirstAndSendsXonBelowThresholdMinusOffset) {
  TwoPorts t(small());
  for (int i = 0; i < 14; ++i)
    t.admit(0, 3, 1, 3, 1000);  // 1000 reserve, 8000 shared, 5000 headroom
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(t.release(0, 3, 1, 3, 1000));
  EXPECT_EQ(t.mmu.pg(0, 3).headroom, 0);
  EXPECT_EQ(t.mmu.pg(0, 3).shared, 8000);
  // XON when shared <= (16000 - shared) - 1000, i.e. shared <= 7500: at 7000.
  EXPECT_TRUE(t.release(0, 3, 1, 3, 1000));
  EXPECT_FALSE(t.mmu.pg(0, 3).xoff);
  for (int i = 0; i < 8; ++i) t.release(0, 3, 1, 3, 1000);
  EXPECT_TRUE(t.mmu.empty());
}

TEST(Mmu, KeepsXoffWhileHeadroomHoldsBytesEvenIfTheThresholdRises) {
  TwoPorts t(small());
  // Port 1's lossy PG 0 takes 1000 B reserve + 6000 B shared.
  for (int i = 0; i < 7; ++i) t.admit(1, 0, 0, 0, 1000);
  // Port 0 PG 3: 1000 B reserve, then shared s until s >= 16000 - 6000 - s: XOFF at s = 5000.
  for (int i = 0; i < 6; ++i) t.admit(0, 3, 1, 3, 1000);
  ASSERT_TRUE(t.mmu.pg(0, 3).xoff);
  for (int i = 0; i < 3; ++i) t.admit(0, 3, 1, 3, 1000);  // in flight: 3000 B headroom
  EXPECT_EQ(t.mmu.pg(0, 3).headroom, 3000);
  // Port 1 drains: PG 3's threshold rises to 16000 - 5000 = 11000, so shared 5000 is
  // far below 11000 - 1000; but with 3000 B still in headroom XON must wait, or
  // the next XOFF would find only 2000 B of headroom for a full round trip.
  for (int i = 0; i < 7; ++i) EXPECT_FALSE(t.release(1, 0, 0, 0, 1000));
  EXPECT_FALSE(t.mmu.try_xon(0, 3));
  EXPECT_FALSE(t.release(0, 3, 1, 3, 1000));
  EXPECT_FALSE(t.release(0, 3, 1, 3, 1000));
  EXPECT_TRUE(t.release(0, 3, 1, 3, 1000));  // headroom now empty: XON
  EXPECT_EQ(t.mmu.pg(0, 3).headroom, 0);
}

TEST(Mmu, LossyPgDropsAtIngressThresholdAndQueueAtEgressThreshold) {
  TwoPorts t(small());
  // PG 0: 1000 B reserve, then shared while shared < 16000 - shared: 8 x 1000 B.
  for (int i = 0; i < 9; ++i) EXPECT_EQ(t.admit(0, 0, 1, 0, 1000).verdict, V::kAdmit);
  EXPECT_EQ(t.admit(0, 0, 1, 0, 1000).verdict, V::kLossyIngress);
  // From port 1 into the same egress queue (9000 B queued): egress threshold
  // 1 x (16000 - 8000) = 8000 <= 9000, so lossy_egress.
  EXPECT_EQ(t.admit(1, 0, 1, 0, 1000).verdict, V::kLossyEgress);
  // A lossless packet into a full egress queue is never dropped at egress.
  EXPECT_EQ(t.admit(1, 3, 1, 0, 1000).verdict, V::kAdmit);
  EXPECT_EQ(t.mmu.pg(0, 0).drops, 1);
}

// PFC off for PG 3 on port 1 only (DCBX or a per-device setting): port 1's
// PG 3 is lossy there (ingress limit, no XOFF), port 0's stays lossless.
// Shared pool 16000 B: reserve 1000 B, then 8 x 1000 B of shared until
// 8000 >= 16000 - 8000; the next one is dropped instead of paused.
TEST(Mmu, PerPortPfcOffMakesThatPortsPgLossy) {
  TwoPorts t(small());
  t.mmu.set_port_lossless(1, static_cast<uint8_t>(0xff & ~(1u << 3)));
  EXPECT_TRUE(t.mmu.lossless(0, 3));
  EXPECT_FALSE(t.mmu.lossless(1, 3));
  for (int i = 0; i < 9; ++i) EXPECT_FALSE(t.admit(1, 3, 0, 3, 1000).send_xoff);
  EXPECT_EQ(t.admit(1, 3, 0, 3, 1000).verdict, V::kLossyIngress);
  EXPECT_FALSE(t.mmu.pg(1, 3).xoff);
  EXPECT_EQ(t.mmu.pg(1, 3).headroom, 0);
  // Port 0's PG 3 is still lossless: its reserve (1000 B), then shared s
  // while s < 16000 - 8000 - s, i.e. XOFF (not a drop) at s = 4000.
  EXPECT_EQ(t.admit(0, 3, 1, 3, 1000).verdict, V::kAdmit);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(t.admit(0, 3, 1, 3, 1000).send_xoff);
  const Mmu::Admission a = t.admit(0, 3, 1, 3, 1000);
  EXPECT_EQ(a.verdict, V::kAdmit);
  EXPECT_TRUE(a.send_xoff);
}

TEST(Mmu, SharedHeadroomPoolCapsTotalHeadroom) {
  MmuConfig c = small();
  c.headroom_oversubscription = 2;  // pool 5000 B shared by both ports' PG 3
  TwoPorts t(c);
  // Shared pool 21000 B. Port 0: reserve 1000 B, then XOFF once its shared
  // s >= 21000 - s, at s = 11000 (12 packets). Port 1 then: XOFF at
  // s >= 21000 - 11000 - s, at s = 5000 (reserve + 5 = 6 packets).
  for (int i = 0; i < 12; ++i) t.admit(0, 3, 0, 3, 1000);
  for (int i = 0; i < 6; ++i) t.admit(1, 3, 0, 3, 1000);
  EXPECT_EQ(t.mmu.pg(0, 3).shared, 11'000);
  EXPECT_EQ(t.mmu.pg(1, 3).shared, 5'000);
  ASSERT_TRUE(t.mmu.pg(0, 3).xoff);
  ASSERT_TRUE(t.mmu.pg(1, 3).xoff);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.admit(0, 3, 0, 3, 1000).verdict, V::kAdmit);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(t.admit(1, 3, 0, 3, 1000).verdict, V::kAdmit);
  // Port 1's own cap (5000 B) has room, but the pool (5000 B) is full.
  EXPECT_EQ(t.admit(1, 3, 0, 3, 1000).verdict, V::kLosslessViolation);
  EXPECT_EQ(t.mmu.totals().headroom, 5000);
}

TEST(Mmu, StaticLimitReplacesDynamicThresholdWhenAlphaIsZero) {
  MmuConfig c = small();
  c.pg[0] = PgConfig{false, 0_B, 0.0, 3000_B, 0_B, 0_B};
  TwoPorts t(c);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.admit(0, 0, 1, 0, 1000).verdict, V::kAdmit);
  EXPECT_EQ(t.admit(0, 0, 1, 0, 1000).verdict, V::kLossyIngress);
  EXPECT_EQ(t.mmu.ingress_threshold(0), 3000);
}

TEST(SwitchConfig, ValidateNamesTheField) {
  SwitchConfig c;
  c.ecn.tc[3].kmin = 300'000_B;
  c.mmu.total = 100'000_B;  // 4 ports x 48 KiB headroom does not fit
  const auto problems = validate(c, 4);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("mmu.total"), std::string::npos);
  EXPECT_EQ(problems[1], "ecn.tc[3].kmin (300000 B) exceeds ecn.tc[3].kmax (200000 B)");
  EXPECT_TRUE(validate(SwitchConfig{}, 64).empty());
}

}  // namespace
}  // namespace xoff::models
