#include "models/core/host.h"

#include "sim/check.h"

namespace xoff::models {

Host::Host(Network& net, NodeId id, std::string name, uint32_t ordinal)
    : Node(id, std::move(name)), net_(net), ordinal_(ordinal) {}

bool Host::has_room(int tc, Protocol asker) {
  const EgressPort& p = *nic_;
  if (p.link_up() && !p.paused(tc) && p.queued_bytes(tc) < staging_limit_.count()) return true;
  refused_ |= protocol_bit(asker);
  return false;
}

void Host::send(Packet& p) {
  p.src = ordinal_;
  if ((remark_.protocols >> static_cast<int>(p.protocol)) & 1) [[unlikely]] {
    p.dscp = remark_.dscp;
    p.pcp = remark_.pcp;
  }
  const uint8_t outer = sending_;
  sending_ |= protocol_bit(p.protocol);
  nic_port().enqueue(p);
  sending_ = outer;
}

void Host::send_pause(uint8_t enable, uint16_t quanta) {
  Packet& f = net_.make_packet(kPauseFrameBytes);
  f.kind = PacketKind::kPause;
  f.src = ordinal_;
  f.pause_enable = enable;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if ((enable >> tc) & 1) {
      f.set_pause_quanta(tc, quanta);
      if (quanta > 0) nic_port().count_pause_sent(tc);
      net_.recorder().pfc_event(
          PfcEventRecord{net_.sim().now(), name(), 0, static_cast<uint8_t>(tc), true, quanta});
    }
  }
  nic_port().enqueue_control(f);
}

// With the transport's hint for a frame it handles at once; pause frames and
// frames a slow receiver's pipeline holds name none.
RxHint Host::receive_hinted(Packet& p, PortIndex ingress) {
  if (p.kind == PacketKind::kPause) [[unlikely]] {
    receive_pause(p, ingress);
    return {};
  }
  if (rx_ && rx_->handles(p)) {
    rx_->accept(p);
    return {};
  }
  return transport_for(p).receive_hinted(p);
}

// Out of line: rare, and kept off the path of every data frame and ACK.
void Host::receive_pause(Packet& p, PortIndex ingress) {
  ++pauses_received_;
  // Host NIC ports' pauses belong in the timeline as switch ports' do.
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if ((p.pause_enable >> tc) & 1) {
      net_.recorder().pfc_event(PfcEventRecord{net_.sim().now(), name(), ingress.value(),
                                               static_cast<uint8_t>(tc), false,
                                               p.pause_quanta(tc)});
    }
  }
  port(ingress).receive_pause(p);
  net_.consume(p);
}

Transport& Host::transport_for(const Packet& p) {
  Transport* t = transports_[static_cast<int>(p.protocol)];
  XOFF_CHECK(t != nullptr, "host " + name() + " has no transport for a received packet");
  XOFF_CHECK(p.dst == ordinal_, "host " + name() + " received a packet for another host");
  return *t;
}

void Host::deliver(Packet& p) { transport_for(p).receive(p); }

void Host::set_slow_receiver(const SlowReceiverConfig& cfg) {
  rx_ = std::make_unique<ReceivePipeline>(*this, cfg);
}

void Host::on_dequeue(PortIndex, const QueuedFrame&) { notify_room(); }
void Host::on_link_up(PortIndex) {
  if (rx_) rx_->reassert();
}
void Host::on_port_ready(PortIndex) { notify_room(); }

// Tells the transports refused room since they were last told, except one
// inside send() (the frame it hands over may start at once and report its
// dequeue): that one is still in its loop, which returns early if re-entered,
// so clearing its refusal now could strand a class it was refused; it stays
// registered and hears the next call.
void Host::notify_room() {
  const uint8_t tell = refused_ & ~sending_;
  if (notifying_ || tell == 0) return;
  refused_ &= ~tell;
  notifying_ = true;
  for (int i = 0; i < kMaxProtocols; ++i) {
    if (((tell >> i) & 1) && transports_[i] != nullptr) transports_[i]->on_room();
  }
  notifying_ = false;
}

}  // namespace xoff::models
