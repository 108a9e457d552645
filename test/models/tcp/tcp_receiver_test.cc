#include "models/tcp/tcp_receiver.h"

#include <gtest/gtest.h>

namespace xoff::models {
namespace {

TEST(TcpReceiver, MergesOutOfOrderRangesAndJumpsOverThemWhenTheHoleFills) {
  TcpReceiver rx;
  rx.start(10'000);
  EXPECT_EQ(rx.on_segment(0, 1000, false, false, 2), AckUrgency::kNow);
  EXPECT_EQ(rx.on_segment(2000, 1000, false, false, 2), AckUrgency::kNow);
  EXPECT_EQ(rx.on_segment(4000, 1000, false, false, 2), AckUrgency::kNow);
  EXPECT_EQ(rx.on_segment(3000, 1000, false, false, 2), AckUrgency::kNow);
  ASSERT_EQ(rx.out_of_order().size(), 1u);  // [2000, 5000): three touching pieces
  EXPECT_EQ(rx.out_of_order()[0].start, 2000);
  EXPECT_EQ(rx.out_of_order()[0].end, 5000);
  EXPECT_EQ(rx.state().rcv_nxt, 1000);
  rx.on_segment(1000, 1000, false, false, 2);  // fills the hole
  EXPECT_EQ(rx.state().rcv_nxt, 5000);
  EXPECT_TRUE(rx.out_of_order().empty());
}

TEST(TcpReceiver, DelayedAckWaitsForTwoSegmentsButNotForHolesOrTheLastByte) {
  TcpReceiver rx;
  rx.start(5000);
  EXPECT_EQ(rx.on_segment(0, 1000, false, true, 2), AckUrgency::kDelay);
  EXPECT_EQ(rx.on_segment(1000, 1000, false, true, 2), AckUrgency::kNow);
  rx.ack_sent();
  EXPECT_EQ(rx.on_segment(3000, 1000, false, true, 2), AckUrgency::kNow);  // out of order
  rx.ack_sent();
  EXPECT_EQ(rx.on_segment(2000, 1000, false, true, 2), AckUrgency::kNow);  // fills the hole
  rx.ack_sent();
  EXPECT_EQ(rx.on_segment(4000, 1000, false, true, 2), AckUrgency::kNow);  // completes
  EXPECT_TRUE(rx.complete());
}

TEST(TcpReceiver, EchoesCeOfTheSegmentsTheAckCovers) {
  TcpReceiver rx;
  rx.start(3000);
  rx.on_segment(0, 1000, false, true, 2);
  EXPECT_FALSE(rx.state().ece_pending);
  // RFC 8257 state machine: a CE change with an ACK owed flushes it first.
  EXPECT_TRUE(rx.must_flush_before(true));
  rx.ack_sent();
  rx.on_segment(1000, 1000, true, true, 2);
  EXPECT_TRUE(rx.state().ece_pending);
  EXPECT_FALSE(rx.must_flush_before(true));
}

}  // namespace
}  // namespace xoff::models
