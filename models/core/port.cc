#include "models/core/port.h"

#include <algorithm>

#include "models/core/network.h"
#include "models/core/node.h"
#include "sim/check.h"

namespace xoff::models {

EgressPort::EgressPort(Network& net, Node& owner, PortIndex index, sim::BitsPerSecond rate,
                       sim::Duration delay, Node& peer, PortIndex peer_port)
    : sim_(net.sim()),
      owner_(owner),
      peer_(peer),
      serializer_(rate),
      delay_(delay),
      wire_overhead_(net.wire_overhead()),
      index_(index),
      peer_port_(peer_port),
      arrive_timer_(net.sim(), *this, kArrive),
      net_(net),
      rate_(rate),
      resume_timer_(net.sim(), *this, kResume),
      pause_timer_(net.sim(), *this, kApplyPause) {
  XOFF_CHECK(rate.count() > 0, "port rate must be positive");
  set_stream(owner.sim_stream());
  arrive_timer_.run_as(peer.sim_stream());  // an arrival is the peer's event
  set_scheduler(sched_);                    // the default's quanta
}

void EgressPort::set_scheduler(const SchedulerConfig& c) {
  sched_ = c;
  strict_mask_ = 0;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    strict_mask_ |= sched_.strict[tc] ? 1u << tc : 0u;
    cls_[tc].quantum = static_cast<int64_t>(sched_.weight[tc]) * sched_.quantum_unit.count();
  }
}

int64_t EgressPort::total_queued_bytes() const {
  int64_t sum = 0;
  for (const ClassQueue& c : cls_) sum += c.bytes;
  return sum;
}

int64_t EgressPort::held_bytes() const {
  int64_t sum = total_queued_bytes();
  for (size_t i = 0; i < control_.size(); ++i) sum += control_[i]->size.count();
  for (size_t i = 0; i < flight_.size(); ++i) sum += flight_[i].pkt()->size.count();
  return sum;
}

size_t EgressPort::held_packets() const {
  size_t n = control_.size() + flight_.size();
  for (const ClassQueue& c : cls_) n += c.q.size();
  return n;
}

void EgressPort::enqueue(Packet& p) {
  if (!up_) {
    ++counters_.dropped[p.tc];
    net_.drop(p, DropReason::kLinkDown, owner_);  // releases p
    return;
  }
  ClassQueue& c = cls_[p.tc];
  c.bytes += p.size.count();
  if (c.bytes > c.peak_bytes) c.peak_bytes = c.bytes;
  // Nothing queued, the wire free and no end of transmission pending: the
  // frame is the one pick() would choose, so it starts without passing
  // through the ring (a cold line on a large fabric), leaving the scheduler
  // as pick() would: a DWRR class takes the turn with a fresh quantum that
  // its emptying queue then forfeits.
  if (!queued() && !busy() && !paused(p.tc)) {
    if (((strict_mask_ >> p.tc) & 1) == 0) {
      dwrr_next_ = p.tc;
      dwrr_fresh_ = false;
    }
    start_tx(QueuedFrame::of(p), false);
    return;
  }
  c.q.push_back(QueuedFrame::of(p));
  nonempty_ |= 1u << p.tc;
  service();
}

void EgressPort::enqueue_control(Packet& p) {
  if (!up_) {
    net_.drop(p, DropReason::kLinkDown, owner_);
    return;
  }
  control_.push_back(&p);
  service();
}

void EgressPort::service() {
  if (tx_armed_) return;  // the end of the transmission picks the next frame
  if (sim_.now() < busy_until_) {
    if (queued()) arm_tx_done();
    return;
  }
  try_send();
}

// The wire is free (busy_until_ has passed) and no transmission-done event is pending.
void EgressPort::try_send() {
  if (!up_) return;
  bool control = false;
  QueuedFrame f;
  if (pick(f, control)) start_tx(f, control);
}

bool EgressPort::pick(QueuedFrame& f, bool& control) {
  control = !control_.empty();
  if (control) {
    f = QueuedFrame::of(*control_.pop_front());
    return true;
  }
  // Strict classes, highest first; class masks keep idle classes free.
  for (unsigned ready = nonempty_ & strict_mask_; ready != 0;) {
    const int tc = 31 - __builtin_clz(ready);
    if (!paused(tc)) {
      f = pop_class(tc);
      return true;
    }
    ready &= ~(1u << tc);
  }
  const int tc = pick_dwrr();
  if (tc < 0) return false;
  f = pop_class(tc);
  return true;
}

