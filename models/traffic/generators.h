#pragma once
// Traffic generators: pure functions from a plain spec (and a seed) to a batch
// of planned flows, to be added with TrafficManager::add_batch(). Randomness
// comes from sim::Rng(seed, "traffic/<spec.name>"), so two generators with
// different names draw independently and adding one does not change another.
//
// Flow names are "<name>/<detail>" (e.g. "incast/w1/s3", "perm/4-9").
// Hosts are ordinals; sizes bytes; rates bits per second.
#include <cstdint>
#include <string>
#include <vector>

#include "models/traffic/cdf.h"
#include "models/traffic/flow_plan.h"

namespace xoff::models {

// The given specs as they are (no dependencies).
std::vector<FlowPlan> explicit_flows(const std::vector<FlowSpec>& specs);

// Each host sends `size` to a distinct other host: a uniformly random
// derangement of `hosts` (Fisher-Yates shuffles, redrawn while any host maps
// to itself; expected e ~ 2.7 draws). Needs at least 2 hosts.
struct PermutationSpec {
  std::string name = "perm";
  std::vector<uint32_t> hosts;
  sim::Bytes size;
  sim::Time start;
  FlowClass cls;
};
std::vector<FlowPlan> permutation_flows(const PermutationSpec& spec, uint64_t seed);

// Every sender sends `size` to `receiver`, in `waves` rounds: every flow of
// wave k waits on every flow of wave k-1, plus `wave_gap`.
struct IncastSpec {
  std::string name = "incast";
  std::vector<uint32_t> senders;
  uint32_t receiver = 0;
  sim::Bytes size;
  sim::Time start;
  uint32_t waves = 1;
  sim::Duration wave_gap;
  FlowClass cls;
};
std::vector<FlowPlan> incast_flows(const IncastSpec& spec);

// Every ordered pair (a, b), a != b, of `hosts` sends `size`, all at `start`.
struct AllToAllSpec {
  std::string name = "a2a";
  std::vector<uint32_t> hosts;
  sim::Bytes size;
  sim::Time start;
  FlowClass cls;
};
std::vector<FlowPlan> all_to_all_flows(const AllToAllSpec& spec);

// Poisson arrivals at `load` of each host's link: per host, flows arrive at
// lambda = load * host_rate / (8 * cdf mean) per second. The H per-host
// processes are generated as their superposition (rate H * lambda, exponential
// inter-arrivals, source uniform among `hosts`), destination uniform among the
// other hosts, size drawn from `cdf`. Arrivals stop at `stop` or after
// `max_flows` flows (0: no limit), whichever comes first; one must be set.
struct PoissonSpec {
  std::string name = "poisson";
  std::vector<uint32_t> hosts;
  double load = 0.0;  // fraction of host_rate, in (0, 1]
  sim::BitsPerSecond host_rate;
  const FlowSizeCdf* cdf = nullptr;  // required; outlives the call only
  sim::Time start;
  sim::Time stop = sim::Time::max();
  uint64_t max_flows = 0;
  FlowClass cls;
};
std::vector<FlowPlan> poisson_flows(const PoissonSpec& spec, uint64_t seed);

// TCP background traffic: poisson_flows with protocol TCP (and the class in spec.cls).
std::vector<FlowPlan> tcp_background_flows(PoissonSpec spec, uint64_t seed);

}  // namespace xoff::models
