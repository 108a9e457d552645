// Packets through one Switch: N sender hosts -> one switch -> M receiver hosts,
// every link 100 Gb/s with 1 us of cable. Each packet pays the whole
// per-packet path of the switch: TTL, route lookup, ECMP pick, classification
// (DSCP 26 -> TC 3 -> PG 3, lossless), MMU admission and release (dynamic
// threshold, PFC XOFF/XON upstream), ECN at enqueue (DCQCN's RED: 5 KB, 200 KB,
// 1 %), egress SP/DWRR, plus the two host ports around it.
//
// Senders are closed-loop blasters: they keep their NIC port staged (the host's
// staging limit) with 1062 B RoCE-sized frames, round-robin over the receivers
// with 16 flow hashes per (sender, receiver), so a sender is held back only by
// its link rate and by PFC. Receivers consume.
//
// Args: senders N, receivers M, links per receiver W (the ECMP group width of
// each receiver's route: W parallel links, hashed per flow).
//   N = M, W = 1   no oversubscription: queues from round-robin collisions only
//   N = 8 M, W = 1 8:1 incast: ECN marks on every packet, PFC pausing senders
//   N = M W, W = 4 ECMP fan-out over 4 links per receiver: hash imbalance
// Items are packets the switch forwarded (data, handed to an egress queue).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core/host.h"
#include "models/core/network.h"
#include "models/switch/switch.h"
#include "sim/simulator.h"

namespace {
using namespace xoff;
using namespace xoff::models;
using namespace xoff::sim::literals;

constexpr sim::Bytes kFrame{1062};  // 1000 B RoCE payload + 62 B of headers
constexpr uint32_t kFlowsPerPair = 16;

uint32_t mix32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

class Blaster final : public Transport {
 public:
  Blaster(Network& net, Host& h, uint32_t first_rx, uint32_t num_rx)
      : net_(net), host_(h), first_rx_(first_rx), num_rx_(num_rx), k_(h.ordinal()) {
    h.attach(Protocol::kRoce, *this);
  }
  void receive(Packet& p) override { net_.consume(p); }
  void on_room() override {
    while (host_.has_room(3, Protocol::kRoce)) {
      Packet& p = net_.make_packet(kFrame);
      p.kind = PacketKind::kRoceData;
      p.protocol = Protocol::kRoce;
      p.dst = first_rx_ + static_cast<uint32_t>(k_ % num_rx_);
      const uint64_t flow = (k_ / num_rx_) % kFlowsPerPair;
      p.hash = mix32((uint64_t{host_.ordinal()} << 40) ^ (uint64_t{p.dst} << 8) ^ flow);
      p.dscp = 26;
      p.pcp = 3;
      p.tc = 3;
      p.ecn_capable = true;
      p.payload = 1000;
      ++k_;
      host_.send(p);
    }
  }

 private:
  Network& net_;
  Host& host_;
  uint32_t first_rx_;
  uint32_t num_rx_;
  uint64_t k_;  // packets sent (starts at the ordinal: senders are out of phase)
};

class Receiver final : public Transport {
 public:
  Receiver(Network& net, Host& h) : net_(net) { h.attach(Protocol::kRoce, *this); }
  void receive(Packet& p) override {
    if (p.ce) ++ce;
    net_.consume(p);
  }
  void on_room() override {}
  int64_t ce = 0;

 private:
  Network& net_;
};

struct Rig {
  sim::Simulator sim;
  Network net{sim};
  Switch* sw = nullptr;
  std::vector<Host*> hosts;
  std::vector<std::unique_ptr<Blaster>> blasters;
  std::vector<std::unique_ptr<Receiver>> receivers;

  Rig(uint32_t n, uint32_t m, uint32_t w) {
    SwitchConfig cfg;  // 16 MB shared buffer, PG 3 lossless, ECN on with DCQCN's RED
    cfg.seed = 1;
    for (uint32_t h = 0; h < n + m; ++h) {
      std::string name = "h";  // (not "h" + ...: GCC 12 -Wrestrict false positive)
      name += std::to_string(h);
      Host& host = net.add_node<Host>(name, h);
      net.register_host(host);
      hosts.push_back(&host);
    }
    sw = &net.add_node<Switch>("sw", cfg);
    sw->set_ecmp_salt(0x5eed);
    for (uint32_t h = 0; h < n; ++h) {
      net.connect(*hosts[h], *sw, 100_Gbps, 1_us);
      sw->set_route(h, {PortIndex(static_cast<uint16_t>(h))});
    }
    for (uint32_t r = 0; r < m; ++r) {
      std::vector<PortIndex> group;
      for (uint32_t l = 0; l < w; ++l) {
        group.push_back(PortIndex(static_cast<uint16_t>(sw->num_ports())));
        net.connect(*hosts[n + r], *sw, 100_Gbps, 1_us);
      }
      sw->set_route(n + r, std::move(group));
    }
    for (uint32_t h = 0; h < n; ++h)
      blasters.push_back(std::make_unique<Blaster>(net, *hosts[h], n, m));
    for (uint32_t r = 0; r < m; ++r)
      receivers.push_back(std::make_unique<Receiver>(net, *hosts[n + r]));
    for (auto& b : blasters) b->on_room();
  }
  int64_t forwarded() const { return sw->counters().forwarded; }
  void run_packets(int64_t k) {
    const int64_t target = forwarded() + k;
    while (forwarded() < target) sim.run_until(sim.next_event_time());
  }
};

void SwitchForward(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  const auto m = static_cast<uint32_t>(state.range(1));
  const auto w = static_cast<uint32_t>(state.range(2));
  Rig rig(n, m, w);
  rig.run_packets(20'000);  // warm-up: queues, pool and heap at their working size
  const int64_t pk0 = rig.forwarded();
  const uint64_t ev0 = rig.sim.events_executed();
  for (auto _ : state) rig.run_packets(10'000);
  const auto packets = rig.forwarded() - pk0;
  const auto events = static_cast<double>(rig.sim.events_executed() - ev0);
  state.SetItemsProcessed(packets);
  state.counters["events/pkt"] = events / static_cast<double>(packets);
  state.counters["events/s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
  state.counters["pending"] = static_cast<double>(rig.sim.pending());  // event-queue size
  // What the traffic did (whole run, warm-up included): how often the switch
  // marked and paused, and whether anything was lost.
  int64_t ce = 0;
  for (const auto& r : rig.receivers) ce += r->ce;
  int64_t xoff = 0;
  for (size_t p = 0; p < rig.sw->num_ports(); ++p) {
    for (int64_t s : rig.sw->port(PortIndex(static_cast<uint16_t>(p))).counters().pause_sent)
      xoff += s;
  }
  const double fwd = static_cast<double>(rig.forwarded());
  state.counters["ce_frac"] = static_cast<double>(ce) / fwd;
  state.counters["xoff/kpkt"] = 1000.0 * static_cast<double>(xoff) / fwd;
  state.counters["drops"] = static_cast<double>(rig.net.ledger().total_dropped_packets());
}
BENCHMARK(SwitchForward)
    ->ArgNames({"senders", "receivers", "links"})
    ->Args({4, 4, 1})
    ->Args({16, 16, 1})
    ->Args({32, 4, 1})
    ->Args({16, 4, 4})
    ->Args({64, 64, 1});

}  // namespace

BENCHMARK_MAIN();