QueuedFrame EgressPort::pop_class(int tc) {
  const QueuedFrame f = cls_[tc].q.pop_front();
  if (cls_[tc].q.empty()) {
    nonempty_ &= ~(1u << tc);
    cls_[tc].deficit = 0;  // DRR: an emptied class keeps no credit
  }
  return f;
}

// Deficit round robin over the eligible non-strict classes (Shreedhar &
// Varghese). A class keeps the turn while its deficit covers its head packet;
// a class that is empty or paused loses its turn. The turn jumps straight to
// the next eligible class (a bit scan), so idle classes cost nothing.
int EgressPort::pick_dwrr() {
  unsigned eligible = 0;
  for (unsigned c = nonempty_ & ~strict_mask_; c != 0; c &= c - 1) {
    const int tc = __builtin_ctz(c);
    if (!paused(tc)) eligible |= 1u << tc;
  }
  if (eligible == 0) return -1;
  for (;;) {
    const int tc = dwrr_next_;
    if ((eligible >> tc) & 1) {
      if (dwrr_fresh_) {
        cls_[tc].deficit += cls_[tc].quantum;
        dwrr_fresh_ = false;
      }
      const int64_t head = cls_[tc].q.front().size;
      if (cls_[tc].deficit >= head) {
        cls_[tc].deficit -= head;
        return tc;
      }
    }
    // Next eligible class after tc, cyclically: scan the doubled mask above tc.
    const unsigned doubled = (eligible | (eligible << kNumClasses)) >> (tc + 1);
    dwrr_next_ = (tc + 1 + __builtin_ctz(doubled)) % kNumClasses;
    dwrr_fresh_ = true;
  }
}

// A frame counts as control by the queue it came from, not by its kind: a CNP
// that a switch classified into a data class is accounted as data there.
// Reads the packet itself only to capture it: a class queue's entry holds
// what the wire and the owner's accounting need.
void EgressPort::start_tx(const QueuedFrame& f, bool control) {
  Packet& p = *f.pkt;
  const int tc = f.tc;
  // Preamble, SFD and inter-frame gap take the wire too; the frame's last
  // bit is taken to leave when they are done (the 12 B of gap after it are
  // counted before it: 0.96 ns early at 100G). Set first: the owner's
  // dequeue hook below may enqueue again, and must find the wire taken.
  busy_until_ = sim_.now() + serializer_.tx_time(sim::Bytes(f.size) + wire_overhead_);
  // The next frame out is likely control, else the next of this class.
  if (!control_.empty()) {
    next_tx_ = control_.front();
    next_tx_class_ = kNumClasses;
  } else if (!control && !cls_[tc].q.empty()) {
    next_tx_ = &cls_[tc].q.front();
    next_tx_class_ = static_cast<uint8_t>(tc);
  } else {
    next_tx_ = nullptr;
    next_tx_class_ = kNumClasses;
  }
  if (control) {
    ++counters_.control_packets;
  } else {
    cls_[tc].bytes -= f.size;
    XOFF_CHECK(cls_[tc].bytes >= 0, "negative queue bytes");
    ++cls_[tc].tx_packets;
    cls_[tc].tx_bytes += f.size;
    cls_[tc].last_dequeue = sim_.now();
    owner_.on_dequeue(index_, f);
  }
  if (diverted_ && tap_ != nullptr) [[unlikely]]
    tap_->on_transmit(*this, p, sim_.now());
  // The arrival's place in the order is fixed now, by the sender, whether
  // its event is scheduled now (the link was empty) or when the frame ahead
  // of it arrives: so the receiving side can schedule it with the same key
  // when it runs in another process.
  const InFlight wire = in_flight(busy_until_ + delay_, p, sim_.reserve_key(), f.size);
  if (diverted_ && exit_ != nullptr) [[unlikely]] {
    exit_->frame_left(*this, p, wire.arrival, wire.key());
  } else {
    propagate(wire);
  }
  // (The dequeue hook may have armed it already, by queueing behind this frame.)
  if (!tx_armed_ && queued()) arm_tx_done();
}

