#pragma once
// A host: one NIC port, and the endpoint transports (RoCE NIC, TCP stack) that
// share it. The port's class queues are kept shallow (a staging limit per
// class) so that transports decide what goes next, as a NIC's scheduler does,
// while the port's SP/DWRR scheduler and PFC pause state arbitrate classes.
//
// A received PAUSE pauses the host's own egress classes (host PFC). Hosts can
// also *send* PFC (a slow receiver or a faulty NIC stuck in XOFF): send_pause().
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "models/core/host_rx.h"
#include "models/core/network.h"
#include "models/core/node.h"

namespace xoff::models {

class Host;

// An endpoint protocol on a host. Receives the packets of its protocol and is
// told when the host port has room to take more.
class Transport {
 public:
  virtual ~Transport() = default;
  // `p` is addressed to this host and protocol; the transport now owns it and
  // must consume() or drop() it.
  virtual void receive(Packet& p) = 0;
  // The same, also naming what the next frame will likely touch (the
  // transport object, the flow's state, the class of the reply) for the
  // deep lookahead (Node::receive_hinted). Default: receive() and no hint.
  virtual RxHint receive_hinted(Packet& p) {
    receive(p);
    return {};
  }
  // The port may accept more packets (some class has room): push with Host::send.
  virtual void on_room() = 0;
};

class Host final : public Node {
 public:
  Host(Network& net, NodeId id, std::string name, uint32_t ordinal);

  void attach(Protocol proto, Transport& t) { transports_[static_cast<int>(proto)] = &t; }
  // The transport attached for `proto`, or null.
  Transport* transport(Protocol proto) const { return transports_[static_cast<int>(proto)]; }
  uint32_t ordinal() const { return ordinal_; }
  Network& network() { return net_; }
  EgressPort& nic_port() { return *nic_; }

  // True when class `tc` holds fewer bytes than the staging limit and is not
  // paused. False also registers `asker`: its transport hears on_room() once
  // room may have appeared (a frame of a class left the queue, a pause ended,
  // the link came back). A transport that was not refused is told nothing,
  // so a NIC refills on its own events (pacing, ACKs), not on every frame.
  bool has_room(int tc, Protocol asker);
  void send(Packet& p);
  // Sends a PFC frame for the classes in `enable` with `quanta` (0 = XON).
  void send_pause(uint8_t enable, uint16_t quanta);
  // Mismarking (a misconfigured or malicious NIC): from now on, packets of
  // the transports in `protocols` (protocol_bit()s) leave with this DSCP and
  // PCP instead of their flow's; the host's own queues are unchanged.
  // clear_remark() restores the flows' marking.
  void set_remark(uint8_t protocols, uint8_t dscp, uint8_t pcp) {
    remark_ = Remark{protocols, dscp, pcp};
  }
  void clear_remark() { remark_ = Remark{}; }
  void set_staging_limit(sim::Bytes b) { staging_limit_ = b; }
  int64_t pauses_received() const { return pauses_received_; }
  // Makes this host a slow receiver (host_rx.h) from now on.
  void set_slow_receiver(const SlowReceiverConfig& cfg);
  const ReceivePipeline* slow_receiver() const { return rx_.get(); }
  // Hands `p` to its transport (after the receive pipeline, if any).
  void deliver(Packet& p);
  int64_t held_bytes() const override { return rx_ ? rx_->held_bytes() : 0; }
  size_t held_packets() const override { return rx_ ? rx_->held_packets() : 0; }

  void receive(Packet& p, PortIndex ingress) override { (void)receive_hinted(p, ingress); }
  RxHint receive_hinted(Packet& p, PortIndex ingress) override;
  void on_dequeue(PortIndex port, const QueuedFrame& f) override;
  void on_port_ready(PortIndex port) override;
  void on_link_up(PortIndex port) override;

 protected:
  void on_port_added(EgressPort& p) override {
    if (nic_ == nullptr) nic_ = &p;
  }

 private:
  void notify_room();
  Transport& transport_for(const Packet& p);  // checked: attached, addressed here
  [[gnu::noinline]] void receive_pause(Packet& p, PortIndex ingress);

  EgressPort* nic_ = nullptr;  // port 0, held directly: the NIC refill reads it per packet
  Network& net_;
  uint32_t ordinal_;
  std::array<Transport*, kMaxProtocols> transports_{};
  sim::Bytes staging_limit_{2 * 9216};
  struct Remark {
    uint8_t protocols = 0;  // 0: off
    uint8_t dscp = 0;
    uint8_t pcp = 0;
  };
  Remark remark_;
  int64_t pauses_received_ = 0;
  bool notifying_ = false;
  uint8_t sending_ = 0;  // protocol_bit()s of the transports inside send()
  uint8_t refused_ = 0;  // protocol_bit()s refused room since they were last told
  std::unique_ptr<ReceivePipeline> rx_;
};

}  // namespace xoff::models
