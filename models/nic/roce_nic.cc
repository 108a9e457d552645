// RoceNic: construction, the QP table, the send scheduler and the sender
// (requester / reaction point). The receiver side is in roce_receiver.cc.
#include "models/nic/roce_nic.h"

#include <algorithm>

#include "sim/check.h"
#include "sim/rng.h"

namespace xoff::models {

namespace {
// ECMP hash of a QP: splitmix64 of (src, dst, flow), as a NIC derives the UDP
// source port from the QP.
uint32_t qp_hash(uint32_t src, uint32_t dst, uint32_t flow) {
  uint64_t st = (static_cast<uint64_t>(src) << 44) ^ (static_cast<uint64_t>(dst) << 24) ^ flow;
  return static_cast<uint32_t>(sim::splitmix64_next(st) >> 32);
}
}  // namespace

RoceNic::RoceNic(Host& host, const RoceConfig& config, FlowListener* listener)
    : host_(host),
      net_(host.network()),
      sim_(host.network().sim()),
      listener_(listener),
      cfg_(config),
      pacer_(host.network().sim(), *this, kPaceTag) {
  set_stream(host.sim_stream());
  // (A packet carries its payload in 16 bits: models/core/packet.h.)
  XOFF_CHECK(cfg_.mtu.count() > 0 && cfg_.mtu.count() <= UINT16_MAX,
             "RoCE MTU must be positive and at most 65,535 B");
  XOFF_CHECK(cfg_.ack_every >= 1, "RoCE ack_every must be at least 1");
  XOFF_CHECK(cfg_.ack_tc < kNumClasses && cfg_.cnp_tc >= 0 && cfg_.cnp_tc < kNumClasses,
             "RoCE ACK/CNP class out of range");
  XOFF_CHECK(cfg_.rto > sim::Duration::zero(), "RoCE RTO must be positive");
  host_.attach(Protocol::kRoce, *this);
}

// Tests and inspection only: a scan over the QPs.
const DcqcnRateControl* RoceNic::rate_control(uint32_t flow_id) const {
  for (const Qp& q : qps_) {
    if (q.active && q.flow == flow_id) return &q.cc;
  }
  return nullptr;
}

RoceNic::Qp* RoceNic::qp_of(uint32_t conn, uint32_t flow) {
  if (conn >= qps_.size()) return nullptr;
  Qp& q = qps_[conn];
  return q.active && q.flow == flow ? &q : nullptr;
}

uint32_t RoceNic::alloc_qp() {
  if (!free_qps_.empty()) {
    const uint32_t i = free_qps_.back();
    free_qps_.pop_back();
    return i;
  }
  const auto i = static_cast<uint32_t>(qps_.size());
  XOFF_CHECK(i < QpScheduler::kMaxQps, "more than 2^21 QPs open on one NIC");
  qps_.emplace_back(sim_, *this, kRtoTagBase + i);
  qps_.back().index = i;
  return i;
}

void RoceNic::free_qp(uint32_t i) { free_qps_.push_back(i); }

void RoceNic::start_flow(const FlowSpec& spec) {
  XOFF_CHECK(spec.src == host_.ordinal(), "RoCE flow started on a host that is not its source");
  XOFF_CHECK(spec.tc < kNumClasses, "RoCE flow class out of range");
  const uint32_t i = alloc_qp();
  Qp& q = qps_[i];
  q.flow = spec.id;
  q.dst = spec.dst;
  q.hash = qp_hash(spec.src, spec.dst, spec.id);
  q.tc = spec.tc;
  q.dscp = spec.dscp;
  q.pcp = spec.pcp;
  q.active = true;
  q.queued = false;
  q.sent_any = false;
  q.size = spec.size.count();
  q.npkts = std::max<int64_t>(1, (q.size + cfg_.mtu.count() - 1) / cfg_.mtu.count());
  q.snd_una = q.snd_nxt = q.snd_max = 0;
  q.ackreq_max = -1;
  q.retx_bytes = 0;
  q.cnps = 0;
  q.cc = DcqcnRateControl(cfg_.dcqcn, host_.nic_port().rate());
  ++active_qps_;
  ++counters_.flows_started;
  schedule(i);
  pump();
}

// Earliest time the QP may send its next packet: one packet time at R_C after
// the previous one. The rate is re-read here, so a cut made while the QP waited
// postpones it.
sim::Time RoceNic::next_allowed(Qp& q) {
  if (!q.sent_any) return sim_.now();
  // Rates are of the wire: a frame paces with its preamble and gap.
  const sim::Bytes wire = q.last_size + net_.wire_overhead();
  if (!cfg_.dcqcn.enabled) return q.last_send + sim::tx_time(wire, q.cc.line_rate());
  q.cc.advance(sim_.now());
  return q.last_send + sim::tx_time(wire, q.cc.rate());
}

// Puts QP i in the scheduler if it has something to send and is not there yet.
void RoceNic::schedule(uint32_t i) {
  Qp& q = qps_[i];
  if (q.queued || !q.active || q.snd_nxt >= q.npkts) return;
  q.queued = true;
  const sim::Time at = next_allowed(q);
  if (at <= sim_.now()) {
    sched_.make_ready(i, q.tc);
  } else {
    wait(i, at);
  }
}

// Parks QP i until `allowed`, or until its rate may change before that (a
// rate-timer increase shortens the wait; serve() then re-reads the rate).
void RoceNic::wait(uint32_t i, sim::Time allowed) {
  Qp& q = qps_[i];
  const sim::Time change = cfg_.dcqcn.enabled ? q.cc.next_change() : sim::Time::max();
  sched_.wait_until(i, q.tc,
                    std::min(allowed, std::max(change, sim_.now() + sim::Duration::ps(1))));
}

void RoceNic::on_room() { pump(); }

// Fills the host port: one packet per ready QP in turn, in every class that has
// room. Re-entrant calls (a send that starts a transmission reports room
// again) return at once: this loop re-checks room itself.
void RoceNic::pump() {
  if (pumping_) return;
  pumping_ = true;
  sched_.release_due(sim_.now());
  for (bool sent = true; sent;) {
    sent = false;
    const uint8_t mask = sched_.ready_mask();
    for (int tc = 0; tc < kNumClasses; ++tc) {
      if (((mask >> tc) & 1) == 0 || !host_.has_room(tc, Protocol::kRoce)) continue;
      serve(sched_.pop_ready(tc));
      sent = true;
    }
  }
  pumping_ = false;
  arm_pacer();
}

void RoceNic::arm_pacer() {
  const sim::Time next = sched_.next_wakeup();
  if (next == sim::Time::max()) return;
  if (pacer_.armed() && pacer_.expiry() <= next) return;
  pacer_.arm_at(std::max(next, sim_.now()));
}

void RoceNic::serve(uint32_t i) {
  Qp& q = qps_[i];
  q.queued = false;
  if (!q.active) {  // finished while queued: the slot is free now
    free_qp(i);
    return;
  }
  if (q.snd_nxt >= q.npkts) return;
  const sim::Time at = next_allowed(q);
  if (at > sim_.now()) {  // woken for a rate change, or cut while it was ready
    q.queued = true;
    wait(i, at);
    return;
  }
  send_data(q);
  schedule(i);
}

void RoceNic::send_data(Qp& q) {
  const int64_t psn = q.snd_nxt;
  const int64_t payload = std::min(cfg_.mtu.count(), q.size - psn * cfg_.mtu.count());
  const sim::Bytes wire =
      sim::Bytes(std::max<int64_t>(payload, 0)) + kRoceDataHeaderBytes + cfg_.extra_wire_bytes;
  Packet& p = net_.make_packet(wire);
  p.kind = PacketKind::kRoceData;
  p.protocol = Protocol::kRoce;
  p.seq = psn;
  p.payload = static_cast<uint16_t>(std::max<int64_t>(payload, 0));  // at most the MTU
  p.flow = q.flow;
  p.conn = q.index;
  p.dst = q.dst;
  p.hash = q.hash;
  p.tc = q.tc;
  p.dscp = q.dscp;
  p.pcp = q.pcp;
  p.ecn_capable = true;
  p.last = psn == q.npkts - 1;
  if (psn < q.snd_max) {
    q.retx_bytes += p.payload;
    ++counters_.retx_packets;
    counters_.retx_payload_bytes += p.payload;
  }
  ++counters_.data_packets_sent;
  counters_.data_wire_bytes_sent += wire.count();
  // The timer runs while an ACK-requesting packet is unacknowledged: it starts
  // when one is sent with none outstanding (per-packet ACKs: when the QP was
  // idle), and ACK progress pushes it on.
  const bool none_due = q.ackreq_max < q.snd_una;
  q.snd_nxt = psn + 1;
  q.snd_max = std::max(q.snd_max, q.snd_nxt);
  q.sent_any = true;
  q.last_send = sim_.now();
  q.last_size = wire;
  q.cc.on_bytes_sent(sim_.now(), wire);
  if (cfg_.ack_requested(psn, p.last)) {
    q.ackreq_max = std::max(q.ackreq_max, psn);
    if (none_due || !q.rto_timer.armed()) q.rto_deadline = sim_.now() + cfg_.rto;
    if (!q.rto_timer.armed()) q.rto_timer.arm_at(q.rto_deadline);
  }
  host_.send(p);  // last: a link that is down drops (and frees) p at once
}

RxHint RoceNic::receive_hinted(Packet& p) {
  const int tc = p.tc;  // (p is consumed below)
  switch (p.kind) {
    case PacketKind::kRoceData:
      return RxHint{&host_.nic_port(), cfg_.ack_tc < 0 ? tc : cfg_.ack_tc, this, &on_data(p)};
    case PacketKind::kRoceAck:
    case PacketKind::kRoceNak: {
      const Qp* q = on_ack(p);
      return RxHint{&host_.nic_port(), q != nullptr ? q->tc : tc, this, q};
    }
    case PacketKind::kCnp:
      on_cnp(p);
      return {};
    default:
      XOFF_CHECK(false, "RoCE NIC received a packet of another kind");
      return {};
  }
}

// Cumulative ACK (and NAK, which acknowledges everything before its PSN and
// asks for go-back-N from it). Stale ones (finished flow) are ignored.
RoceNic::Qp* RoceNic::on_ack(Packet& p) {
  const bool nak = p.kind == PacketKind::kRoceNak;
  ++(nak ? counters_.naks_received : counters_.acks_received);
  const int64_t ack = p.ack;
  const uint32_t i = p.conn;
  const bool cnp = p.ece;  // cnp_on_ack: a CNP on this ACK
  Qp* q = qp_of(i, p.flow);
  net_.consume(p);
  if (cnp) note_cnp(q);
  if (q == nullptr) return nullptr;
  if (ack > q->snd_una) {
    q->snd_una = std::min(ack, q->snd_max);
    q->snd_nxt = std::max(q->snd_nxt, q->snd_una);
    q->rto_deadline = sim_.now() + cfg_.rto;
  }
  if (q->snd_una >= q->npkts) {
    finish(i);
    return nullptr;
  }
  if (nak && ack == q->snd_una && ack < q->snd_nxt) q->snd_nxt = ack;  // go back N
  // All acknowledged: the timer stays armed and finds nothing outstanding when
  // it fires (cancelling and re-arming per packet of a slow QP would leave one
  // stale queue entry per packet, each living a whole RTO).
  schedule(i);
  pump();
  return q;
}

void RoceNic::on_cnp(Packet& p) {
  Qp* q = qp_of(p.conn, p.flow);
  net_.consume(p);
  note_cnp(q);
}

// A notification reached this reaction point (a CNP frame, or the flag on an
// ACK): counted, and the QP's rate cut (none if the flow has finished).
void RoceNic::note_cnp(Qp* q) {
  ++counters_.cnps_received;
  if (q == nullptr) return;
  ++q->cnps;
  q->cc.on_cnp(sim_.now());
}

void RoceNic::handle_event(uint64_t tag) {
  if (tag == kPaceTag) {
    pump();
    return;
  }
  on_rto(static_cast<uint32_t>(tag - kRtoTagBase));
}

// The timer is armed once and pushed forward lazily: ACK progress only moves
// the deadline, and an early expiry re-arms at the deadline.
void RoceNic::on_rto(uint32_t i) {
  Qp& q = qps_[i];
  if (!q.active || q.ackreq_max < q.snd_una) return;  // no ACK is due
  if (sim_.now() < q.rto_deadline) {
    q.rto_timer.arm_at(q.rto_deadline);
    return;
  }
  ++counters_.timeouts;
  q.snd_nxt = q.snd_una;
  q.rto_deadline = sim_.now() + cfg_.rto;
  q.rto_timer.arm_at(q.rto_deadline);
  schedule(i);
  pump();
}

// The last ACK arrived. The listener is told last: it may start new flows,
// which may reuse this QP's slot.
void RoceNic::finish(uint32_t i) {
  Qp& q = qps_[i];
  q.rto_timer.cancel();
  q.active = false;
  --active_qps_;
  ++counters_.flows_finished;
  const uint32_t flow = q.flow;
  const int64_t retx = q.retx_bytes;
  const int64_t cnps = q.cnps;
  if (!q.queued) free_qp(i);
  if (listener_ != nullptr) {
    listener_->flow_cnps(flow, cnps);
    listener_->flow_finished(flow, sim_.now(), retx);
  }
}

// A linear scan over this NIC's QPs: called once per unfinished flow at the
// end of a run.
int64_t RoceNic::bytes_acked(uint32_t flow_id) const {
  for (const Qp& q : qps_) {
    if (q.active && q.flow == flow_id) return std::min(q.size, q.snd_una * cfg_.mtu.count());
  }
  return -1;
}

int64_t RoceNic::cnps_received(uint32_t flow_id) const {
  for (const Qp& q : qps_) {
    if (q.active && q.flow == flow_id) return q.cnps;
  }
  return -1;
}

}  // namespace xoff::models