void EgressPort::on_tx_done() {
  try_send();
  if (!busy()) owner_.on_port_ready(index_);
}

void EgressPort::on_arrive() {
  // Several arrivals can share one instant; deliver all due now, in order.
  while (!flight_.empty() && flight_.front().arrival <= sim_.now()) {
    const InFlight f = flight_.pop_front();
    const RxHint h = peer_.receive_hinted(*f.pkt(), peer_port_);
    if (h.port == nullptr) continue;  // (a PAUSE, a drop: no hint, keep the last)
    peer_hint_[f.slot()] = reinterpret_cast<uintptr_t>(h.port) | static_cast<uintptr_t>(h.tc);
    peer_object_ = h.object;
    peer_state_ = h.state;
    peer_host_ = h.host;
  }
  if (flight_.empty()) {
    next_arrival_ = nullptr;
    return;
  }
  const InFlight& next = flight_.front();
  next_arrival_ = next.pkt();
  next_slot_ = next.slot();
  arrive_timer_.arm_at(next.arrival, next.key());
}

void EgressPort::inject_arrival(Packet& p, sim::Time arrival, sim::EventKey key) {
  // Its transmission started at arrival - delay - serialization.
  const sim::Time start = arrival - delay_ - serializer_.tx_time(p.size + wire_overhead_);
  if (!up_ || last_down_ >= start) {  // as drop_all_in_flight would have
    net_.drop(p, DropReason::kLinkDown, owner_);
    return;
  }
  propagate(in_flight(arrival, p, key, static_cast<int32_t>(p.size.count())));
}

void EgressPort::receive_pause(const Packet& pause) {
  PendingPause pp{sim_.now() + response_delay_, pause.pause_enable, {}};
  for (int tc = 0; tc < kNumClasses; ++tc) pp.quanta[tc] = pause.pause_quanta(tc);
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if ((pp.enable >> tc) & 1) {
      last_pause_rx_[tc] = sim_.now();
      if (pp.quanta[tc] > 0) ++counters_.pause_received[tc];
    }
  }
  pp.enable &= pfc_enabled_;  // counted above, applied only where PFC is on
  if (pp.enable == 0) return;
  if (response_delay_ == sim::Duration::zero()) {
    apply_pause(pp);
    return;
  }
  pending_pauses_.push_back(pp);
  if (!pause_timer_.armed()) pause_timer_.arm_at(pp.apply_at);
}

// One pause quantum is 512 bit times at this port's speed (802.1Qbb 36.1.3.1).
// A refresh while paused extends the expiry; XON ends the pause at once.
void EgressPort::apply_pause(const PendingPause& pp) {
  const sim::Duration quantum = sim::tx_time(sim::Bytes(64), rate_);  // 512 bits
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (!((pp.enable >> tc) & 1)) continue;
    if (pause_open_[tc] && cls_[tc].paused_until <= sim_.now())
      close_pause_interval(tc, cls_[tc].paused_until);
    cls_[tc].paused_until = sim_.now() + quantum * pp.quanta[tc];
    if (pp.quanta[tc] == 0) {
      if (pause_open_[tc]) close_pause_interval(tc, sim_.now());
    } else {
      if (!pause_open_[tc] && !((ignore_pause_ >> tc) & 1)) {
        pause_open_[tc] = true;
        pause_started_[tc] = sim_.now();
      }
      if (!pause_watched_) {
        pause_watched_ = true;
        net_.note_paused(*this);
      }
    }
  }
  arm_resume();
  kick();
}

// After anything that can make a class eligible again (pause over, pause
// ignored, link back up): send if possible, and tell the owner, whose
// transports may be waiting for room in a class that was paused, whether the
// wire is free or busy with another class (no dequeue of that class would
// announce it).
void EgressPort::kick() {
  service();
  owner_.on_port_ready(index_);
}

void EgressPort::close_pause_interval(int tc, sim::Time end) {
  counters_.paused_time[tc] += end - pause_started_[tc];
  pause_open_[tc] = false;
}

void EgressPort::arm_resume() {
  sim::Time next = sim::Time::max();
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (cls_[tc].paused_until > sim_.now() && cls_[tc].paused_until < next)
      next = cls_[tc].paused_until;
  }
  if (next == sim::Time::max()) {
    resume_timer_.cancel();
  } else if (!resume_timer_.armed() || resume_timer_.expiry() != next) {
    resume_timer_.arm_at(next);
  }
}

