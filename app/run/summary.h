#pragma once
// The terminal summary of a run: what the user came to see, first. Deadlock
// yes/no and where, AllReduce time against its ideal bound, FCT percentiles,
// TCP request latency, pauses, ECN marks, drops by reason (lossless violations
// first), watchdog actions; then the run's own numbers.
#include <cstdio>

#include "app/run/runner.h"
#include "app/run/world.h"

namespace xoff::app {

// Fills the outcome's headline numbers from the finished world.
void fill_outcome(World& w, RunOutcome& out);
void print_summary(std::FILE* f, World& w, const RunOutcome& out);
// `xoff run --stats`: events per kind (count, share of all events), the
// simulator's speed, and what one packet-hop costs in events (the runner
// adds the windows, the peak memory and the packet pool's peak).
void print_event_profile(std::FILE* f, const sim::Simulator& sim, double wall_seconds);

}  // namespace xoff::app
