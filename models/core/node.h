#pragma once
// A network node (switch or host): receives packets at the last bit on an
// ingress port, and owns its egress ports. Wired once at build time.
#include <memory>
#include <string>
#include <vector>

#include "models/core/ids.h"
#include "models/core/packet.h"
#include "models/core/port.h"
#include "models/monitor/recorder.h"
#include "sim/simulator.h"

namespace xoff::models {

class Node {
 public:
  Node(NodeId id, std::string name) : id_(id), name_(std::move(name)) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  // The last bit of `p` arrived on port `ingress`; the node now owns `p`.
  virtual void receive(Packet& p, PortIndex ingress) = 0;
  // The same, also naming what handling the next frame on this link will
  // likely touch first: the egress port and class this one went to (a flow's
  // frames follow one another), and the node's own state it touched (RxHint).
  // The link keeps it and prefetches it one event ahead of that frame's
  // arrival. A hint only: a wrong one costs a useless prefetch. Default:
  // receive() and no hint.
  virtual RxHint receive_hinted(Packet& p, PortIndex ingress) {
    receive(p, ingress);
    return {};
  }
  // `f.pkt` left the class queue of `port` and started transmission (buffer
  // release, dequeue-time ECN marking, endpoint refill). `f` holds what the
  // queue kept of it: read the packet itself only when needed (it is likely
  // cold). Default: nothing.
  virtual void on_dequeue(PortIndex port, const QueuedFrame& f) {
    (void)port;
    (void)f;
  }
  // Port `port` may take frames it could not before: its wire went idle, a
  // pause ended or was ignored, the link came back. Not at every end of a
  // transmission: a port schedules that event only when a frame waits behind
  // the one on the wire (EgressPort: the lazy end of transmission); a frame
  // of a class that starts is told by on_dequeue. Default: nothing.
  virtual void on_port_ready(PortIndex port) { (void)port; }
  // The link of `port` came back up (both ends are up again). Its PFC state
  // was reset at both ends when it went down (EgressPort::set_link_up), so a
  // node still holding a priority group in XOFF for it pauses the peer again
  // now. Default: nothing.
  virtual void on_link_up(PortIndex port) { (void)port; }
  // `f.pkt` is removed from a queue of `port` without being sent (link down,
  // watchdog drop); it is dropped right after. Default: as for a dequeue.
  virtual void on_discard(PortIndex port, const QueuedFrame& f) { on_dequeue(port, f); }
  // Packets the node itself holds between events (beyond its ports' queues),
  // for the conservation check: a slow receiver's buffer.
  virtual int64_t held_bytes() const { return 0; }
  virtual size_t held_packets() const { return 0; }
  // The node's own accounting against its ports' queues (aborts when they
  // disagree), run with the conservation check. Default: nothing.
  virtual void check_accounting() const {}
  // End of run: node-level counters beyond the ports' (a switch's buffer peaks).
  virtual void report_counters(Recorder& r) const { (void)r; }

  NodeId id() const { return id_; }
  // The event stream of everything this node does (its ports, timers and
  // transports): node id + 1, the set-up stream being 0 (sim/simulator.h).
  sim::StreamId sim_stream() const { return id_.value() + 1; }
  const std::string& name() const { return name_; }
  size_t num_ports() const { return ports_.size(); }
  EgressPort& port(PortIndex i) { return *ports_[i.value()]; }
  const EgressPort& port(PortIndex i) const { return *ports_[i.value()]; }
  // Called by Network::connect; ports are numbered in the order added.
  EgressPort& add_port(std::unique_ptr<EgressPort> p) {
    ports_.push_back(std::move(p));
    on_port_added(*ports_.back());
    return *ports_.back();
  }

 protected:
  virtual void on_port_added(EgressPort& p) { (void)p; }

 private:
  NodeId id_;
  std::string name_;
  std::vector<std::unique_ptr<EgressPort>> ports_;
};

}  // namespace xoff::models