void EgressPort::handle_event(uint64_t tag) {
  switch (tag) {
    case kTxDone:
      tx_armed_ = false;
      on_tx_done();
      break;
    case kArrive:
      on_arrive();
      break;
    case kApplyPause:
      while (!pending_pauses_.empty() && pending_pauses_.front().apply_at <= sim_.now()) {
        apply_pause(pending_pauses_.pop_front());
      }
      if (!pending_pauses_.empty()) pause_timer_.arm_at(pending_pauses_.front().apply_at);
      break;
    case kResume:
      for (int tc = 0; tc < kNumClasses; ++tc) {
        if (pause_open_[tc] && cls_[tc].paused_until <= sim_.now())
          close_pause_interval(tc, cls_[tc].paused_until);
      }
      arm_resume();
      kick();
      break;
    default:
      XOFF_CHECK(false, "unknown port event");
  }
}

// paused_time counts only pauses in force: an ignored pause is not one.
void EgressPort::set_ignore_pause(int tc, bool ignore) {
  const uint8_t bit = static_cast<uint8_t>(1u << tc);
  if (((ignore_pause_ & bit) != 0) == ignore) return;
  ignore_pause_ = ignore ? ignore_pause_ | bit : ignore_pause_ & ~bit;
  if (ignore && pause_open_[tc])
    close_pause_interval(tc, std::min(sim_.now(), cls_[tc].paused_until));
  if (!ignore && cls_[tc].paused_until > sim_.now()) {
    pause_open_[tc] = true;
    pause_started_[tc] = sim_.now();
  }
  kick();
}

int64_t EgressPort::flush_class(int tc, DropReason why) {
  int64_t bytes = 0;
  cls_[tc].deficit = 0;
  nonempty_ &= ~(1u << tc);
  while (!cls_[tc].q.empty()) {
    const QueuedFrame f = cls_[tc].q.pop_front();
    bytes += f.size;
    cls_[tc].bytes -= f.size;
    XOFF_CHECK(cls_[tc].bytes >= 0, "negative queue bytes");
    ++counters_.dropped[tc];
    owner_.on_discard(index_, f);  // releases buffer accounting; not transmitted
    net_.drop(*f.pkt, why, owner_);
  }
  return bytes;
}

void EgressPort::drop_all_in_flight() {
  while (!flight_.empty()) net_.drop(*flight_.pop_front().pkt(), DropReason::kLinkDown, owner_);
  arrive_timer_.cancel();
  next_arrival_ = nullptr;
  // A frame cut mid-transmission still holds the wire until its last bit
  // would have left (busy_until_ stays).
}

// A link that goes down loses its PFC state, as a real MAC does: pauses in
// force or pending end now (an XON sent meanwhile would have been lost).
void EgressPort::set_link_up(bool up) {
  if (up_ == up) return;
  up_ = up;
  if (up) {
    kick();
    return;
  }
  last_down_ = sim_.now();
  while (!pending_pauses_.empty()) pending_pauses_.pop_front();
  pause_timer_.cancel();
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (pause_open_[tc]) close_pause_interval(tc, std::min(sim_.now(), cls_[tc].paused_until));
    if (cls_[tc].paused_until > sim_.now()) cls_[tc].paused_until = sim_.now();
  }
  resume_timer_.cancel();
  drop_all_in_flight();
  while (!control_.empty()) net_.drop(*control_.pop_front(), DropReason::kLinkDown, owner_);
  for (int tc = 0; tc < kNumClasses; ++tc) flush_class(tc, DropReason::kLinkDown);
}

void EgressPort::finalize_counters() {
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (!pause_open_[tc]) continue;
    close_pause_interval(tc, std::min(sim_.now(), cls_[tc].paused_until));
    if (cls_[tc].paused_until > sim_.now()) {  // still paused: reopen at now
      pause_open_[tc] = true;
      pause_started_[tc] = sim_.now();
    }
  }
}

// Arrival: the packet about to be delivered and the node it goes to.
// Transmission done: the head entry of the class likely served next and
// the class's two lines (or the control frame), and the owner's first line
// (its dequeue hook is a virtual call).
void EgressPort::prefetch(uint64_t tag) const {
  if (tag == kArrive) {
    prefetch_arrival();
  } else if (tag == kTxDone) {
    prefetch_tx();
  }
}

