#pragma once
// DCQCN without packets, to tell what in a packet-level run is the control
// law and what is the noise of discrete, random feedback.
//
// Fluid model: Zhu et al., "ECN or Delay: Lessons Learnt from Analysis of
// DCQCN and TIMELY" (CoNEXT 2016), eqs. (1)-(5). N identical flows share one
// bottleneck of capacity C behind a RED marker (p = 0 up to Kmin, linear to
// Pmax at Kmax, 1 above), feedback delayed by tau*:
//   dq/dt   = N R_C - C
//   da/dt   = g/K (1 - (1-p')^(K R_C') - a)
//   dR_T/dt = -(R_T - R_C)/N_cnp (1 - (1-p')^(N_cnp R_C'))
//             + R_AI R_C' p' ((1-p')^(F B) / ((1-p')^-B - 1)
//                            + (1-p')^(F T R_C') / ((1-p')^(-T R_C') - 1))
//   dR_C/dt = -R_C a/(2 N_cnp) (1 - (1-p')^(N_cnp R_C'))
//             + (R_T - R_C)/2 R_C' p' (1/((1-p')^-B - 1) + 1/((1-p')^(-T R_C') - 1))
// with rates in packets/s, B in packets, x' = x(t - tau*), N_cnp the CNP
// interval, K the alpha period, T the rate timer. Hyper increase is not in the
// model. Integrated by forward Euler with a step of `step`.
//
// Hybrid: the same fluid queue and RED, but each flow is the packet model's
// own reaction point (DcqcnRateControl, every rule of models/nic/dcqcn.h):
// each flow emits whole packets at its R_C, each packet is marked with the
// RED probability of the queue it joins (a seeded Bernoulli draw), the
// notification point sends a CNP for a marked packet unless it sent one less
// than N_cnp ago, and the CNP cuts the rate tau* after the mark. So its only
// differences from the fluid model are discrete cuts and random marks (and
// hyper increase, which the fluid model leaves out).
//
// Units: sim units at the interface; doubles inside (bits, seconds).
#include <cstdint>

#include "models/nic/dcqcn.h"
#include "sim/units.h"

namespace xoff::models {

struct DcqcnFluidSetup {
  int flows = 2;
  sim::BitsPerSecond capacity{40'000'000'000};
  sim::Bytes packet{1082};  // on the wire: 1000 B payload + 62 B headers + 20 B
  sim::Bytes kmin{5'000};
  sim::Bytes kmax{200'000};
  double pmax = 0.01;
  sim::Duration feedback_delay = sim::Duration::us(4);  // tau*
  DcqcnParams dcqcn = DcqcnParams::paper();
};

// The fixed point of the fluid model: R_C = C/N and the marking probability
// p* that balances cuts and increases (found by bisection on p, from the
// three equations set to zero), with the queue that RED maps to it.
struct DcqcnFixedPoint {
  double p = 0;
  double queue_bytes = 0;
  double target_bps = 0;  // R_T*
  double alpha = 0;
};
DcqcnFixedPoint dcqcn_fixed_point(const DcqcnFluidSetup& s);

// Bottleneck queue and flow-0 rate over [skip, run): mean, population
// standard deviation, extremes.
struct DcqcnTrace {
  double queue_mean = 0;
  double queue_stddev = 0;
  double queue_min = 0;
  double queue_max = 0;
  double rate_mean_bps = 0;
  double rate_stddev_bps = 0;
  int64_t cuts = 0;  // CNPs that reached a reaction point (hybrid only)
};
DcqcnTrace dcqcn_fluid(const DcqcnFluidSetup& s, sim::Duration run, sim::Duration skip,
                       sim::Duration step = sim::Duration::ns(100));
DcqcnTrace dcqcn_hybrid(const DcqcnFluidSetup& s, sim::Duration run, sim::Duration skip,
                        uint64_t seed, sim::Duration step = sim::Duration::ns(100));

}  // namespace xoff::models
