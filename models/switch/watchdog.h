#pragma once
// PFC watchdog of one switch (SONiC pfcwd; Arista and Cisco "PFC watchdog"):
// contains PFC storms, e.g. a faulty NIC that sends XOFF forever.
//
// Every poll_interval (polls at this switch's phase + multiples of it: see
// WatchdogConfig::random_phase) each lossless egress
// queue is examined. A queue that is paused by received PFC (regardless of any
// override), holds packets and has not dequeued since it was first seen so, for
// at least detection_time, is declared *stormed* (detection is therefore
// detection_time late by at most one poll interval). Actions while stormed:
//   drop    - flush the queue (DropReason::kWatchdog), drop its arrivals, and
//             ignore PAUSE for the class;
//   forward - ignore PAUSE for the class (transmit regardless);
//   alert   - record only.
// A stormed queue is *restored* (the action undone) at the first poll at which
// no PAUSE for the class has been received on that port for restoration_time.
// Every transition goes to Recorder::watchdog_event.
//
// Polling runs only while there is something to watch (a recent or current
// pause, or a stormed queue) and is restarted by the next PAUSE received, so an
// idle watchdog does not keep the simulator alive.
#include <cstdint>
#include <vector>

#include "models/core/network.h"
#include "models/switch/switch_config.h"
#include "sim/log.h"
#include "sim/timer.h"

namespace xoff::models {

class PfcWatchdog final : public sim::EventHandler {
 public:
  // `lossless_mask`: bit c set when class c is lossless (the queues watched).
  // `seed`: the run's (SwitchConfig::seed), for a random phase.
  PfcWatchdog(Network& net, Node& sw, const WatchdogConfig& cfg, uint8_t lossless_mask,
              uint64_t seed);

  void add_port();
  // A PAUSE frame arrived at the switch: starts polling if idle.
  void on_pause_received();
  // Arrivals for queue (port, tc) must be dropped (drop action, stormed).
  bool dropping(PortIndex port, int tc) const {
    // (The count first: it shares a line with drop_'s pointer, and spares
    // every packet a read of the array while no queue drops, as almost always.)
    return dropping_ != 0 && drop_[port.value() * kNumClasses + tc] != 0;
  }
  bool stormed(PortIndex port, int tc) const {
    return watch_[port.value() * kNumClasses + tc].stormed;
  }
  int64_t storms() const { return storms_; }
  int64_t restorations() const { return restorations_; }
  const WatchdogConfig& config() const { return cfg_; }
  sim::Duration phase() const { return phase_; }

  void handle_event(uint64_t tag) override;  // a poll
  const char* event_kind(uint64_t) const override { return "switch: PFC watchdog poll"; }

 private:
  struct QueueWatch {
    sim::Time stuck_since = sim::Time::max();  // max: not seen stuck
    bool stormed = false;
  };
  bool poll_queue(EgressPort& port, int tc, QueueWatch& w);
  void storm(EgressPort& port, int tc, QueueWatch& w);
  void restore(EgressPort& port, int tc, QueueWatch& w);
  void record(const EgressPort& port, int tc, const char* state);
  void arm_next_poll();

  Network& net_;
  Node& sw_;
  WatchdogConfig cfg_;
  uint8_t lossless_mask_;
  std::vector<QueueWatch> watch_;  // [port * 8 + tc]
  uint32_t dropping_ = 0;          // queues marked in drop_
  std::vector<uint8_t> drop_;      // [port * 8 + tc], read per packet
  sim::Timer poll_timer_;
  sim::Duration phase_;  // polls at phase_ + k x poll_interval
  int64_t storms_ = 0;
  int64_t restorations_ = 0;
  std::shared_ptr<spdlog::logger> log_;
};

}  // namespace xoff::models
