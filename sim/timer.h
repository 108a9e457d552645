#pragma once
// A re-armable timer owned by a component as a member (PFC pause expiry, DCQCN
// alpha/rate timers, TCP RTO).
//
// Arming pushes one queue entry and remembers its event id; re-arming or
// cancelling forgets it, so an old entry is skipped when it pops. The entry's
// tag is the timer's kind, so its hash in the fingerprint does not depend on
// how often the timer was re-armed before (nor on which process arms it).
// Cancel and re-arm are O(1) plus one heap push; nothing is scanned or freed.
// When it fires, the owner's handle_event() is called with the timer's `kind`.
// It runs as its owner's stream unless given another (run_as: the arrival of a
// frame is an event of the node it arrives at).
#include <cstdint>

#include "sim/simulator.h"

namespace xoff::sim {

class Timer final : public EventHandler {
 public:
  Timer(Simulator& sim, EventHandler& owner, uint64_t kind)
      : sim_(sim), owner_(owner), kind_(kind) {}

  void arm_at(Time t) {
    prepare(t);
    id_ = sim_.schedule_at(t, *this, kind_, sim_.reserve_key(), &owner_);
  }
  // With a key reserved earlier (Simulator::reserve_key).
  void arm_at(Time t, EventKey key) {
    prepare(t);
    id_ = sim_.schedule_at(t, *this, kind_, key, &owner_);
  }
  void run_as(StreamId s) {
    set_stream(s);
    resolved_ = true;
  }
  void arm_in(Duration d) { arm_at(sim_.now() + d); }
  void cancel() { armed_ = false; }
  bool armed() const { return armed_; }
  Time expiry() const { return expiry_; }

  const char* event_kind(uint64_t) const override {
    if (!live()) return "timer: stale entry (cancelled or re-armed)";
    return owner_.event_kind(kind_);
  }
  // For the next event, not the running one: a stale entry prefetches in vain.
  void prefetch(uint64_t) const override {
    if (armed_) owner_.prefetch(kind_);
  }
  void prefetch_deep(uint64_t) const override {
    if (armed_) owner_.prefetch_deep(kind_);
  }
  void handle_event(uint64_t) override {
    if (!live()) return;  // stale: cancelled or re-armed since
    armed_ = false;
    owner_.handle_event(kind_);
  }

 private:
  bool live() const { return armed_ && sim_.current_event_id() == id_; }
  void prepare(Time t) {
    // At the first arm: the owner has set its stream (in its constructor) by then.
    if (!resolved_) [[unlikely]] {
      if (owner_.observer()) {
        mark_observer();  // an observer's timer observes too
      } else {
        set_stream(owner_.stream());
      }
      resolved_ = true;
    }
    armed_ = true;
    expiry_ = t;
  }

  // 64 bytes, one line where the owner aligns it: the flags first (they fill
  // the base's tail), the 16-byte id last.
  bool armed_ = false;
  bool resolved_ = false;  // stream taken from the owner (or given by run_as)
  Simulator& sim_;
  EventHandler& owner_;
  uint64_t kind_;
  Time expiry_ = Time::zero();
  Simulator::EventId id_ = 0;
};
static_assert(sizeof(Timer) == 64, "a timer is one cache line");

}  // namespace xoff::sim
