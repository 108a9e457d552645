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

// Sends everything the window allows; returns the bytes sent.
int64_t fill(TcpSender& s, sim::Time now) {
  int64_t sent = 0;
  while (s.can_send()) sent += s.next_segment(now).len;
  return sent;
}

TEST(TcpSender, SlowStartAddsOneSegmentPerAck) {
  TcpConfig cfg;
  TcpSender s(cfg);
  s.start(1'000'000);
  const sim::Time now;
  EXPECT_EQ(fill(s, now), 14'600);  // initial window: 10 x 1460 B
  s.on_ack(1460, false, true, now);
  EXPECT_EQ(s.state().cwnd, 11 * 1460);
  EXPECT_EQ(fill(s, now), 2 * 1460);  // one acked + one grown
}

TEST(TcpSender, AvoidanceAddsOneSegmentPerWindowOfAckedBytes) {
  TcpConfig cfg;
  TcpSender s(cfg);
  s.start(10'000'000);
  const sim::Time now;
  fill(s, now);
  for (int i = 0; i < 3; ++i) s.on_ack(0, false, true, now);  // ssthresh = 7300
  s.on_ack(14'600, false, true, now);                         // full ACK
  // Exit: cwnd = min(7300, max(flight 0, 1460) + 1460) = 2920; slow start to 7300.
  EXPECT_EQ(s.state().cwnd, 2920);
  int64_t acked = 14'600;
  while (s.state().cwnd < s.state().ssthresh) {
    fill(s, now);
    acked += 1460;
    s.on_ack(acked, false, true, now);
  }
  const int64_t w = s.state().cwnd;  // 7300: avoidance from here
  EXPECT_EQ(w, 7300);
  for (int i = 0; i < 5; ++i) {  // 5 x 1460 = 7300 B acked: exactly one more SMSS
    fill(s, now);
    EXPECT_EQ(s.state().cwnd, w);
    acked += 1460;
    s.on_ack(acked, false, true, now);
  }
  EXPECT_EQ(s.state().cwnd, w + 1460);
}

TEST(TcpSender, DctcpAlphaMovesByGTowardsTheMarkedFractionAndCutsOncePerWindow) {
  TcpConfig cfg;
  cfg.dctcp = true;
  TcpSender s(cfg);
  s.start(1'000'000);
  const sim::Time now;
  fill(s, now);  // 10 segments: snd_nxt = 14 600
  // The first ACK closes the first observation window (window_end = snd_una = 0)
  // with F = 0: alpha = (1 - 1/16) x 1 = 0.9375; the next window ends at 14 600.
  s.on_ack(1460, false, true, now);
  EXPECT_DOUBLE_EQ(s.state().alpha, 0.9375);
  EXPECT_EQ(s.state().cwnd, 16'060);  // slow start +1 SMSS
  const TcpAckResult cut = s.on_ack(2920, true, true, now);
  ASSERT_TRUE(cut.has_event);
  EXPECT_EQ(cut.event, TcpEventKind::kEcnCut);
  EXPECT_EQ(s.state().cwnd, 8531);  // 16 060 x (1 - 0.9375 / 2) = 8531.875
  EXPECT_EQ(s.state().ssthresh, 8531);
  for (int64_t a = 4380; a <= 14'600; a += 1460) {
    EXPECT_FALSE(s.on_ack(a, true, true, now).has_event);  // same window: no second cut
  }
  fill(s, now);
  s.on_ack(16'060, true, true, now);  // passes 14 600: F = 14 600 / 14 600 = 1
  EXPECT_DOUBLE_EQ(s.state().alpha, 0.9375 * 15 / 16 + 1.0 / 16);
}

TEST(TcpSender, ClassicEcnHalvesOncePerWindow) {
  TcpConfig cfg;
  cfg.ecn = true;
  TcpSender s(cfg);
  s.start(1'000'000);
  const sim::Time now;
  fill(s, now);
  s.on_ack(1460, false, true, now);  // cwnd 16 060
  EXPECT_TRUE(s.on_ack(2920, true, true, now).has_event);
  EXPECT_EQ(s.state().cwnd, 8030);  // RFC 3168: half
  EXPECT_FALSE(s.on_ack(4380, true, true, now).has_event);
  EXPECT_EQ(s.state().cwnd, 8030);
}

// RFC 3168 6.1.2: after reducing its window for an ECE, the sender sets CWR
// on the next new data segment, once: the segment after that carries none.
TEST(TcpSender, TheFirstNewSegmentAfterAnEcnCutCarriesCwr) {
  TcpConfig cfg;
  cfg.ecn = true;
  TcpSender s(cfg);
  s.start(1'000'000);
  const sim::Time now;
  EXPECT_FALSE(s.next_segment(now).cwr);
  fill(s, now);
  s.on_ack(1460, false, true, now);
  ASSERT_TRUE(s.on_ack(2920, true, true, now).has_event);  // the cut
  const TcpSegment first = s.next_segment(now);
  EXPECT_TRUE(first.cwr);
  EXPECT_FALSE(first.retransmission);
  EXPECT_FALSE(s.next_segment(now).cwr);
}

TEST(TcpSender, ReceiveWindowCapsTheBytesInFlight) {
  TcpConfig cfg;
  cfg.receive_window = sim::Bytes(4 * 1460);
  TcpSender s(cfg);
  s.start(1'000'000);
  EXPECT_EQ(fill(s, sim::Time{}), 4 * 1460);
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
  EXPECT_EQ(s.state().ssthresh, 7300);         // 14 600 / 2
  EXPECT_EQ(s.state().cwnd, 7300 + 3 * 1460);  // + 3 SMSS
  const TcpSegment seg = s.next_segment(now);
  EXPECT_TRUE(seg.retransmission);
  EXPECT_EQ(seg.seq, 0);
}

}  // namespace
}  // namespace xoff::models
