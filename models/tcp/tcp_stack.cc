#include "models/tcp/tcp_stack.h"

#include "sim/check.h"
#include "sim/rng.h"

namespace xoff::models {
namespace {

// ECMP hash of a connection: splitmix64 of (initiator, responder, id, rpc), as a
// NIC hashes the 5-tuple. The same in both directions.
uint32_t connection_hash(uint32_t a, uint32_t b, uint32_t id, bool rpc) {
  uint64_t st = (static_cast<uint64_t>(a) << 42) ^ (static_cast<uint64_t>(b) << 21) ^ id ^
                (rpc ? 1ULL << 63 : 0);
  return static_cast<uint32_t>(sim::splitmix64_next(st) >> 32);
}

}  // namespace

TcpStack::TcpStack(Host& host, const TcpConfig& cfg, FlowListener* listener)
    : host_(host),
      net_(host.network()),
      sim_(host.network().sim()),
      cfg_(cfg),
      listener_(listener) {
  set_stream(host.sim_stream());
  XOFF_CHECK(cfg.mss.count() > 0 && cfg.mss.count() <= UINT16_MAX && cfg.initial_window >= 1,
             "TCP needs 0 < mss <= 65,535 B (a packet's 16-bit payload), initial_window >= 1");
  XOFF_CHECK(cfg.dupack_threshold >= 1 && cfg.delayed_ack_segments >= 1, "TCP thresholds >= 1");
  XOFF_CHECK(cfg.min_rto > sim::Duration::zero() && cfg.min_rto <= cfg.max_rto,
             "TCP needs 0 < min_rto <= max_rto");
  XOFF_CHECK(cfg.dctcp_g > 0 && cfg.dctcp_g <= 1, "DCTCP g must be in (0, 1]");
}

void TcpStack::start_flow(const FlowSpec& spec) {
  XOFF_CHECK(spec.protocol == Protocol::kTcp, "TcpStack::start_flow: not a TCP flow");
  XOFF_CHECK(spec.src == host_.ordinal() && spec.dst != spec.src,
             "TcpStack::start_flow: flow must start at this host, to another");
  if (spec.size.count() <= 0) {  // nothing to send: done at once
    ++stats_.flows_finished;
    if (listener_ != nullptr) listener_->flow_finished(spec.id, sim_.now(), 0);
    return;
  }
  const uint32_t h = connection_hash(spec.src, spec.dst, spec.id, false);
  const int64_t n = spec.size.count();
  TcpConnection& c =
      connect({spec.id, TcpRole::kBulkSender, spec.dst, h, spec.tc, spec.dscp, spec.pcp, n, 0},
              {spec.id, TcpRole::kBulkReceiver, spec.src, h, spec.tc, spec.dscp, spec.pcp, 0, n});
  c.tx.start(n);
  schedule(c);
}

void TcpStack::start_rpc(const RpcSpec& spec) {
  XOFF_CHECK(spec.client == host_.ordinal() && spec.server != spec.client,
             "TcpStack::start_rpc: RPC must start at this host, to another");
  XOFF_CHECK(spec.request.count() > 0 && spec.response.count() > 0,
             "TcpStack::start_rpc: request and response need at least one byte");
  const uint32_t h = connection_hash(spec.client, spec.server, spec.id, true);
  const int64_t q = spec.request.count();
  const int64_t r = spec.response.count();
  TcpConnection& c =
      connect({spec.id, TcpRole::kRpcClient, spec.server, h, spec.tc, spec.dscp, spec.pcp, q, r},
              {spec.id, TcpRole::kRpcServer, spec.client, h, spec.tc, spec.dscp, spec.pcp, r, q});
  c.tx.start(q);
  schedule(c);
}

TcpStack& TcpStack::peer_stack(uint32_t host_ordinal) {
  XOFF_CHECK(host_ordinal < net_.num_hosts(), "TCP peer is not a registered host");
  auto* s = dynamic_cast<TcpStack*>(net_.host(host_ordinal).transport(Protocol::kTcp));
  XOFF_CHECK(s != nullptr, "TCP peer host " + net_.host(host_ordinal).name() + " has no TcpStack");
  return *s;
}

TcpConnection& TcpStack::connect(const OpenArgs& local, const OpenArgs& remote) {
  TcpStack& peer = peer_stack(local.peer_host);
  TcpConnection& a = open(local);
  TcpConnection& b = peer.open(remote);
  a.peer = &peer;
  a.peer_slot = b.slot;
  b.peer = this;
  b.peer_slot = a.slot;
  return a;
}

TcpConnection& TcpStack::open(const OpenArgs& a) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = static_cast<uint32_t>(conns_.size());
    sim::EventHandler& self = *this;  // private base: convert here, not in make_unique
    conns_.push_back(std::make_unique<TcpConnection>(sim_, self, slot, cfg_));
  }
  TcpConnection& c = *conns_[slot];
  c.id = a.id;
  c.role = a.role;
  c.peer_host = a.peer_host;
  c.hash = a.hash;
  c.tc = a.tc;
  c.dscp = a.dscp;
  c.pcp = a.pcp;
  c.start = sim_.now();
  c.tx_bytes = a.tx_bytes;
  c.rx_bytes = a.rx_bytes;
  c.tx.reset();
  c.rx.start(a.rx_bytes);
  c.active = true;
  ++open_;
  return c;
}

// A slot still queued in a ready ring is freed when the ring pops it.
void TcpStack::release(TcpConnection& c) {
  c.active = false;
  c.stop_rto();
  c.rto_timer.cancel();
  c.delack_timer.cancel();
  --open_;
  if (!c.in_ready) free_.push_back(c.slot);
}

