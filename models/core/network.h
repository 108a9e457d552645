#pragma once
// The network: owns nodes, ports and the packet pool, keeps the packet ledger.
//
// Ledger invariant, checked on demand and at the end of every run:
//   created = consumed + dropped + live (in queues, in flight, at endpoints)
// in packets and in bytes. `live` is the pool's count of packets not yet
// released, so a leaked or double-freed packet breaks the equation.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/core/drop.h"
#include "models/core/node.h"
#include "models/monitor/recorder.h"
#include "sim/check.h"
#include "sim/pool.h"
#include "sim/simulator.h"

namespace xoff::models {

struct Ledger {
  int64_t created_packets = 0;
  int64_t created_bytes = 0;
  int64_t consumed_packets = 0;
  int64_t consumed_bytes = 0;
  std::array<int64_t, static_cast<size_t>(DropReason::kCount)> dropped_packets{};
  std::array<int64_t, static_cast<size_t>(DropReason::kCount)> dropped_bytes{};
  // Frames handed to, or taken from, another part of a partitioned run (a
  // link whose ends are simulated elsewhere); 0 in one process.
  int64_t exported_packets = 0;
  int64_t exported_bytes = 0;
  int64_t imported_packets = 0;
  int64_t imported_bytes = 0;
  int64_t total_dropped_packets() const;
  int64_t total_dropped_bytes() const;
};

class Host;

class Network {
 public:
  explicit Network(sim::Simulator& sim, Recorder* recorder = nullptr);
  // IP TTL of every packet made from now on (a routing loop drops at 0).
  void set_default_ttl(uint8_t ttl) { default_ttl_ = ttl; }
  // Bytes every frame also occupies on every link: preamble 7 + SFD 1 +
  // inter-frame gap 12 = 20 on Ethernet. Time on the wire only: buffers,
  // counters and captures hold the frame itself. Set before ports are added
  // (each port reads it once); 0 by default, 20 in scenarios.
  void set_wire_overhead(sim::Bytes b) { wire_overhead_ = b; }
  sim::Bytes wire_overhead() const { return wire_overhead_; }
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  sim::Simulator& sim() { return sim_; }
  Recorder& recorder() { return *recorder_; }

  template <class T, class... Args>
  T& add_node(Args&&... args) {
    // Node i's event stream is i + 1 (Node::sim_stream), below the observers'.
    XOFF_CHECK(nodes_.size() + 1 < sim::kObserverStream,
               "more nodes than event streams (2^18 - 2)");
    auto node = std::make_unique<T>(*this, NodeId(static_cast<uint32_t>(nodes_.size())),
                                    std::forward<Args>(args)...);
    T& ref = *node;
    nodes_.push_back(std::move(node));
    return ref;
  }
  // Full-duplex link: adds the next port on a and on b. Returns the link index.
  uint32_t connect(Node& a, Node& b, sim::BitsPerSecond rate, sim::Duration delay);
  // For topologies that number ports their own way: adds `owner`'s next port
  // (which must be `index`) towards (peer, peer_port); then declare_link()
  // records the full-duplex link once both of its ports exist.
  void add_port(Node& owner, PortIndex index, Node& peer, PortIndex peer_port,
                sim::BitsPerSecond rate, sim::Duration delay);
  uint32_t declare_link(Node& a, PortIndex pa, Node& b, PortIndex pb);
  // Fails or restores both directions of link `link` (a fault).
  void set_link_up(uint32_t link, bool up);

  Node& node(NodeId id) { return *nodes_[id.value()]; }
  const Node& node(NodeId id) const { return *nodes_[id.value()]; }
  // Hosts by ordinal (0..H-1), the address used in Packet::src/dst.
  void register_host(Host& h);
  Host& host(uint32_t ordinal) { return *hosts_[ordinal]; }
  size_t num_hosts() const { return hosts_.size(); }
  size_t num_nodes() const { return nodes_.size(); }
  struct LinkEnds {
    NodeId a;
    PortIndex a_port;
    NodeId b;
    PortIndex b_port;
  };
  const std::vector<LinkEnds>& links() const { return links_; }

  // Packet lifecycle: every packet is made here and ends in consume() or drop().
  Packet& make_packet(sim::Bytes size);
  void consume(Packet& p);
  void drop(Packet& p, DropReason why, const Node& where);
  // A frame leaves this part of a partitioned run (its copy travels to where
  // the link's far end is simulated): released here, counted as exported.
  void export_packet(Packet& p);
  // A frame from another part: a packet of this pool with its fields.
  Packet& import_packet(const Packet& copy);
  const Ledger& ledger() const { return ledger_; }
  // Drop counts per (node, reason).
  int64_t drops_at(NodeId n, DropReason r) const;
  size_t live_packets() const { return pool_.live(); }
  // Packets the pool has room for: the most ever live at once, rounded up to
  // its chunk (the pool never shrinks during a run).
  size_t packet_capacity() const { return pool_.capacity(); }
  static constexpr size_t packet_chunk() { return decltype(pool_)::chunk_size(); }
  // Aborts with a message if the ledger does not balance, in packets and in
  // bytes. Between events every live packet sits in a port (queued, on the
  // wire or propagating), so the bytes are counted there independently.
  void check_conservation() const;
  // Counters of every port and node to the recorder (end of run).
  void report_counters();

  // Ports that received a PFC XOFF since the pause watcher (the deadlock
  // detector) last took them: it looks only at these, never at every port.
  // A port is listed at most once until taken.
  void note_paused(EgressPort& p) { paused_ports_.push_back(&p); }
  std::vector<EgressPort*> take_paused_ports() { return std::exchange(paused_ports_, {}); }

 private:
  uint8_t default_ttl_ = 64;
  sim::Bytes wire_overhead_{0};
  sim::Simulator& sim_;
  Recorder null_recorder_;
  Recorder* recorder_;
  sim::Pool<Packet> pool_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<LinkEnds> links_;
  Ledger ledger_;
  struct NodeDrops {
    std::array<int64_t, static_cast<size_t>(DropReason::kCount)> packets{};
    std::array<int64_t, static_cast<size_t>(DropReason::kCount)> bytes{};
  };
  std::vector<NodeDrops> node_drops_;
  std::vector<Host*> hosts_;
  std::vector<EgressPort*> paused_ports_;
  std::vector<uint64_t> packet_seq_;  // packets made so far, by stream
};

}  // namespace xoff::models
