// RoceNic, receiver side (responder / DCQCN notification point): PSN check,
// cumulative ACK, NAK on a sequence gap, CNP on CE at most once per interval.
#include "models/nic/roce_nic.h"

namespace xoff::models {

RoceNic::RxFlow& RoceNic::rx_flow(uint32_t flow) { return rx_.get(flow); }

RoceNic::RxFlow& RoceNic::on_data(Packet& p) {
  RxFlow& rx = rx_flow(p.flow);
  ++counters_.data_packets_received;
  if (p.ce) {
    ++counters_.ce_packets_received;
    maybe_send_cnp(p, rx);
  }
  if (p.seq == rx.expected) {
    ++rx.expected;
    rx.nak_sent = false;
    if (p.last && listener_ != nullptr) listener_->flow_delivered(p.flow, sim_.now());
    if (cfg_.ack_requested(p.seq, p.last) || rx.cnp_pending) send_ack(p, rx, PacketKind::kRoceAck);
  } else if (p.seq > rx.expected) {
    ++counters_.out_of_order_packets;
    if (!rx.nak_sent) {
      send_ack(p, rx, PacketKind::kRoceNak);
      rx.nak_sent = true;
    }
  } else {
    ++counters_.duplicate_packets;
    send_ack(p, rx, PacketKind::kRoceAck);
  }
  net_.consume(p);
  return rx;
}

void RoceNic::send_ack(const Packet& data, RxFlow& rx, PacketKind kind) {
  Packet& a = net_.make_packet(kRoceAckBytes + cfg_.extra_wire_bytes);
  a.kind = kind;
  a.protocol = Protocol::kRoce;
  a.ack = rx.expected;
  a.seq = rx.expected;
  a.flow = data.flow;
  a.conn = data.conn;  // the sender's QP
  a.dst = data.src;
  a.hash = data.hash;
  if (cfg_.ack_tc < 0) {
    a.tc = data.tc;
    a.dscp = data.dscp;
    a.pcp = data.pcp;
  } else {
    a.tc = static_cast<uint8_t>(cfg_.ack_tc);
    a.dscp = cfg_.ack_dscp;
    a.pcp = cfg_.ack_pcp;
  }
  a.ece = rx.cnp_pending;  // cnp_on_ack: a CNP riding on this ACK
  rx.cnp_pending = false;
  if (kind == PacketKind::kRoceNak) {
    ++counters_.naks_sent;
  } else {
    ++counters_.acks_sent;
  }
  host_.send(a);
}

// At most one CNP per flow per cnp_interval (Mellanox min_time_between_cnps,
// the paper's N). The CNP goes through the port's control queue, ahead of
// data and never behind a paused class, in the CNP class for the switches.
void RoceNic::maybe_send_cnp(const Packet& data, RxFlow& rx) {
  if (!cfg_.send_cnps) return;
  const sim::Time now = sim_.now();
  if (rx.cnp_sent && now - rx.last_cnp < cfg_.dcqcn.cnp_interval) return;
  rx.cnp_sent = true;
  rx.last_cnp = now;
  ++counters_.cnps_sent;
  if (cfg_.cnp_on_ack) {
    rx.cnp_pending = true;  // on the ACK this packet (or the next) gets
    return;
  }
  Packet& c = net_.make_packet(kRoceCnpBytes + cfg_.extra_wire_bytes);
  c.kind = PacketKind::kCnp;
  c.protocol = Protocol::kRoce;
  c.flow = data.flow;
  c.conn = data.conn;
  c.src = host_.ordinal();
  c.dst = data.src;
  c.hash = data.hash;
  c.tc = static_cast<uint8_t>(cfg_.cnp_tc);
  c.dscp = cfg_.cnp_dscp;
  c.pcp = cfg_.cnp_pcp;
  host_.nic_port().enqueue_control(c);
}

}  // namespace xoff::models
