// EgressPort throughput: enqueue -> DWRR pick -> serialise (tx done event) ->
// propagate (arrival timer) -> deliver to the peer, on one 100 Gb/s link with
// 1 us of cable. A source node keeps every active class backlogged: each
// dequeue of class c enqueues a fresh packet of class c (closed loop, so the
// queues stay at a constant depth and the run never drains). Packet sizes are
// drawn from a fixed-seed stream in [64, 1500] B so that DWRR deficits carry
// over between rounds.
//
// Args: number of active classes (1, 2, 8; all DWRR, weights 1..4), and PFC
// (0 or 1). With PFC the sink sends a real PAUSE frame back over the link every
// 2 us, alternating XOFF (every other active class, or class 0 alone) and XON;
// the source port applies it after a 100 ns response delay, which exercises the
// control queue, the pending-pause and resume timers and paused-class skipping
// in DWRR.
//
// Items are data packets delivered to the sink.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "models/core/network.h"
#include "models/core/node.h"
#include "models/core/port.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace {
using namespace xoff;
using namespace xoff::models;
using namespace xoff::sim::literals;

constexpr int kDepth = 16;  // packets kept queued per active class

// Owns the port under test; refills the class it just dequeued.
class Source final : public Node {
 public:
  Source(Network& net, NodeId id, std::string name)
      : Node(id, std::move(name)), net_(net), rng_(1, "port_bench") {}

  void fill(int classes) {
    for (int tc = 0; tc < classes; ++tc) {
      for (int i = 0; i < kDepth; ++i) push(tc);
    }
  }
  // PAUSE frames from the sink.
  void receive(Packet& p, PortIndex ingress) override {
    port(ingress).receive_pause(p);
    net_.consume(p);
  }
  void on_dequeue(PortIndex, const QueuedFrame& f) override { push(f.tc); }

 private:
  void push(int tc) {
    Packet& p = net_.make_packet(sim::Bytes(64 + static_cast<int64_t>(rng_.uniform_int(1437))));
    p.tc = static_cast<uint8_t>(tc);
    port(PortIndex(0)).enqueue(p);
  }
  Network& net_;
  sim::Rng rng_;
};

// Consumes data; optionally toggles PFC on the source with PAUSE frames.
class Sink final : public Node, private sim::EventHandler {
 public:
  Sink(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}

  void start_pfc(uint8_t classes) {
    pause_mask_ = classes;
    net_.sim().schedule_in(2_us, *this, 0);
  }
  void receive(Packet& p, PortIndex) override {
    ++delivered;
    net_.consume(p);
  }
  int64_t delivered = 0;
  int64_t pause_frames = 0;

 private:
  void handle_event(uint64_t) override {
    Packet& f = net_.make_packet(kPauseFrameBytes);
    f.kind = PacketKind::kPause;
    f.pause_enable = pause_mask_;
    const uint16_t quanta = xoff_next_ ? 0xFFFF : 0;
    for (int tc = 0; tc < kNumClasses; ++tc) f.set_pause_quanta(tc, quanta);
    xoff_next_ = !xoff_next_;
    ++pause_frames;
    port(PortIndex(0)).enqueue_control(f);
    net_.sim().schedule_in(2_us, *this, 0);
  }
  Network& net_;
  uint8_t pause_mask_ = 0;
  bool xoff_next_ = true;
};

struct Rig {
  sim::Simulator sim;
  Network net{sim};
  Source& src = net.add_node<Source>("src");
  Sink& dst = net.add_node<Sink>("dst");

  Rig(int classes, bool pfc) {
    net.connect(src, dst, 100_Gbps, 1_us);
    SchedulerConfig s;
    s.weight = {1, 2, 3, 4, 1, 2, 3, 4};
    src.port(PortIndex(0)).set_scheduler(s);
    src.port(PortIndex(0)).set_response_delay(100_ns);
    src.fill(classes);
    if (pfc) {
      uint8_t mask = 0;
      for (int tc = 0; tc < classes; tc += 2) mask = static_cast<uint8_t>(mask | (1u << tc));
      dst.start_pfc(mask);
    }
  }
  // Runs whole instants until `n` more packets reached the sink.
  void run_packets(int64_t n) {
    const int64_t target = dst.delivered + n;
    while (dst.delivered < target) sim.run_until(sim.next_event_time());
  }
};

void PortThroughput(benchmark::State& state) {
  const int classes = static_cast<int>(state.range(0));
  const bool pfc = state.range(1) != 0;
  Rig rig(classes, pfc);
  rig.run_packets(10'000);  // warm-up: pool, rings and heap at their working size
  const int64_t pk0 = rig.dst.delivered;
  const uint64_t ev0 = rig.sim.events_executed();
  for (auto _ : state) rig.run_packets(10'000);
  const auto packets = rig.dst.delivered - pk0;
  const auto events = static_cast<double>(rig.sim.events_executed() - ev0);
  state.SetItemsProcessed(packets);
  state.counters["events/pkt"] = events / static_cast<double>(packets);
  state.counters["events/s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
  state.counters["pending"] = static_cast<double>(rig.sim.pending());  // event-queue size
  // Simulated link utilisation over the whole run (lower with PFC: paused time).
  int64_t bytes = 0;
  for (int64_t b : rig.src.port(PortIndex(0)).counters().tx_bytes) bytes += b;
  const double secs = (rig.sim.now() - sim::Time::zero()).to_seconds();
  state.counters["sim_Gbps"] = secs > 0 ? static_cast<double>(bytes) * 8 / secs / 1e9 : 0;
  state.counters["pause_frames"] = static_cast<double>(rig.dst.pause_frames);
}
BENCHMARK(PortThroughput)->ArgNames({"classes", "pfc"})->ArgsProduct({{1, 2, 8}, {0, 1}});

}  // namespace

BENCHMARK_MAIN();
