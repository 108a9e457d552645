#include "models/switch/switch.h"

#include <algorithm>
#include <string>

#include "models/core/host.h"
#include "sim/check.h"
#include "sim/log.h"

namespace xoff::models {

uint8_t Switch::lossless_mask(const SwitchConfig& cfg) {
  const std::vector<std::string> problems = validate(cfg, 0);
  XOFF_CHECK(problems.empty(),
             "switch config: " + (problems.empty() ? std::string() : problems[0]));
  return lossless_classes(cfg);
}

Switch::Switch(Network& net, NodeId id, std::string name, const SwitchConfig& cfg)
    : Node(id, std::move(name)),
      net_(net),
      cfg_(cfg),
      lossless_mask_(lossless_mask(cfg)),
      mmu_(cfg.mmu),
      pfc_(net, *this, mmu_, cfg.pfc, cfg.classification),
      watchdog_(net, *this, cfg.watchdog, lossless_mask_, cfg.seed),
      ecn_(cfg.ecn, cfg.seed, this->name()),
      route_timer_(net.sim(), *this, 0) {
  set_stream(sim_stream());
}

void Switch::on_port_added(EgressPort& p) {
  host_port_.push_back(dynamic_cast<const Host*>(&p.peer()) != nullptr);
  mmu_.add_port();
  pfc_.add_port();
  watchdog_.add_port();
  p.set_scheduler(cfg_.scheduler);
  p.set_response_delay(cfg_.pfc.response_delay);
}

void Switch::set_port_pfc(PortIndex p, uint8_t classes) {
  port(p).set_pfc_enabled(classes);
  uint8_t pgs = 0;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if ((classes >> tc) & 1)
      pgs = static_cast<uint8_t>(pgs | (1u << cfg_.classification.tc_to_pg[tc]));
  }
  mmu_.set_port_lossless(p.value(), pgs);
}

void Switch::set_route(uint32_t dst_host, std::vector<PortIndex> ports) {
  for (PortIndex p : ports) {
    XOFF_CHECK(p.value() < num_ports(), name() + ": route to host " + std::to_string(dst_host) +
                                            " uses port " + std::to_string(p.value()) +
                                            ", which does not exist");
  }
  routes_.set(dst_host, ports);
}

void Switch::install_routes_at(sim::Time at, RouteTable table) {
  XOFF_CHECK(at >= net_.sim().now(), name() + ": route install in the past");
  XOFF_CHECK(table.port_bound() <= num_ports(), name() + ": installed route uses a missing port");
  auto pos = std::upper_bound(pending_.begin(), pending_.end(), at,
                              [](sim::Time t, const PendingRoutes& r) { return t < r.at; });
  pending_.insert(pos, PendingRoutes{at, std::move(table)});
  route_timer_.arm_at(pending_.front().at);
}

