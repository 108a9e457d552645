#pragma once
// What a scenario will need, before anything is built: an estimate of the
// memory, from the sizes measured in bench/README.md ("Scale"): about 100 KB
// per host for the fabric (ports, queues, switch state), about 1 KB per
// planned flow (its specification, its results row and its endpoints' state
// while it runs), 16 B per sample of every probe series. Good to a factor of
// two; a scenario over the limit is refused up front with the figures
// (`xoff run --max-memory`), rather than dying from the out-of-memory killer.
#include <cstdint>

#include "app/scenario/scenario.h"

namespace xoff::app {

struct MemoryEstimate {
  uint64_t hosts = 0;
  uint64_t flows = 0;    // planned: explicit, generated and collective steps
                         // (those the duration can reach at the ideal's rate)
  uint64_t samples = 0;  // probe series points
  uint64_t bytes = 0;
};
MemoryEstimate estimate_memory(const ScenarioConfig& cfg);

// A share (80 %) of this machine's physical memory, from /proc/meminfo; 0
// when it cannot be read.
uint64_t default_memory_limit();

}  // namespace xoff::app