void TcpStack::try_close(TcpConnection& c) {
  if (!c.active || !c.end_done()) return;
  TcpConnection& other = *c.peer->conns_[c.peer_slot];
  if (!other.end_done()) return;
  c.peer->release(other);
  release(c);
}

TcpConnection* TcpStack::lookup(const Packet& p) {
  if (p.conn >= conns_.size()) return nullptr;
  TcpConnection& c = *conns_[p.conn];
  const bool same = c.active && c.peer_host == p.src && c.id == p.flow && c.hash == p.hash;
  return same ? &c : nullptr;
}

void TcpStack::receive(Packet& p) {
  TcpConnection* c = lookup(p);
  const bool data = p.kind == PacketKind::kTcpData;
  const Arrival a{data, p.seq, p.ack, p.payload, p.ce, p.ece};
  net_.consume(p);
  if (c == nullptr) {
    ++stats_.stale_packets;
    return;
  }
  on_ack(*c, a.ack, a.ece, !data);  // the ACK field first, as RFC 793 processes it
  if (data && c->rx_bytes > 0) on_data(*c, a);
  try_close(*c);
}

void TcpStack::on_data(TcpConnection& c, const Arrival& a) {
  if (a.ce) ++stats_.ce_received;
  if (cfg_.delayed_ack && c.rx.must_flush_before(a.ce)) send_pure_ack(c);
  const bool was_complete = c.rx.complete();
  const AckUrgency u =
      c.rx.on_segment(a.seq, a.payload, a.ce, cfg_.delayed_ack, cfg_.delayed_ack_segments);
  if (!was_complete && c.rx.complete()) on_rx_complete(c);
  if (u == AckUrgency::kNow) {
    send_ack_now(c);
  } else if (!c.delack_timer.armed()) {
    c.delack_timer.arm_in(cfg_.delayed_ack_timeout);
  }
}

void TcpStack::on_rx_complete(TcpConnection& c) {
  if (c.role == TcpRole::kRpcServer) {
    c.tx.start(c.tx_bytes);  // its first segment carries the owed ACK
    schedule(c);
  } else if (c.role == TcpRole::kRpcClient) {
    ++stats_.rpcs_finished;
    if (rpc_listener_ != nullptr) rpc_listener_->rpc_finished(c.id, sim_.now() - c.start);
  }
}

void TcpStack::on_ack(TcpConnection& c, int64_t ack, bool ece, bool pure) {
  if (!c.tx.started() || c.tx.done()) return;
  const TcpAckResult r = c.tx.on_ack(ack, ece, pure, sim_.now());
  if (r.has_event) note_event(c, r.event, r.flight);
  const TcpSenderState& s = c.tx.state();
  if (s.snd_una == s.snd_max) {
    c.stop_rto();  // RFC 6298 (5.2)
  } else if (r.restart_timer) {
    c.arm_rto(sim_.now() + c.tx.rto());  // (5.3)
  }
  if (c.tx.done()) {
    on_tx_done(c);
  } else {
    schedule(c);  // new data acked, a retransmission, or a dup ACK inflating cwnd
  }
}

void TcpStack::on_tx_done(TcpConnection& c) {
  if (c.role != TcpRole::kBulkSender) return;
  ++stats_.flows_finished;
  if (listener_ != nullptr) {
    listener_->flow_finished(c.id, sim_.now(), c.tx.state().retransmitted_bytes);
  }
}

// RFC 6298 (5.4)-(5.6): back off, restart the timer, resend from snd_una.
void TcpStack::on_timeout(TcpConnection& c) {
  const int64_t flight = c.tx.flight();
  if (!c.tx.on_timeout()) return;
  note_event(c, TcpEventKind::kTimeout, flight);
  c.arm_rto(sim_.now() + c.tx.rto());
  schedule(c);
}

void TcpStack::note_event(const TcpConnection& c, TcpEventKind kind, int64_t flight) {
  switch (kind) {
    case TcpEventKind::kFastRetransmit:
      ++stats_.fast_recoveries;
      break;
    case TcpEventKind::kPartialAck:
      ++stats_.partial_acks;
      break;
    case TcpEventKind::kTimeout:
      ++stats_.timeouts;
      break;
    case TcpEventKind::kEcnCut:
      ++stats_.ecn_reductions;
      break;
    case TcpEventKind::kRecoveryExit:
      break;
  }
  if (probe_ == nullptr) return;
  const TcpSenderState& s = c.tx.state();
  probe_->on_tcp_event(
      TcpEvent{sim_.now(), c.id, c.rpc(), kind, flight, s.cwnd, s.ssthresh, s.alpha, c.tx.rto()});
}

void TcpStack::handle_event(uint64_t tag) {
  TcpConnection& c = *conns_[tag >> 1];
  if (!c.active) return;
  if ((tag & 1) == 1) {
    send_ack_now(c);
  } else if (c.rto_running() && c.rto_deadline > sim_.now()) {
    c.rto_timer.arm_at(c.rto_deadline);  // restarted since it was pushed
  } else if (c.rto_running()) {
    c.stop_rto();
    on_timeout(c);
  }
}

const TcpConnection* TcpStack::find(uint32_t id, TcpRole role) const {
  for (const auto& c : conns_) {
    if (c->active && c->id == id && c->role == role) return c.get();
  }
  return nullptr;
}

int64_t TcpStack::bytes_acked(uint32_t flow_id) const {
  const TcpConnection* c = find(flow_id, TcpRole::kBulkSender);
  return c == nullptr ? -1 : c->tx.state().snd_una;
}

}  // namespace xoff::models