void Switch::handle_event(uint64_t) {
  const sim::Time now = net_.sim().now();
  size_t n = 0;
  while (n < pending_.size() && pending_[n].at <= now) {
    routes_ = std::move(pending_[n].table);
    ++counters_.routes_installed;
    ++n;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
  if (!pending_.empty()) route_timer_.arm_at(pending_.front().at);
}

void Switch::classify(Packet& p) const {
  const ClassificationConfig& c = cfg_.classification;
  p.tc = c.class_of(c.trust, p.dscp, p.pcp);
  p.pg = c.tc_to_pg[p.tc];
}

void Switch::classify(Packet& p, PortIndex ingress) const {
  const ClassificationConfig& c = cfg_.classification;
  const bool host = c.host_trust && host_port_[ingress.value()];
  p.tc = c.class_of(host ? *c.host_trust : c.trust, p.dscp, p.pcp);
  p.pg = c.tc_to_pg[p.tc];
}

RxHint Switch::receive_hinted(Packet& p, PortIndex ingress) {
  if (p.kind == PacketKind::kPause) {
    if (cfg_.pfc.drop_host_pauses && host_port_[ingress.value()]) [[unlikely]] {
      drop(p, DropReason::kAcl, nullptr);
      return {};
    }
    receive_pause(p, ingress);
    return {};
  }
  if (p.ttl <= 1) {
    drop(p, DropReason::kTtl, nullptr);
    return {};
  }
  --p.ttl;
  const auto group = routes_.lookup(p.dst);
  if (group.empty()) {
    drop(p, DropReason::kNoRoute, nullptr);
    return {};
  }
  const PortIndex out = ecmp_pick(
      group, spray_ ? static_cast<uint32_t>(p.id * 0x9e3779b97f4a7c15ULL >> 32) : p.hash, salt_);
  if (p.kind == PacketKind::kCnp) {  // control queue at every hop, as at the NIC
    classify(p, ingress);
    p.in_port = ingress.value();
    ++counters_.forwarded;
    port(out).enqueue_control(p);
    return {};
  }
  return admit(p, ingress, out);
}

RxHint Switch::admit(Packet& p, PortIndex ingress, PortIndex out) {
  classify(p, ingress);
  if (cfg_.classification.host_lossless_roce_only && lossless_class(p.tc) &&
      p.protocol != Protocol::kRoce && host_port_[ingress.value()]) [[unlikely]] {
    p.dscp = cfg_.classification.host_remark_dscp;
    p.pcp = static_cast<uint8_t>(p.dscp >> 3);
    classify(p, ingress);
    ++counters_.acl_remarked;
  }
  p.in_port = ingress.value();
  if (!cfg_.tagger.classes.empty() && ingress.value() < uplink_.size() &&
      uplink_[ingress.value()] && uplink_[out.value()]) [[unlikely]] {
    retag(p);
  }
  EgressPort& q = port(out);
  const int tc = p.tc;
  if (watchdog_.dropping(out, tc)) {
    drop(p, DropReason::kWatchdog, &q);
    return RxHint{&q, tc};
  }
  if (!q.link_up()) {  // the port drops it (link_down); nothing is charged
    q.enqueue(p);
    return RxHint{&q, tc};
  }
  const Mmu::Admission a =
      mmu_.admit(ingress.value(), p.pg, tc, p.size.count(), q.queued_bytes(tc));
  if (a.send_xoff) pfc_.send_xoff(ingress, p.pg);
  switch (a.verdict) {
    case Mmu::Verdict::kAdmit:
      break;
    case Mmu::Verdict::kLossyIngress:
      drop(p, DropReason::kLossyIngress, &q);
      return RxHint{&q, tc};
    case Mmu::Verdict::kLossyEgress:
      drop(p, DropReason::kLossyEgress, &q);
      return RxHint{&q, tc};
    case Mmu::Verdict::kLosslessViolation:
      log_violation_once(ingress, p.pg);
      drop(p, DropReason::kLosslessViolation, &q);
      return RxHint{&q, tc};
  }
  if (!ecn_.at_dequeue()) mark_ecn(q, p);
  ++counters_.forwarded;
  // (Before the enqueue, as tc: a frame sent at once towards another part's
  // node leaves this process, and its packet is released, inside it.)
  const PgState* pg = &mmu_.pg(ingress.value(), p.pg);
  q.enqueue(p);
  return RxHint{&q, tc, pg, nullptr, false};
}

// The ingress PG stays the one the packet arrived in (p.pg); only its egress
// class and marking move on.
void Switch::retag(Packet& p) {
  const TaggerConfig& t = cfg_.tagger;
  for (size_t i = 0; i + 1 < t.classes.size(); ++i) {
    if (t.classes[i] != p.tc) continue;
    p.tc = t.classes[i + 1];
    p.dscp = t.dscp[i + 1];
    p.pcp = static_cast<uint8_t>(p.dscp >> 3);
    ++counters_.tagger_retagged;
    return;
  }
}

// From what the queue kept: the packet itself is read only to mark it.
void Switch::on_dequeue(PortIndex out, const QueuedFrame& f) {
  release(f);
  if (ecn_.at_dequeue()) mark_ecn(port(out), *f.pkt);
}

// Buffer release without the dequeue-time ECN judgement: the packet is dropped.
void Switch::on_discard(PortIndex, const QueuedFrame& f) { release(f); }

void Switch::check_accounting() const {
  int64_t queued = 0;
  for (size_t i = 0; i < num_ports(); ++i) {
    queued += port(PortIndex(static_cast<uint16_t>(i))).total_queued_bytes();
  }
  XOFF_CHECK(queued == mmu_.totals().egress,
             name() + ": ports queue " + std::to_string(queued) + " B but the MMU holds " +
                 std::to_string(mmu_.totals().egress) + " B for them");
}

void Switch::release(const QueuedFrame& f) {
  if (mmu_.release(f.in_port, f.pg, f.size)) {
    pfc_.send_xon(PortIndex(f.in_port), f.pg);
  }
}

// At enqueue the queue excludes the arriving packet; at dequeue it excludes the
// departing one: either way, the bytes the packet sees ahead of or behind it.
void Switch::mark_ecn(EgressPort& q, Packet& p) {
  if (!p.ecn_capable || p.ce) return;
  if (ecn_.decide(p.tc, q.queued_bytes(p.tc), host_port_[q.index().value()])) {
    p.ce = true;
    q.count_ecn_mark(p.tc);
  }
}

void Switch::receive_pause(Packet& p, PortIndex ingress) {
  port(ingress).receive_pause(p);
  ++counters_.pause_received;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (!((p.pause_enable >> tc) & 1)) continue;
    net_.recorder().pfc_event(PfcEventRecord{net_.sim().now(), name(), ingress.value(),
                                             static_cast<uint8_t>(tc), false, p.pause_quanta(tc)});
  }
  watchdog_.on_pause_received();
  net_.consume(p);
}

