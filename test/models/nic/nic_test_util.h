#pragma once
// Helpers for the RoCE NIC tests: a completion recorder, a two-port "wire"
// node that can drop or CE-mark data packets, and flow construction.
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/flow.h"
#include "models/core/host.h"
#include "models/core/network.h"
#include "models/core/node.h"
#include "models/nic/roce_nic.h"

namespace xoff::models::test {

struct Completions final : FlowListener {
  struct Done {
    uint32_t flow;
    sim::Time t;
    int64_t retx;
  };
  std::vector<Done> done;
  void flow_finished(uint32_t flow_id, sim::Time finish, int64_t retx) override {
    done.push_back(Done{flow_id, finish, retx});
  }
};

// Forwards port 0 <-> port 1 (store-and-forward, one serialization per hop).
// Optionally drops the first data packet with PSN `drop_psn` of flow
// `drop_flow`, and sets CE on every ECN-capable data packet.
class Wire final : public Node {
 public:
  Wire(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}
  void receive(Packet& p, PortIndex in) override {
    if (p.kind == PacketKind::kPause) {
      port(in).receive_pause(p);
      net_.consume(p);
      return;
    }
    if (p.kind == PacketKind::kRoceData) {
      if (!dropped && p.flow == drop_flow && p.seq == drop_psn) {
        dropped = true;
        net_.drop(p, DropReason::kLossyEgress, *this);
        return;
      }
      if (mark_ce && p.ecn_capable) p.ce = true;
    }
    EgressPort& out = port(PortIndex(in.value() == 0 ? 1 : 0));
    if (p.kind == PacketKind::kCnp) {
      out.enqueue_control(p);
    } else {
      out.enqueue(p);
    }
  }
  uint32_t drop_flow = 0;
  int64_t drop_psn = -1;
  bool dropped = false;
  bool mark_ce = false;

 private:
  Network& net_;
};

inline Host& add_host(Network& net, const std::string& name) {
  Host& h = net.add_node<Host>(name, static_cast<uint32_t>(net.num_hosts()));
  net.register_host(h);
  return h;
}

inline FlowSpec roce_flow(uint32_t id, uint32_t src, uint32_t dst, sim::Bytes size,
                          uint8_t tc = 3) {
  FlowSpec f;
  f.id = id;
  f.protocol = Protocol::kRoce;
  f.src = src;
  f.dst = dst;
  f.size = size;
  f.tc = tc;
  f.dscp = 26;
  f.pcp = tc;
  return f;
}

// Two hosts, each with a RoCE NIC, on one 100 Gb/s link with 1 us of cable.
struct Direct {
  sim::Simulator sim;
  Network net{sim};
  Host& a = add_host(net, "a");
  Host& b = add_host(net, "b");
  Completions done;
  RoceNic nic_a;
  RoceNic nic_b;
  uint32_t link;
  explicit Direct(const RoceConfig& cfg = RoceConfig{})
      : nic_a(a, cfg, &done),
        nic_b(b, cfg, &done),
        link(net.connect(a, b, sim::BitsPerSecond(100'000'000'000), sim::Duration::us(1))) {}
};

// h0 -- wire -- h1, both links 100 Gb/s, 1 us; the Wire can drop one PSN.
struct ViaWire {
  sim::Simulator sim;
  Network net{sim};
  Host& a = add_host(net, "a");
  Host& b = add_host(net, "b");
  Wire& w = net.add_node<Wire>("w");
  Completions done;
  RoceNic nic_a;
  RoceNic nic_b;
  explicit ViaWire(const RoceConfig& cfg = RoceConfig{})
      : nic_a(a, cfg, &done), nic_b(b, cfg, &done) {
    net.connect(a, w, sim::BitsPerSecond(100'000'000'000), sim::Duration::us(1));
    net.connect(w, b, sim::BitsPerSecond(100'000'000'000), sim::Duration::us(1));
  }
};

}  // namespace xoff::models::test