void EgressPort::prefetch_arrival() const {
  __builtin_prefetch(next_arrival_);
  if (!flight_.empty()) __builtin_prefetch(&flight_.front());
  __builtin_prefetch(&peer_);
}

void EgressPort::prefetch_tx() const {
  __builtin_prefetch(next_tx_);
  __builtin_prefetch(&owner_);
  if (next_tx_class_ < kNumClasses) {
    const char* c = reinterpret_cast<const char*>(&cls_[next_tx_class_]);
    __builtin_prefetch(c);
    __builtin_prefetch(c + 64);
  }
}

// Deep: also the next head of flight_ (read once this one is delivered) and
// where the peer sent the last frame of this link of the same hint slot (its
// egress port and class: a flow's frames follow one another); at a switch,
// also the ingress PG's MMU lines; at a host, its second line, its
// transport's first four and the last frame's flow state.
void EgressPort::prefetch_deep(uint64_t tag) const {
  // (Through the non-virtual helpers, not prefetch(tag): GCC 12 emitted no
  // prefetch for an inlined call of the virtual here, and so from 20277ff
  // to 6bb0b7b a large fabric's ends of transmission went without theirs.
  // Check the disassembly when changing this.)
  if (tag == kTxDone) {
    prefetch_tx();
    return;
  }
  if (tag != kArrive) return;
  prefetch_arrival();
  if (!flight_.empty()) __builtin_prefetch(&flight_[1]);
  const uintptr_t hint = peer_hint_[next_slot_];
  const uintptr_t port_bits = hint & ~uintptr_t{kNumClasses - 1};
  if (port_bits != 0) {
    reinterpret_cast<const EgressPort*>(port_bits)->prefetch_enqueue(
        static_cast<int>(hint & (kNumClasses - 1)));
  }
  if (peer_object_ != nullptr) {  // a host's transport and flow state, or a switch's PG
    const auto obj = reinterpret_cast<uintptr_t>(peer_object_);
    const auto state = reinterpret_cast<uintptr_t>(peer_state_);
    __builtin_prefetch(reinterpret_cast<const char*>(&peer_) + 64);
    __builtin_prefetch(reinterpret_cast<const void*>(obj));
    __builtin_prefetch(reinterpret_cast<const void*>(obj + 64));
    if (!peer_host_) return;
    __builtin_prefetch(reinterpret_cast<const void*>(obj + 128));
    __builtin_prefetch(reinterpret_cast<const void*>(obj + 192));
    if (state != 0) {  // (none when an ACK finished its flow)
      __builtin_prefetch(reinterpret_cast<const void*>(state));
      __builtin_prefetch(reinterpret_cast<const void*>(state + 64));
    }
  }
}

// At a part's turn in a window (Simulator::set_part_turn_hook): the packets
// of every frame due at the peer before the window's end start loading into
// L2, all at once. On this VM a packet's page is rarely in the TLB
// (bench/README.md, thirteenth session), and one prefetch at a time, an event
// ahead, waited for each page walk in turn; issued together, the walks
// overlap.
void EgressPort::prefetch_arrivals(sim::Time end) const {
  const size_t n = flight_.size();
  for (size_t i = 0; i < n; ++i) {
    const InFlight& f = flight_[i];
    if (f.arrival >= end) break;
    __builtin_prefetch(f.pkt(), 0, 2);
  }
}

// The lines enqueue() and start_tx() read first: the hints and hop lines
// (the end of transmission's flag among them), the class's pair.
void EgressPort::prefetch_enqueue(int tc) const {
  const char* base = reinterpret_cast<const char*>(this);
  __builtin_prefetch(base);
  __builtin_prefetch(base + 64);
  __builtin_prefetch(base + 128);
  __builtin_prefetch(&cls_[tc]);
  __builtin_prefetch(reinterpret_cast<const char*>(&cls_[tc]) + 64);
}

const char* EgressPort::event_kind(uint64_t tag) const {
  switch (tag) {
    case kTxDone:
      return "port: transmission done";
    case kArrive:
      return "port: arrival at peer";
    case kApplyPause:
      return "port: PFC pause applied";
    default:
      return "port: PFC pause expired";
  }
}

}  // namespace xoff::models
