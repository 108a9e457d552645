// TcpStack's transmit side: the ready rings, segments and ACKs.
#include <algorithm>

#include "models/tcp/tcp_stack.h"

namespace xoff::models {

void TcpStack::schedule(TcpConnection& c) {
  if (!c.in_ready && c.tx.started() && c.tx.can_send()) {
    c.in_ready = true;
    ready_[c.tc].push_back(c.slot);
    ++ready_count_;
  }
  pump();
}

// Hands segments to the NIC while each class has room: round robin over the
// ready connections of a class, one segment per turn. Re-entered through
// Host::send -> on_dequeue -> on_room; the guard makes the inner call a no-op
// (the outer loop re-checks room itself).
void TcpStack::pump() {
  if (pumping_ || ready_count_ == 0) return;
  pumping_ = true;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    Ring<uint32_t>& q = ready_[tc];
    while (!q.empty() && host_.has_room(tc, Protocol::kTcp)) {
      const uint32_t slot = q.pop_front();
      --ready_count_;
      TcpConnection& c = *conns_[slot];
      if (c.active && c.tx.can_send()) send_segment(c);
      if (c.active && c.tx.can_send()) {
        q.push_back(slot);
        ++ready_count_;
      } else {
        c.in_ready = false;
        if (!c.active) free_.push_back(slot);
      }
    }
  }
  pumping_ = false;
}

Packet& TcpStack::make_packet(const TcpConnection& c, int64_t wire_bytes, PacketKind kind) {
  Packet& p = net_.make_packet(sim::Bytes(wire_bytes));
  p.kind = kind;
  p.protocol = Protocol::kTcp;
  p.flow = c.id;
  p.conn = c.peer_slot;
  p.dst = c.peer_host;
  p.hash = c.hash;
  p.tc = c.tc;
  p.dscp = c.dscp;
  p.pcp = c.pcp;
  return p;
}

void TcpStack::send_segment(TcpConnection& c) {
  const TcpSegment seg = c.tx.next_segment(sim_.now());
  const int64_t wire = std::max(seg.len + cfg_.header_bytes.count(), cfg_.min_frame.count());
  Packet& p = make_packet(c, wire, PacketKind::kTcpData);
  p.seq = seg.seq;
  p.payload = static_cast<uint16_t>(seg.len);  // at most the MSS
  p.last = seg.seq + seg.len == c.tx_bytes;
  p.ecn_capable = cfg_.ecn_capable();
  p.cwr = seg.cwr;
  if (c.rx_bytes > 0) {  // piggyback the reverse direction's ACK
    p.ack = c.rx.state().rcv_nxt;
    p.ece = c.rx.state().ece_pending;
    if (c.rx.state().ack_pending) {
      c.rx.ack_sent();
      c.delack_timer.cancel();
    }
  }
  ++stats_.segments_sent;
  stats_.payload_bytes_sent += seg.len;
  if (seg.retransmission) {
    ++stats_.retransmitted_segments;
    stats_.retransmitted_bytes += seg.len;
  }
  if (!c.rto_running()) c.arm_rto(sim_.now() + c.tx.rto());  // RFC 6298 (5.1)
  host_.send(p);                                             // last: may re-enter on_room
}

// The owed ACK rides on a data segment if one can leave now, else goes alone.
void TcpStack::send_ack_now(TcpConnection& c) {
  if (!c.rx.state().ack_pending) return;
  if (c.tx.started() && c.tx.can_send() && host_.has_room(c.tc, Protocol::kTcp)) {
    send_segment(c);
    schedule(c);
    return;
  }
  send_pure_ack(c);
}

void TcpStack::send_pure_ack(TcpConnection& c) {
  const int64_t bytes = std::max(cfg_.header_bytes.count(), cfg_.min_frame.count());
  Packet& p = make_packet(c, bytes, PacketKind::kTcpAck);
  p.seq = c.tx.started() ? c.tx.state().snd_nxt : 0;
  p.ack = c.rx.state().rcv_nxt;
  p.ece = c.rx.state().ece_pending;
  c.rx.ack_sent();
  c.delack_timer.cancel();
  ++stats_.acks_sent;
  host_.send(p);
}

}  // namespace xoff::models
