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
using test::roce_flow;

TEST(RoceWakeup, FlowStartedDuringAPauseSendsWhenThePauseExpires) {
  sim::Simulator sim;
  Network net{sim};
  Host& a = add_host(net, "a");
  Host& b = add_host(net, "b");
  Completions done;
  RoceNic na(a, RoceConfig{}, &done), nb(b, RoceConfig{}, &done);
  net.connect(a, b, 100_Gbps, 1_us);
  Packet& pause = net.make_packet(kPauseFrameBytes);
  pause.kind = PacketKind::kPause;
  pause.pause_enable = 1 << 3;
  pause.pause_quanta[3] = 1000;  // 1000 x 512 bit at 100G = 5.12 us
  a.nic_port().receive_pause(pause);
  net.consume(pause);
  na.start_flow(roce_flow(0, 0, 1, 100_KB));
  sim.run();
  ASSERT_EQ(done.done.size(), 1u);
  // Sends from 5.12 us: 100 x 1062 B = 8.496 us, 1 us of cable, then the last
  // ACK (66 B = 5.28 ns) and 1 us back: 5.12 + 8.496 + 1 + 0.00528 + 1 us.
  EXPECT_EQ(done.done[0].t.count_ps(), 15'621'280);
}

TEST(RoceWakeup, FlowStartedOnADownLinkSendsWhenTheLinkComesBack) {
  sim::Simulator sim;
  Network net{sim};
  Host& a = add_host(net, "a");
  Host& b = add_host(net, "b");
  Completions done;
  RoceNic na(a, RoceConfig{}, &done), nb(b, RoceConfig{}, &done);
  const uint32_t link = net.connect(a, b, 100_Gbps, 1_us);
  net.set_link_up(link, false);
  na.start_flow(roce_flow(0, 0, 1, 100_KB));
  sim.run_until(sim::Time::zero() + 1_us);
  net.set_link_up(link, true);
  sim.run();
  ASSERT_EQ(done.done.size(), 1u);
  // From 1 us: 8.496 us of data, 1 us of cable, 5.28 ns + 1 us for the ACK.
  EXPECT_EQ(done.done[0].t.count_ps(), 11'501'280);
}

TEST(RoceWakeup, LinkDownForgetsPausesSoTheLinkResumesAtOnce) {
  sim::Simulator sim;
  Network net{sim};
  Host& a = add_host(net, "a");
  Host& b = add_host(net, "b");
  Completions done;
  RoceNic na(a, RoceConfig{}, &done), nb(b, RoceConfig{}, &done);
  const uint32_t link = net.connect(a, b, 100_Gbps, 1_us);
  Packet& pause = net.make_packet(kPauseFrameBytes);
  pause.kind = PacketKind::kPause;
  pause.pause_enable = 1 << 3;
  pause.pause_quanta[3] = 0xFFFF;  // 335.5 us
  a.nic_port().receive_pause(pause);
  net.consume(pause);
  net.set_link_up(link, false);  // a real MAC resets its PFC state
  net.set_link_up(link, true);
  EXPECT_FALSE(a.nic_port().paused(3));
  na.start_flow(roce_flow(0, 0, 1, 100_KB));
  sim.run();
  ASSERT_EQ(done.done.size(), 1u);
  EXPECT_EQ(done.done[0].t.count_ps(), 10'501'280);  // 8.496 + 1 + 0.00528 + 1 us
}

}  // namespace
}  // namespace xoff::models
