#include "models/core/host.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/core/network.h"
#include "models/core/node.h"
#include "test/models/core/test_nodes.h"

namespace xoff::models {
namespace {
using namespace sim::literals;

using test::Script;
using test::Sink;

// A transport with `want` frames of `bytes` in class `tc` to send: it sends
// while the host has room, and counts how often it is told of room.
class Stager final : public Transport {
 public:
  Stager(Network& net, Host& h, Protocol proto) : net_(net), host_(h), proto_(proto) {
    h.attach(proto, *this);
  }
  void push(int tc, int64_t bytes, int n) {
    tc_ = tc;
    bytes_ = bytes;
    want_ += n;
    fill();
  }
  void receive(Packet& p) override { net_.consume(p); }
  void on_room() override {
    ++told;
    fill();
  }
  int told = 0;
  int sent = 0;

 private:
  void fill() {
    while (want_ > 0 && host_.has_room(tc_, proto_)) {
      Packet& p = net_.make_packet(sim::Bytes(bytes_));
      p.protocol = proto_;
      p.tc = static_cast<uint8_t>(tc_);
      --want_;
      ++sent;
      host_.send(p);
    }
  }
  Network& net_;
  Host& host_;
  Protocol proto_;
  int tc_ = 0;
  int64_t bytes_ = 0;
  int want_ = 0;
};

struct HostAndSink {
  sim::Simulator sim;
  Network net{sim};
  Host& h = net.add_node<Host>("h", 0u);
  Sink& s = net.add_node<Sink>("s");
  Stager roce{net, h, Protocol::kRoce};
  Stager tcp{net, h, Protocol::kTcp};
  Script script{sim};
  HostAndSink() { net.connect(h, s, 100_Gbps, 1_us); }
};

// The staging limit is 2 x 9216 B per class. Five jumbo frames at once: the
// first starts on the wire, two are staged (18,432 B), the fourth is refused.
// Each later start of a frame tells the refused transport, which stages the
// next; the wire never idles: 9216 B at 100G = 737.28 ns each, so frame k
// arrives at (k + 1) x 737.28 ns + 1 us. The transport that never asked is
// never told, and a frame that starts inside send() does not call back into
// the transport sending it.
TEST(Host, TellsOfRoomOnlyATransportItRefused) {
  HostAndSink t;
  t.roce.push(0, 9216, 5);
  EXPECT_EQ(t.roce.sent, 3);
  EXPECT_EQ(t.roce.told, 0);
  t.sim.run();
  ASSERT_EQ(t.s.arrivals.size(), 5u);
  for (size_t k = 0; k < 5; ++k)
    EXPECT_EQ(t.s.arrivals[k].t.count_ps(), static_cast<int64_t>(k + 1) * 737'280 + 1'000'000);
  // Told at the start of frames 2 and 3 (it was refused before each); once
  // it has nothing more to send it asks no more and is told no more.
  EXPECT_EQ(t.roce.told, 2);
  EXPECT_EQ(t.tcp.told, 0);
  t.net.check_conservation();
}

// Class 3 is paused at the host (100 quanta = 100 x 512 bit at 100G =
// 512 ns). The RoCE transport is refused; at 400 ns TCP starts a jumbo frame
// of class 0 (on the wire until 400 + 737.28 = 1137.28 ns). The pause ends at
// 512 ns while the wire is busy with another class and nothing is queued, so
// no end of transmission would announce it: the end of the pause itself tells
// the refused transport, whose 1000 B frame waits for the wire and arrives at
// 1137.28 + 80 + 1000 ns.
TEST(Host, APauseEndingWhileTheWireIsBusyTellsTheRefusedTransport) {
  HostAndSink t;
  Packet& f = t.net.make_packet(kPauseFrameBytes);
  f.kind = PacketKind::kPause;
  f.pause_enable = 1 << 3;
  f.set_pause_quanta(3, 100);
  t.h.nic_port().receive_pause(f);
  t.net.consume(f);
  t.roce.push(3, 1000, 1);
  EXPECT_EQ(t.roce.sent, 0);
  t.script.at(sim::Time::zero() + 400_ns, [&] { t.tcp.push(0, 9216, 1); });
  t.sim.run();
  ASSERT_EQ(t.s.arrivals.size(), 2u);
  EXPECT_EQ(t.s.arrivals[0].tc, 0);
  EXPECT_EQ(t.s.arrivals[0].t.count_ps(), 400'000 + 737'280 + 1'000'000);
  EXPECT_EQ(t.s.arrivals[1].tc, 3);
  EXPECT_EQ(t.s.arrivals[1].t.count_ps(), 1'137'280 + 80'000 + 1'000'000);
  // Told twice: when TCP's frame started at 400 ns (still paused: refused
  // again) and when the pause ended.
  EXPECT_EQ(t.roce.told, 2);
  EXPECT_EQ(t.tcp.told, 0);
}

}  // namespace
}  // namespace xoff::models
