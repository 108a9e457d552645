#include "models/core/network.h"

#include <string>

#include "sim/check.h"

namespace xoff::models {

int64_t Ledger::total_dropped_packets() const {
  int64_t s = 0;
  for (int64_t v : dropped_packets) s += v;
  return s;
}

int64_t Ledger::total_dropped_bytes() const {
  int64_t s = 0;
  for (int64_t v : dropped_bytes) s += v;
  return s;
}

Network::Network(sim::Simulator& sim, Recorder* recorder)
    : sim_(sim), recorder_(recorder != nullptr ? recorder : &null_recorder_) {}

uint32_t Network::connect(Node& a, Node& b, sim::BitsPerSecond rate, sim::Duration delay) {
  const PortIndex pa(static_cast<uint16_t>(a.num_ports()));
  const PortIndex pb(static_cast<uint16_t>(b.num_ports()));
  a.add_port(std::make_unique<EgressPort>(*this, a, pa, rate, delay, b, pb));
  b.add_port(std::make_unique<EgressPort>(*this, b, pb, rate, delay, a, pa));
  links_.push_back(LinkEnds{a.id(), pa, b.id(), pb});
  return static_cast<uint32_t>(links_.size() - 1);
}

void Network::add_port(Node& owner, PortIndex index, Node& peer, PortIndex peer_port,
                       sim::BitsPerSecond rate, sim::Duration delay) {
  XOFF_CHECK(owner.num_ports() == index.value(), "ports must be added in index order");
  owner.add_port(std::make_unique<EgressPort>(*this, owner, index, rate, delay, peer, peer_port));
}

uint32_t Network::declare_link(Node& a, PortIndex pa, Node& b, PortIndex pb) {
  XOFF_CHECK(pa.value() < a.num_ports() && pb.value() < b.num_ports() && &a.port(pa).peer() == &b &&
                 &b.port(pb).peer() == &a,
             "declared link does not match its ports");
  links_.push_back(LinkEnds{a.id(), pa, b.id(), pb});
  return static_cast<uint32_t>(links_.size() - 1);
}

void Network::set_link_up(uint32_t link, bool up) {
  const LinkEnds& l = links_.at(link);
  node(l.a).port(l.a_port).set_link_up(up);
  node(l.b).port(l.b_port).set_link_up(up);
  if (up) {
    node(l.a).on_link_up(l.a_port);
    node(l.b).on_link_up(l.b_port);
  }
}

Packet& Network::make_packet(sim::Bytes size) {
  Packet& p = pool_.acquire();
  // Numbered per stream (the node making it), so that an id does not depend
  // on what other nodes did, nor on which process runs them.
  const sim::StreamId s = sim_.current_stream();
  if (s >= packet_seq_.size()) packet_seq_.resize(s + 1, 0);
  p.id = (static_cast<uint64_t>(s) << 40) | ++packet_seq_[s];
  p.size = size;
  p.ttl = default_ttl_;
  ++ledger_.created_packets;
  ledger_.created_bytes += size.count();
  return p;
}

void Network::consume(Packet& p) {
  ++ledger_.consumed_packets;
  ledger_.consumed_bytes += p.size.count();
  pool_.release(p);
}

void Network::drop(Packet& p, DropReason why, const Node& where) {
  const auto r = static_cast<size_t>(why);
  ++ledger_.dropped_packets[r];
  ledger_.dropped_bytes[r] += p.size.count();
  const size_t n = where.id().value();
  if (node_drops_.size() <= n) node_drops_.resize(nodes_.size() > n ? nodes_.size() : n + 1);
  ++node_drops_[n].packets[r];
  node_drops_[n].bytes[r] += p.size.count();
  pool_.release(p);
}

int64_t Network::drops_at(NodeId n, DropReason r) const {
  if (n.value() >= node_drops_.size()) return 0;
  return node_drops_[n.value()].packets[static_cast<size_t>(r)];
}

void Network::register_host(Host& h) { hosts_.push_back(&h); }

void Network::export_packet(Packet& p) {
  ++ledger_.exported_packets;
  ledger_.exported_bytes += p.size.count();
  pool_.release(p);
}

Packet& Network::import_packet(const Packet& copy) {
  Packet& p = pool_.acquire();
  p = copy;
  ++ledger_.imported_packets;
  ledger_.imported_bytes += copy.size.count();
  return p;
}

void Network::check_conservation() const {
  const int64_t live = static_cast<int64_t>(pool_.live());
  const int64_t accounted =
      ledger_.consumed_packets + ledger_.total_dropped_packets() + ledger_.exported_packets + live;
  XOFF_CHECK(ledger_.created_packets + ledger_.imported_packets == accounted,
             "packet conservation: created " + std::to_string(ledger_.created_packets) +
                 " + imported " + std::to_string(ledger_.imported_packets) + " != consumed " +
                 std::to_string(ledger_.consumed_packets) + " + dropped " +
                 std::to_string(ledger_.total_dropped_packets()) + " + exported " +
                 std::to_string(ledger_.exported_packets) + " + live " + std::to_string(live));
  int64_t held_bytes = 0;
  size_t held_packets = 0;
  for (const auto& n : nodes_) {
    n->check_accounting();
    held_bytes += n->held_bytes();
    held_packets += n->held_packets();
    for (size_t i = 0; i < n->num_ports(); ++i) {
      const EgressPort& p = n->port(PortIndex(static_cast<uint16_t>(i)));
      held_bytes += p.held_bytes();
      held_packets += p.held_packets();
    }
  }
  XOFF_CHECK(held_packets == pool_.live(), "packet conservation: " + std::to_string(pool_.live()) +
                                               " live packets but ports hold " +
                                               std::to_string(held_packets));
  const int64_t bytes_left = ledger_.created_bytes + ledger_.imported_bytes -
                             ledger_.consumed_bytes - ledger_.total_dropped_bytes() -
                             ledger_.exported_bytes;
  XOFF_CHECK(bytes_left == held_bytes,
             "byte conservation: created + imported - consumed - dropped - exported = " +
                 std::to_string(bytes_left) + " B but ports hold " + std::to_string(held_bytes) +
                 " B");
}

void Network::report_counters() {
  for (auto& n : nodes_) {
    n->report_counters(*recorder_);
    for (size_t i = 0; i < n->num_ports(); ++i) {
      EgressPort& p = n->port(PortIndex(static_cast<uint16_t>(i)));
      p.finalize_counters();
      const PortCounters& c = p.counters();
      for (int tc = 0; tc < kNumClasses; ++tc) {
        if (c.tx_packets[tc] == 0 && c.dropped[tc] == 0 && c.pause_received[tc] == 0 &&
            c.pause_sent[tc] == 0) {
          continue;
        }
        QueueCounters q;
        q.node = n->name();
        q.port = static_cast<uint16_t>(i);
        q.traffic_class = static_cast<uint8_t>(tc);
        q.tx_packets = c.tx_packets[tc];
        q.tx_bytes = c.tx_bytes[tc];
        q.dropped_packets = c.dropped[tc];
        q.peak_bytes = c.peak_bytes[tc];
        q.pause_received = c.pause_received[tc];
        q.pause_sent = c.pause_sent[tc];
        q.ecn_marked = c.ecn_marked[tc];
        q.paused_time = c.paused_time[tc];
        recorder_->queue_counters(q);
      }
    }
    for (size_t r = 0; r < static_cast<size_t>(DropReason::kCount); ++r) {
      if (n->id().value() >= node_drops_.size()) break;
      const NodeDrops& d = node_drops_[n->id().value()];
      if (d.packets[r] == 0) continue;
      recorder_->drop_counters(
          DropCounters{n->name(), std::string(drop_reason_name(static_cast<DropReason>(r))),
                       d.packets[r], d.bytes[r]});
    }
  }
}

}  // namespace xoff::models
