// DCQCN end to end: N RoCE senders through one switch (models/switch, default
// config: DSCP 26 -> lossless class 3, DCQCN's RED Kmin 5 KB, Kmax 200 KB,
// Pmax 1 %, marking at enqueue, 16 MB buffer) into one 40G port.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/nic/roce_nic.h"
#include "models/switch/switch.h"
#include "test/models/nic/nic_test_util.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::add_host;
using test::Completions;
using test::roce_flow;

constexpr double kLineGbps = 40.0;
constexpr int64_t kKmax = 200'000;

// Senders h0..h(N-1) and the receiver hN, each on its own 40G, 1 us link to
// the switch; switch port i faces host i.
struct Incast {
  sim::Simulator sim;
  Network net{sim};
  Switch& sw;
  std::vector<std::unique_ptr<RoceNic>> nics;
  Completions done;
  int n;

  Incast(int senders, const RoceConfig& cfg)
      : sw(net.add_node<Switch>("sw", SwitchConfig{})), n(senders) {
    for (int i = 0; i <= senders; ++i) {
      std::string name = "h";
      name += std::to_string(i);
      Host& h = add_host(net, name);
      nics.push_back(std::make_unique<RoceNic>(h, cfg, &done));
      net.connect(h, sw, 40_Gbps, 1_us);
      sw.set_route(static_cast<uint32_t>(i), {PortIndex(static_cast<uint16_t>(i))});
    }
  }
  EgressPort& bottleneck() { return sw.port(PortIndex(static_cast<uint16_t>(n))); }
  void start_all(sim::Bytes size) {
    for (int i = 0; i < n; ++i) {
      const auto id = static_cast<uint32_t>(i);
      nics[i]->start_flow(roce_flow(id, id, static_cast<uint32_t>(n), size));
    }
  }
  int64_t pauses_sent() {
    int64_t s = 0;
    for (size_t i = 0; i < sw.num_ports(); ++i) {
      s += sw.port(PortIndex(static_cast<uint16_t>(i))).counters().pause_sent[3];
    }
    return s;
  }
  std::vector<int64_t> sent_bytes() const {
    std::vector<int64_t> v;
    for (int i = 0; i < n; ++i) v.push_back(nics[i]->counters().data_wire_bytes_sent);
    return v;
  }
};

struct Window {
  std::vector<double> gbps;  // per flow, wire bytes over the window
  double total = 0;
  double jain = 0;         // (sum x)^2 / (n sum x^2)
  int64_t peak_queue = 0;  // bottleneck class-3 bytes, sampled every 1 us
};

// Runs to `from`, then samples the bottleneck queue every microsecond until
// `to`; reports each flow's throughput over [from, to].
Window measure(Incast& t, sim::Duration from, sim::Duration to) {
  const sim::Time t0 = sim::Time::zero() + from;
  const sim::Time t1 = sim::Time::zero() + to;
  t.sim.run_until(t0);
  const std::vector<int64_t> b0 = t.sent_bytes();
  Window w;
  for (sim::Time s = t0; s <= t1; s += 1_us) {
    t.sim.run_until(s);
    w.peak_queue = std::max(w.peak_queue, t.bottleneck().queued_bytes(3));
  }
  const std::vector<int64_t> b1 = t.sent_bytes();
  double sq = 0;
  for (size_t i = 0; i < b0.size(); ++i) {
    const double g = static_cast<double>(b1[i] - b0[i]) * 8 / (t1 - t0).to_seconds() / 1e9;
    w.gbps.push_back(g);
    w.total += g;
    sq += g * g;
  }
  w.jain = w.total * w.total / (static_cast<double>(w.gbps.size()) * sq);
  return w;
}

