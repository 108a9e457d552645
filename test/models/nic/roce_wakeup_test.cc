// A QP that became ready while its class could not send (paused, link down)
// must be woken when the class can send again, even though its host queue is
// empty and so no dequeue would ever announce room.
#include <gtest/gtest.h>

#include "models/nic/roce_nic.h"
#include "nic_test_util.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::add_host;
using test::Completions;
using test::Direct;
using test::roce_flow;

// PFC PAUSE for class 3 with `quanta` arriving at h's port.
void pause(Network& net, Host& h, uint16_t quanta) {
  Packet& f = net.make_packet(kPauseFrameBytes);
  f.kind = PacketKind::kPause;
  f.pause_enable = 1 << 3;
  f.set_pause_quanta(3, quanta);
  h.nic_port().receive_pause(f);
  net.consume(f);
}

// Finish time of the one flow.
int64_t finish_ps(Direct& t) {
  t.sim.run();
  EXPECT_EQ(t.done.done.size(), 1u);
  return t.done.done.empty() ? -1 : t.done.done[0].t.count_ps();
}

TEST(RoceWakeup, FlowStartedDuringAPauseSendsWhenThePauseExpires) {
  Direct t;
  pause(t.net, t.a, 1000);  // 1000 x 512 bit at 100G = 5.12 us
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  // Sends from 5.12 us: 100 x 1062 B = 8.496 us, 1 us of cable, then the last
  // ACK (66 B = 5.28 ns) and 1 us back: 5.12 + 8.496 + 1 + 0.00528 + 1 us.
  EXPECT_EQ(finish_ps(t), 15'621'280);
}

TEST(RoceWakeup, FlowStartedOnADownLinkSendsWhenTheLinkComesBack) {
  Direct t;
  t.net.set_link_up(t.link, false);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  t.sim.run_until(sim::Time::zero() + 1_us);
  t.net.set_link_up(t.link, true);
  // From 1 us: 8.496 us of data, 1 us of cable, 5.28 ns + 1 us for the ACK.
  EXPECT_EQ(finish_ps(t), 11'501'280);
}

TEST(RoceWakeup, LinkDownForgetsPausesSoTheLinkResumesAtOnce) {
  Direct t;
  pause(t.net, t.a, 0xFFFF);         // 335.5 us
  t.net.set_link_up(t.link, false);  // a real MAC resets its PFC state
  t.net.set_link_up(t.link, true);
  EXPECT_FALSE(t.a.nic_port().paused(3));
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  EXPECT_EQ(finish_ps(t), 10'501'280);  // 8.496 + 1 + 0.00528 + 1 us
}

}  // namespace
}  // namespace xoff::models
