#pragma once
// Small networks for the TCP tests: hosts with TcpStacks, and a test switch
// (store-and-forward, drop-tail FIFO per egress port, step ECN marking at K,
// optional drop rule) so that the TCP tests do not depend on models/switch.
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "models/core/host.h"
#include "models/core/network.h"
#include "models/tcp/tcp_stack.h"

namespace xoff::models::tcp_test {

// Forwards by destination host. Class 0 only is watched (the tests use it).
class TestSwitch final : public Node {
 public:
  TestSwitch(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}

  std::vector<uint16_t> route;                                // host ordinal -> egress port
  int64_t queue_limit = std::numeric_limits<int64_t>::max();  // bytes queued (drop-tail)
  int64_t ecn_k = std::numeric_limits<int64_t>::max();        // mark ECT at enqueue if queued >= K
  std::function<bool(const Packet&)> drop_rule;               // true: drop (tests only)
  int64_t rule_drops = 0;
  int64_t tail_drops = 0;
  int64_t marks = 0;

  void receive(Packet& p, PortIndex) override {
    EgressPort& out = port(PortIndex(route.at(p.dst)));
    if (drop_rule && drop_rule(p)) {
      ++rule_drops;
      net_.drop(p, DropReason::kLossyEgress, *this);
      return;
    }
    const int64_t q = out.queued_bytes(p.tc);
    if (q + p.size.count() > queue_limit) {
      ++tail_drops;
      net_.drop(p, DropReason::kLossyEgress, *this);
      return;
    }
    if (p.ecn_capable && q >= ecn_k) {
      p.ce = true;
      ++marks;
    }
    sample(out.index());
    out.enqueue(p);
    sample(out.index());
  }
  void on_dequeue(PortIndex port_index, const QueuedFrame& f) override {
    const Packet& p = *f.pkt;
    sample(port_index);
    if (p.kind == PacketKind::kTcpData) {
      if (tx_by_flow.size() <= p.flow) tx_by_flow.resize(p.flow + 1);
      tx_by_flow[p.flow] += p.size.count();
    }
  }

  // Time-weighted mean of the bytes queued at `port` since reset_stats().
  double mean_queue(PortIndex port_index) {
    sample(port_index);
    const Watch& w = watch_[port_index.value()];
    const double span = static_cast<double>((net_.sim().now() - w.since).count_ps());
    return span > 0 ? w.area / span : 0.0;
  }
  int64_t max_queue(PortIndex port_index) const { return watch_[port_index.value()].max; }
  void reset_stats() {
    for (size_t i = 0; i < watch_.size(); ++i) {
      watch_[i] = Watch{};
      watch_[i].since = watch_[i].last = net_.sim().now();
      watch_[i].bytes = port(PortIndex(static_cast<uint16_t>(i))).queued_bytes(0);
    }
    tx_by_flow.assign(tx_by_flow.size(), 0);
  }
  std::vector<int64_t> tx_by_flow;  // data frame bytes sent per flow id since reset_stats()

 protected:
  void on_port_added(EgressPort&) override { watch_.emplace_back(); }

 private:
  struct Watch {
    sim::Time since, last;
    int64_t bytes = 0, max = 0;
    double area = 0;  // byte-picoseconds
  };
  void sample(PortIndex i) {
    Watch& w = watch_[i.value()];
    const sim::Time now = net_.sim().now();
    w.area += static_cast<double>(w.bytes) * static_cast<double>((now - w.last).count_ps());
    w.last = now;
    w.bytes = port(i).queued_bytes(0);
    if (w.bytes > w.max) w.max = w.bytes;
  }
  Network& net_;
  std::vector<Watch> watch_;
};

// Listens to everything the stacks report.
struct Log final : FlowListener, RpcListener, TcpProbe {
  struct Finish {
    uint32_t id;
    sim::Time t;
    int64_t retransmitted;
  };
  std::vector<Finish> flows;
  std::vector<std::pair<uint32_t, sim::Duration>> rpcs;
  std::vector<TcpEvent> events;
  void flow_finished(uint32_t id, sim::Time t, int64_t retx) override {
    flows.push_back({id, t, retx});
  }
  void rpc_finished(uint32_t id, sim::Duration latency) override { rpcs.push_back({id, latency}); }
  void on_tcp_event(const TcpEvent& e) override { events.push_back(e); }
  std::vector<TcpEvent> of(TcpEventKind k) const {
    std::vector<TcpEvent> out;
    for (const TcpEvent& e : events) {
      if (e.kind == k) out.push_back(e);
    }
    return out;
  }
};

struct TcpNet {
  sim::Simulator sim;
  Network net{sim};
  Log log;
  std::vector<Host*> hosts;
  std::vector<std::unique_ptr<TcpStack>> stacks;

  Host& add_host(const TcpConfig& cfg = {}) {
    const auto n = static_cast<uint32_t>(hosts.size());
    std::string name = "h";  // not "h" + to_string(): GCC 12 -Wrestrict false positive
    name += std::to_string(n);
    Host& h = net.add_node<Host>(std::move(name), n);
    net.register_host(h);
    hosts.push_back(&h);
    stacks.push_back(std::make_unique<TcpStack>(h, cfg, &log));
    stacks.back()->set_rpc_listener(&log);
    stacks.back()->set_probe(&log);
    h.attach(Protocol::kTcp, *stacks.back());
    return h;
  }
  TcpStack& stack(uint32_t host) { return *stacks[host]; }
  void start(uint32_t id, uint32_t src, uint32_t dst, int64_t bytes) {
    FlowSpec f;
    f.id = id;
    f.protocol = Protocol::kTcp;
    f.src = src;
    f.dst = dst;
    f.size = sim::Bytes(bytes);
    stack(src).start_flow(f);
  }
  // Runs until the event queue drains (all flows done, all timers stale).
  void run() { sim.run(); }
  void run_for(sim::Duration d) { sim.run_until(sim.now() + d); }
};

}  // namespace xoff::models::tcp_test
