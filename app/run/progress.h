#pragma once
// Progress display for long runs on a terminal: sim time, events/s, ETA and
// flows finished, rewritten in place on stderr at most ~4 times a second.
// Reads the wall clock (app only; models never do) and prints nothing when
// stderr is not a terminal or --quiet was given.
#include <chrono>
#include <cstdint>

#include "sim/units.h"

namespace xoff::app {

class Progress {
 public:
  Progress(bool enabled, sim::Duration total);
  void update(sim::Time now, uint64_t events, uint64_t flows_done, uint64_t flows_total);
  void finish();
  double elapsed_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  sim::Duration total_;
  Clock::time_point start_;
  Clock::time_point last_print_;
  bool printed_ = false;
};

}  // namespace xoff::app
