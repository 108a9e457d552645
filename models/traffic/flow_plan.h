#pragma once
// A flow as the traffic layer plans it: the FlowSpec the transport sees, plus
// when it may start relative to other flows, plus its ideal FCT.
//
// Generators return batches (std::vector<FlowPlan>) whose `after` lists are
// *batch-relative* indices; TrafficManager::add_batch() turns them into flow
// ids. A flow may only wait on flows planned before it (lower index), so every
// batch is a DAG in topological order by construction.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/core/flow.h"
#include "sim/units.h"

namespace xoff::models {

// Traffic refused at build time by the manager or a generator (bad host, zero
// size, unknown dependency, impossible generator spec). The app adds the
// scenario position to the message.
class TrafficError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What every flow of a generator carries: transport and class markings.
struct FlowClass {
  Protocol protocol = Protocol::kRoce;
  uint8_t tc = 0;    // host egress class
  uint8_t dscp = 0;  // switches classify on it (trust DSCP)
  uint8_t pcp = 0;   // 802.1p priority (trust PCP)
};

struct FlowPlan {
  FlowSpec spec;                // spec.id is assigned when added
  std::vector<uint32_t> after;  // starts when all of these have finished ...
  sim::Duration gap;            // ... plus this gap (and never before spec.start)
  sim::Duration ideal_fct;      // zero: TrafficManager's ideal-FCT function decides
};

// Fills the class fields of `spec` from `cls`.
inline void apply_class(FlowSpec& spec, const FlowClass& cls) {
  spec.protocol = cls.protocol;
  spec.tc = cls.tc;
  spec.dscp = cls.dscp;
  spec.pcp = cls.pcp;
}

// Ideal FCT of `size` on a path whose slowest link runs at `bottleneck` with
// one-way base delay `base`: serialization of the payload plus the delay.
inline sim::Duration ideal_fct(sim::Bytes size, sim::BitsPerSecond bottleneck, sim::Duration base) {
  return sim::tx_time(size, bottleneck) + base;
}

}  // namespace xoff::models
