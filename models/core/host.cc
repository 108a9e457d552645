#include "models/core/host.h"

#include "sim/check.h"

namespace xoff::models {

Host::Host(Network& net, NodeId id, std::string name, uint32_t ordinal)
    : Node(id, std::move(name)), net_(net), ordinal_(ordinal) {}

bool Host::has_room(int tc) const {
  const EgressPort& p = *nic_;
  return p.link_up() && !p.paused(tc) && p.queued_bytes(tc) < staging_limit_.count();
}

void Host::send(Packet& p) {
  p.src = ordinal_;
  if ((remark_.protocols >> static_cast<int>(p.protocol)) & 1) [[unlikely]] {
    p.dscp = remark_.dscp;
    p.pcp = remark_.pcp;
  }
  nic_port().enqueue(p);
}

void Host::send_pause(uint8_t enable, uint16_t quanta) {
  Packet& f = net_.make_packet(kPauseFrameBytes);
  f.kind = PacketKind::kPause;
  f.src = ordinal_;
  f.pause_enable = enable;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if ((enable >> tc) & 1) {
      f.pause_quanta[tc] = quanta;
      if (quanta > 0) ++nic_port().counters().pause_sent[tc];
      net_.recorder().pfc_event(
          PfcEventRecord{net_.sim().now(), name(), 0, static_cast<uint8_t>(tc), true, quanta});
    }
  }
  nic_port().enqueue_control(f);
}

void Host::receive(Packet& p, PortIndex ingress) {
  if (p.kind == PacketKind::kPause) {
    ++pauses_received_;
    // Host NIC ports' pauses belong in the timeline as switch ports' do.
    for (int tc = 0; tc < kNumClasses; ++tc) {
      if ((p.pause_enable >> tc) & 1) {
        net_.recorder().pfc_event(PfcEventRecord{net_.sim().now(), name(), ingress.value(),
                                                 static_cast<uint8_t>(tc), false,
                                                 p.pause_quanta[tc]});
      }
    }
    port(ingress).receive_pause(p);
    net_.consume(p);
    return;
  }
  if (rx_ && rx_->handles(p)) {
    rx_->accept(p);
    return;
  }
  deliver(p);
}

void Host::deliver(Packet& p) {
  Transport* t = transports_[static_cast<int>(p.protocol)];
  XOFF_CHECK(t != nullptr, "host " + name() + " has no transport for a received packet");
  XOFF_CHECK(p.dst == ordinal_, "host " + name() + " received a packet for another host");
  t->receive(p);
}

void Host::set_slow_receiver(const SlowReceiverConfig& cfg) {
  rx_ = std::make_unique<ReceivePipeline>(*this, cfg);
}

void Host::on_dequeue(PortIndex, Packet&) { notify_room(); }
void Host::on_port_idle(PortIndex) { notify_room(); }

// Re-entrancy guard: a transport's send() can start a transmission, whose
// dequeue would call back here while we are still iterating.
void Host::notify_room() {
  if (notifying_) return;
  notifying_ = true;
  for (Transport* t : transports_) {
    if (t != nullptr) t->on_room();
  }
  notifying_ = false;
}

}  // namespace xoff::models
