#pragma once
// A re-armable timer owned by a component as a member (PFC pause expiry, DCQCN
// alpha/rate timers, TCP RTO).
//
// Arming pushes one queue entry tagged with a generation number; re-arming or
// cancelling bumps the generation, so the old entry is skipped when it pops.
// Cancel and re-arm are O(1) plus one heap push; nothing is scanned or freed.
// When it fires, the owner's handle_event() is called with the timer's `kind`.
#include <cstdint>

#include "sim/simulator.h"

namespace xoff::sim {

class Timer final : public EventHandler {
 public:
  Timer(Simulator& sim, EventHandler& owner, uint64_t kind)
      : sim_(sim), owner_(owner), kind_(kind) {}

  void arm_at(Time t) {
    if (owner_.observer()) mark_observer();  // an observer's timer observes too
    ++gen_;
    armed_ = true;
    expiry_ = t;
    sim_.schedule_at(t, *this, gen_);
  }
  void arm_in(Duration d) { arm_at(sim_.now() + d); }
  void cancel() {
    ++gen_;
    armed_ = false;
  }
  bool armed() const { return armed_; }
  Time expiry() const { return expiry_; }

  const char* event_kind(uint64_t gen) const override {
    if (!armed_ || gen != gen_) return "timer: stale entry (cancelled or re-armed)";
    return owner_.event_kind(kind_);
  }
  void prefetch(uint64_t gen) const override {
    if (armed_ && gen == gen_) owner_.prefetch(kind_);
  }
  void handle_event(uint64_t gen) override {
    if (!armed_ || gen != gen_) return;  // stale: cancelled or re-armed since
    armed_ = false;
    owner_.handle_event(kind_);
  }

 private:
  Simulator& sim_;
  EventHandler& owner_;
  uint64_t kind_;
  uint64_t gen_ = 0;
  Time expiry_ = Time::zero();
  bool armed_ = false;
};

}  // namespace xoff::sim
