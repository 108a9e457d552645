#pragma once
// ECN marking of one switch: WRED-style, per egress queue (traffic class), on the
// instantaneous queue length q in bytes (DCQCN's RED, Zhu et al. SIGCOMM 2015,
// parameters Kmin, Kmax, Pmax; RFC 3168 for the CE codepoint):
//   p(q) = 0                                 q <= Kmin
//        = Pmax x (q - Kmin) / (Kmax - Kmin)  Kmin < q <= Kmax
//        = 1                                  q > Kmax
// Only ECN-capable (ECT) packets are marked (Packet::ce set). The queue is judged
// at enqueue (bytes already queued, excluding the arriving packet) or at dequeue
// (bytes left behind), per EcnConfig::mark_at_dequeue.
//
// Randomness: one stream per switch, sim::Rng(seed, "<switch name>/ecn"); a draw
// is taken only when 0 < p < 1, so a queue below Kmin or above Kmax consumes none.
#include <cstdint>
#include <string_view>

#include "models/switch/switch_config.h"
#include "sim/rng.h"

namespace xoff::models {

class EcnMarker {
 public:
  EcnMarker(const EcnConfig& cfg, uint64_t seed, std::string_view switch_name);

  // `host`: the egress port faces a host (EcnConfig::host_tc when host_ports).
  double probability(int tc, int64_t queue_bytes, bool host = false) const;
  // Decides whether a packet of class tc seeing queue_bytes is marked.
  bool decide(int tc, int64_t queue_bytes, bool host = false);
  bool at_dequeue() const { return cfg_.mark_at_dequeue; }
  const EcnConfig& config() const { return cfg_; }

 private:
  EcnConfig cfg_;
  sim::Rng rng_;
};

}  // namespace xoff::models
