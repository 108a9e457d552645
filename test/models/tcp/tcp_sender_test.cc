#include "models/tcp/tcp_sender.h"

#include <gtest/gtest.h>

namespace xoff::models {
namespace {
using namespace sim::literals;

TEST(RttEstimator, FollowsRfc6298AndDoublesOnBackoff) {
  RttEstimator e(1_ms, 1_ms, 60_s);
  EXPECT_EQ(e.rto(), 1_ms);
  e.sample(100_us);  // SRTT = 100, RTTVAR = 50: 100 + 4 x 50 = 300 us < min 1 ms
  EXPECT_EQ(e.srtt(), 100_us);
  EXPECT_EQ(e.rttvar(), 50_us);
  EXPECT_EQ(e.rto(), 1_ms);
  e.sample(900_us);  // RTTVAR = (3 x 50 + 800) / 4 = 237.5, SRTT = (7 x 100 + 900) / 8 = 200
  EXPECT_EQ(e.rttvar().count_ps(), 237'500'000);
  EXPECT_EQ(e.srtt(), 200_us);
  EXPECT_EQ(e.rto(), 1_ms + 150_us);  // 200 + 4 x 237.5 = 1150 us
  e.back_off();
  EXPECT_EQ(e.rto(), 2_ms + 300_us);
}

TEST(TcpSender, SlowStartAddsOneSegmentPerAckAndAvoidanceOnePerWindow) {
  TcpConfig cfg;
  TcpSender s(cfg);
  s.start(1'000'000);
  sim::Time now;
  for (int i = 0; i < 10; ++i) s.next_segment(now);
  EXPECT_FALSE(s.can_send());  // initial window: 10 x 1460 = 14 600 B
  s.on_ack(1460, false, true, now);
  EXPECT_EQ(s.state().cwnd, 11 * 1460);
  EXPECT_TRUE(s.can_send());
}

TEST(TcpSender, ThirdDuplicateAckHalvesFlightIntoSsthresh) {
  TcpConfig cfg;
  TcpSender s(cfg);
  s.start(1'000'000);
  sim::Time now;
  for (int i = 0; i < 10; ++i) s.next_segment(now);
  EXPECT_FALSE(s.on_ack(0, false, true, now).has_event);
  EXPECT_FALSE(s.on_ack(0, false, true, now).has_event);
  const TcpAckResult r = s.on_ack(0, false, true, now);
  ASSERT_TRUE(r.has_event);
  EXPECT_EQ(r.event, TcpEventKind::kFastRetransmit);
  EXPECT_EQ(s.state().ssthresh, 7300);          // 14 600 / 2
  EXPECT_EQ(s.state().cwnd, 7300 + 3 * 1460);   // + 3 SMSS
  const TcpSegment seg = s.next_segment(now);
  EXPECT_TRUE(seg.retransmission);
  EXPECT_EQ(seg.seq, 0);
}

}  // namespace
}  // namespace xoff::models