TEST(DcqcnSwitch, TwoFlowsShareA40GPortWithinTenPercent) {
  RoceConfig cfg;     // paper DCQCN
  cfg.ack_every = 8;  // same sends, marks and CNPs as per-packet ACKs (see ten_flow_config)
  Incast t(2, cfg);
  t.start_all(2'000_MB);
  // The start-up burst cuts both flows to 2.5G (four CNPs 50 us apart with
  // alpha ~ 1); additive increase (40 Mb/s per 55 us) brings them back by ~20 ms.
  // Rates wander with ~10 ms correlation (see the 10-flow test), so the share
  // is averaged over 20-300 ms: over 20-40 ms a few switch seeds in 30 stray
  // past 10 %, over 20-300 ms none does (worst seen 5.6 %).
  const Window w = measure(t, 20_ms, 300_ms);
  for (double g : w.gbps) EXPECT_NEAR(g, kLineGbps / 2, 0.1 * kLineGbps / 2);  // 20G +- 2G
  EXPECT_GT(w.total, 0.95 * kLineGbps);
  // Start-up bound: both flows send 40G into 40G, so the queue grows at 40G
  // (5 KB/us). Above Kmax every packet is marked; a mark made at Kmax reaches
  // its sender after the 200 KB queueing delay (40 us) plus the base RTT
  // (4 us of cable + serialization, < 5 us), when the halved rates sum to 40G
  // and growth stops: peak <= Kmax + 5 KB/us * (40 + 5) us = 2 Kmax + 25 KB.
  EXPECT_LE(t.bottleneck().counters().peak_bytes[3], 2 * kKmax + 25'000);
  // Steady state: RED marks every packet above Kmax, so the queue overshoots
  // Kmax only by what the flows add in one feedback delay (seen: <= 0.5 Kmax).
  EXPECT_LT(w.peak_queue, kKmax);
  EXPECT_EQ(t.pauses_sent(), 0);
  EXPECT_EQ(t.net.ledger().total_dropped_packets(), 0);
  EXPECT_EQ(t.nics[0]->counters().retx_packets + t.nics[1]->counters().retx_packets, 0);
  t.net.check_conservation();
}

// The configuration of the long 10-flow run: ACKs every 8 packets instead of
// every packet. ACKs travel the reverse direction and never share a queue with
// data. The receiver queues a CNP before the ACK of the packet that triggered
// it, data reaches it at most every 212 ns (1062 B at 40G) and an ACK takes
// 13 ns (66 B), and each sender's ACKs are >= 2 us apart (1062 B at 4G): a CNP
// never waits behind an ACK. So every send, mark and CNP is the same as with
// per-packet ACKs (AckCoalescingLeavesTheDataPathUnchanged), with 39 % fewer
// events (7.6 M instead of 12.4 M): 300 ms simulate in ~0.7 s, not ~1.0 s.
RoceConfig ten_flow_config() {
  RoceConfig cfg;
  cfg.ack_every = 8;
  return cfg;
}

// Fair share: the port carries 40 Gb/s of frames (frame bytes, FCS included,
// no preamble or IFG: extra_wire_bytes = 0), 40G / 10 = 4 Gb/s of frames per
// flow. Throughput is counted in the same frame bytes (1062 B per 1000 B
// segment), so the 4G compare needs no header correction; in payload that is
// 4G * 1000 / 1062 = 3.77 Gb/s.
//
// Why 280 ms and not 20: DCQCN pulls flows together slowly and single flows
// wander. With 10 flows the queue reaches Kmax every cycle, where RED marks
// every packet (8.2 % of packets are marked; N = 50 us lets one CNP through
// per ~14 marks), so every flow is cut about 2.6 times per ms, nearly whatever
// its rate. Mostly additive increase equalizes: between cuts (~385 us = 7
// rate-timer periods: 5 fast recovery, ~2 additive) every flow's target gains
// the same 2 x 40 Mb/s = 2 % of 4G while it loses the same fraction of its
// rate, so a gap between two flows closes by ~2 % per cycle, ~5 %/ms (a
// relaxation time of ~20 ms by this estimate); meanwhile the timer stage a
// cut lands in is random, and kicks single flows by several %.
// Measured (1 s, 1 ms buckets): per-flow rate deviation 8.8 % rms,
// autocorrelation 0.61 at 5 ms, 0.35 at 10 ms, 0.12 at 20 ms: a relaxation
// time of ~10 ms. The spread of a flow's mean over W then falls like
// sqrt(tau / W): 6.6 % rms (up to 23 %) for W = 20 ms, 2.7 % for 280 ms.
// Over [20, 40] ms this run's flows span -14 % .. +9 % of 4G, and 95 of 100
// switch seeds have a flow beyond 10 %. Over [20, 300] ms they span
// -6.1 % .. +2.8 % (3.76G .. 4.11G); 1 seed of 100 has a flow beyond 10 %
// (-10.8 %), none beyond 10 % of the delivered mean. The delivered total is
// 39.1G: the queue sometimes empties after a cut that hit every flow at once.
TEST(DcqcnSwitch, TenFlowsShareA40GPortWithinTenPercent) {
  Incast t(10, ten_flow_config());
  t.start_all(1'000_MB);  // 1 GB at 4G lasts 2 s: every flow sends to the end
  const Window w = measure(t, 20_ms, 300_ms);
  for (double g : w.gbps) EXPECT_NEAR(g, kLineGbps / 10, 0.1 * kLineGbps / 10);  // 4G +- 0.4G
  EXPECT_GT(w.jain, 0.99);
  EXPECT_GT(w.total, 0.95 * kLineGbps);
  // Steady state near Kmax (seen: 1.11 Kmax over the first 20 ms of the
  // window, 1.18 Kmax over all 280). Start-up (10 x 40G into 40G) peaks in the
  // MBs but stays below the PFC threshold (~8 MB: alpha 1 of a 16 MB pool), so
  // no PAUSE and no drop.
  EXPECT_LT(w.peak_queue, kKmax * 5 / 4);
  EXPECT_LT(t.bottleneck().counters().peak_bytes[3], 8'000'000);
  EXPECT_EQ(t.pauses_sent(), 0);
  EXPECT_EQ(t.net.ledger().total_dropped_packets(), 0);
  t.net.check_conservation();
}

// The premise of ten_flow_config(): coalescing ACKs changes nothing on the
// data path of the 10-flow incast, send for send, mark for mark, CNP for CNP.
TEST(DcqcnSwitch, AckCoalescingLeavesTheDataPathUnchanged) {
  RoceConfig per_packet;
  per_packet.ack_every = 1;
  Incast every(10, per_packet);
  Incast coalesced(10, ten_flow_config());
  every.start_all(1'000_MB);
  coalesced.start_all(1'000_MB);
  // 10 ms: the start-up burst, the deep cuts and the first steady cycles.
  every.sim.run_until(sim::Time::zero() + 10_ms);
  coalesced.sim.run_until(sim::Time::zero() + 10_ms);
  EXPECT_EQ(every.sent_bytes(), coalesced.sent_bytes());
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(every.nics[i]->counters().cnps_received, coalesced.nics[i]->counters().cnps_received);
    EXPECT_EQ(every.nics[i]->rate_control(static_cast<uint32_t>(i))->rate(),
              coalesced.nics[i]->rate_control(static_cast<uint32_t>(i))->rate());
  }
  EXPECT_EQ(every.bottleneck().counters().ecn_marked[3],
            coalesced.bottleneck().counters().ecn_marked[3]);
  EXPECT_GT(every.bottleneck().counters().ecn_marked[3], 0);
  // 8 times fewer ACKs: per packet vs every 8th (the receiver NIC is index 10).
  EXPECT_LT(coalesced.nics[10]->counters().acks_sent * 7, every.nics[10]->counters().acks_sent);
}

TEST(DcqcnSwitch, WithoutDcqcnTheQueueGrowsUntilPfcPauses) {
  RoceConfig cfg;
  cfg.dcqcn.enabled = false;  // CNPs are still sent, and ignored
  Incast t(2, cfg);
  t.start_all(100_MB);
  t.sim.run_until(sim::Time::zero() + 5_ms);
  // 40G of excess = 5 KB/us: the lossless PG reaches its dynamic threshold
  // (~8 MB) within ~2 ms and the switch pauses the senders instead.
  EXPECT_GT(t.pauses_sent(), 0);
  EXPECT_GT(t.bottleneck().counters().peak_bytes[3], 4'000'000);
  EXPECT_GT(t.nics[0]->counters().cnps_received, 0);
  EXPECT_EQ(t.net.ledger().total_dropped_packets(), 0);
}

TEST(DcqcnSwitch, NicLikeProfileDeliversEveryFlowLosslessly) {
  RoceConfig cfg;
  cfg.dcqcn = DcqcnParams::nic_like();
  Incast t(4, cfg);
  t.start_all(5_MB);
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 4u);
  for (const auto& d : t.done.done) EXPECT_EQ(d.retx, 0);
  EXPECT_EQ(t.net.ledger().total_dropped_packets(), 0);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

}  // namespace
}  // namespace xoff::models