void Switch::drop(Packet& p, DropReason why, EgressPort* queue) {
  if (queue != nullptr) queue->count_drop(p.tc);
  net_.drop(p, why, *this);
}

// A lossless drop is a configuration failure (headroom too small): counted per
// packet, logged once per switch.
void Switch::log_violation_once(PortIndex ingress, int pg) {
  if (violation_logged_) return;
  violation_logged_ = true;
  const PgState& s = mmu_.pg(ingress.value(), pg);
  sim::logger("mmu")->warn("{}/p{} pg{} lossless violation: headroom {} B full (configured {} B)",
                           name(), ingress.value(), pg, s.headroom, s.headroom_cap);
}

void Switch::report_counters(Recorder& r) const {
  BufferCounters b;
  b.node = name();
  b.buffer_bytes = cfg_.mmu.total.count();
  b.shared_pool_bytes = mmu_.shared_pool();
  b.headroom_pool_bytes = mmu_.headroom_pool();
  b.peak_total_bytes = mmu_.totals().peak_total;
  b.peak_shared_bytes = mmu_.totals().peak_shared;
  b.peak_headroom_bytes = mmu_.totals().peak_headroom;
  for (size_t p = 0; p < num_ports(); ++p) {
    for (int pg = 0; pg < kNumClasses; ++pg) {
      const PfcCounters& c = pfc_.counters(PortIndex(static_cast<uint16_t>(p)), pg);
      b.xoff_episodes += c.xoff_sent;
      b.peak_pg_headroom_bytes = std::max(b.peak_pg_headroom_bytes, mmu_.pg(p, pg).peak_headroom);
      b.xon_sent += c.xon_sent;
    }
  }
  b.watchdog_storms = watchdog_.storms();
  b.acl_remarked = counters_.acl_remarked;
  b.tagger_retagged = counters_.tagger_retagged;
  r.buffer_counters(b);
}

}  // namespace xoff::models
