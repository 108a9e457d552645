#pragma once
// DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
// SIGCOMM 2015): parameters and the reaction point (RP) rate controller of
// one queue pair.
//
// Reaction point, per the paper (Fig. 5 / §3.1) and the Mellanox firmware
// parameter names in brackets:
//   on a CNP (a cut):  R_T = R_C;  R_C = R_C·max(1 − α/2, min_decrease_factor);
//                      α = (1 − g)·α + g;
//   on a QP's first CNP, before that cut: R_C = R_T = rate_on_first_cnp·R_C;
//                      (R_T = R_C only after a timer increase, optionally);
//                      timer, byte counter and both stage counters reset.
//   every K without a CNP (alpha timer, anchored at the last cut):
//                      α = (1 − g)·α.
//   every T (rate timer, anchored at the last cut) → T_stage += 1, and
//   every B bytes sent (byte counter)              → B_stage += 1, then
//     max(T_stage, B_stage) ≤ F   fast recovery:  R_C = (R_T + R_C)/2
//     min(T_stage, B_stage) > F   hyper increase: R_T += i·R_HAI, i = min − F,
//                                                 R_C = (R_T + R_C)/2
//     otherwise                   additive:       R_T += R_AI, R_C = (R_T + R_C)/2
//   R_C, R_T are clamped to [min_rate, line rate]. So a timer-only recovery
//   (B large) does F halvings of the gap to R_T, then additive steps.
//   The DCQCN authors' ns-3 model (ns3-rdma, QbbNetDevice::rpr_*) leaves fast
//   recovery when a stage reaches F, so it does F - 1 halvings and its hyper
//   increase adds (min - F + 1) R_HAI: xoff with F - 1 is that model step for
//   step (test FastRecoveryStagesFourIsTheAuthorsModelWithFive). Its hyper
//   stage also halves T and B, and it divides R_T by 8 on a first stage when
//   R_T > 10 R_C (never with clamp_target_always); xoff does neither. What the
//   stage numbering does to a bottleneck's queue is measured in
//   models/nic/dcqcn_fluid.h: nothing that matters.
//
// Timers are evaluated lazily: the state at time t is obtained by replaying
// the timer expiries up to t (advance()), which is exact because they are
// periodic from the last cut. So DCQCN schedules no events of its own; the NIC
// re-reads R_C at each send, and wakes a QP that waits for its pacing time at
// next_change() so that an increase shortens the wait.
//
// Cuts closer than `min_cut_interval` (Mellanox rate_reduce_monitor_period)
// are coalesced: the CNP is remembered and one cut happens when the interval
// since the previous cut has passed.
//
// Invariants: min_rate ≤ R_C ≤ R_T ≤ line rate (R_T may exceed R_C only),
// 0 ≤ α ≤ 1. Units: rates bit/s (integer), times ps, bytes; α and g are
// dimensionless doubles.
#include <cstdint>

#include "sim/units.h"

namespace xoff::models {

struct DcqcnParams {
  bool enabled = true;         // false: the QP always sends at line rate
  double g = 1.0 / 256;        // α gain
  double initial_alpha = 1.0;  // α used by the first cut
  sim::Duration alpha_period;  // K: α decays once per K without a CNP
  sim::Duration rate_timer;    // T: rate-increase timer period
  // B: bytes per byte-counter stage. 0: no byte counter, the timer alone
  // drives increases, staged as the HPCC simulator's Mellanox model
  // (RateIncEventMlx) does: F fast-recovery steps, then one additive
  // increase, then hyper increases.
  sim::Bytes byte_counter;
  int fast_recovery_stages = 5;  // F
  sim::BitsPerSecond rate_ai;    // R_AI: additive increase step of R_T
  sim::BitsPerSecond rate_hai;   // R_HAI: hyper increase step of R_T
  // true: the i-th hyper increase adds i x R_HAI (i = min(T, BC) - F, the
  // DCQCN paper / QCN); false: each adds R_HAI (the HPCC simulator's model).
  bool hyper_linear = true;
  sim::BitsPerSecond min_rate;     // lower clamp of R_C
  sim::Duration min_cut_interval;  // 0: cut on every CNP
  // true: every cut sets R_T = R_C (the paper, QCN). false: only a cut after a
  // timer-driven increase does (Mellanox clamp_tgt_rate = 0 with
  // clamp_tgt_rate_after_time_inc = 1; the HPCC ns-3 model's ClampTargetRate
  // = false), so back-to-back cuts keep the old target and recover fast.
  bool clamp_target_always = true;
  sim::Duration cnp_interval;  // NP: at most one CNP per QP per interval (N)
  // The first CNP of a QP first sets R_C = R_T = rate_on_first_cnp x R_C
  // (Mellanox rate_to_set_on_first_cnp, a rate limiter allocated at that
  // rate; the HPCC ns-3 model's RateOnFirstCnp, 1 there), then cuts as usual.
  double rate_on_first_cnp = 1.0;
  // true (with min_cut_interval > 0): the first CNP sets the limiter and α
  // but cuts only min_cut_interval later, with α decayed meanwhile, as the
  // HPCC simulator's Mellanox model does (its first rate-decrease check);
  // false: the first CNP cuts at once.
  bool first_cut_waits = false;
  // false: α and the cut coalescing are anchored at each cut (the paper: a
  // cut raises α once, α decays once per K since the last cut; a CNP within
  // min_cut_interval of the last cut waits for its end). true: both run on
  // fixed clocks started by the QP's first CNP, as Mellanox firmware and the
  // HPCC simulator's RdmaHw (UpdateAlphaMlx, CheckRateDecreaseMlx) do: every
  // alpha_period α = (1 - g)α + g if a CNP came since the last tick, else
  // (1 - g)α; every min_cut_interval a decrease check cuts if a CNP came since
  // the last check (the first check one interval after the first CNP, which
  // sets the limiter as first_cut_waits does). A cut then leaves α alone.
  bool periodic_clocks = false;
  // A cut multiplies R_C by max(1 - alpha/2, min_decrease_factor) (Mellanox
  // rpg_min_dec_fac, in percent there: the rate keeps at least this share).
  // At the default 0.5 it never binds, since alpha <= 1.
  double min_decrease_factor = 0.5;

  // The paper's evaluation values: g = 1/256, K = 55 us, T = 55 us,
  // B = 10 MB, F = 5, R_AI = 40 Mb/s, N = 50 us. R_HAI = 100 Mb/s and
  // min_rate = 100 Mb/s (the HPCC ns-3 DCQCN model's MinRate) are our
  // choices where the paper gives none.
  static DcqcnParams paper();
  // ConnectX-4+ firmware defaults. From NVIDIA's "DCQCN CC Parameters" (DOCA
  // documentation) and Mellanox community DOC-2790: dce_tcp_g = 1019, read as
  // (1 − g)·1024 → g = 5/1024; dce_tcp_rtt = 1 us (K); initial_alpha_value =
  // 1023/1024; rate_reduce_monitor_period = 4 us; rpg_min_rate = 1 Mb/s.
  // Recalled long-standing defaults, not re-checked against that page (the
  // HPCC ns-3 model uses the same RateAI 5 Mb/s, RateHAI 50 Mb/s):
  // rpg_time_reset = 300 us (T); rpg_byte_reset = 32767 B (B); rpg_threshold
  // = 1 (F); rpg_ai_rate = 5 Mb/s; rpg_hai_rate = 50 Mb/s;
  // min_time_between_cnps = 4 us (N); clamp_tgt_rate = 0 with
  // clamp_tgt_rate_after_time_inc = 1. Check them against your firmware.
  // The firmware runs α and the decrease checks on timers; this profile keeps
  // the per-cut clocks (its results predate periodic_clocks): set
  // `clocks = "periodic"` to follow the firmware there too.
  // Note: with the paper's RED (Kmax 200 KB, marking at enqueue) this profile
  // oscillates: CNPs every 4 us during the queueing delay drive R_C to the
  // minimum, then one timer step restores it (see roce_dcqcn_switch_test).
  static DcqcnParams nic_like();
};

// Plain, printable state of one QP's reaction point.
struct DcqcnState {
  sim::BitsPerSecond current;  // R_C: the rate the QP is paced at
  sim::BitsPerSecond target;   // R_T
  double alpha = 1.0;          // α at `alpha_anchor`
  sim::Time alpha_anchor;      // time α was last set (the last cut, or α tick)
  sim::Time timer_anchor;      // start of the rate timer (the last cut)
  int64_t timer_expiries = 0;  // rate-timer expiries applied since the anchor
  int t_stage = 0;             // T_stage
  int b_stage = 0;             // B_stage
  sim::Bytes byte_acc;         // bytes sent since the last byte stage
  sim::Time last_cut;
  bool increasing = false;   // below line rate: timers run
  bool cut_pending = false;  // a CNP waits for min_cut_interval
  bool ever_cut = false;
  bool first_pending = false;   // first_cut_waits: the first CNP came, its cut not yet
  bool cnp_since_tick = false;  // periodic_clocks: a CNP came since the last α tick
  sim::Time cut_due;            // when the pending cut happens (cut_pending)
  int64_t cuts = 0;
  int64_t cnps = 0;
};

class DcqcnRateControl {
 public:
  DcqcnRateControl() = default;
  // Refers to `p`, which must outlive it (a NIC's configuration: one copy for
  // all its QPs, not one per QP in the line a send reads).
  DcqcnRateControl(const DcqcnParams& p, sim::BitsPerSecond line_rate);
  DcqcnRateControl(DcqcnParams&&, sim::BitsPerSecond) = delete;

  // A CNP for this QP arrived at `now`.
  void on_cnp(sim::Time now);
  // `b` bytes (on the wire) were sent at `now`: drives the byte counter.
  void on_bytes_sent(sim::Time now, sim::Bytes b);
  // Applies every timer expiry and pending cut due at or before `now`.
  void advance(sim::Time now);

  // When R_C may next change without a CNP or a send: the next rate-timer
  // expiry or coalesced cut, or Time::max(). A QP waiting for its pacing time
  // re-reads its rate then, as a hardware rate limiter would.
  sim::Time next_change() const;
  // R_C as of the last advance() / on_*() call.
  sim::BitsPerSecond rate() const { return s_.current; }
  sim::BitsPerSecond target() const { return s_.target; }
  // α at `now`: decayed for the alpha periods elapsed since the last cut (or,
  // with periodic clocks, ticked to `now`).
  double alpha_at(sim::Time now) const;
  const DcqcnState& state() const { return s_; }
  sim::BitsPerSecond line_rate() const { return line_; }

 private:
  void cut(sim::Time at);
  void on_cnp_periodic(sim::Time now);
  void start_limiter(sim::Time now);  // the first CNP's limiter, its cut waiting
  void set_first_cnp_rate();
  void tick_alpha(sim::Time now);  // periodic_clocks: applies the α ticks due by `now`
  void increase_event();
  void clamp();
  sim::Time next_timer_expiry() const;

  const DcqcnParams* p_ = nullptr;
  sim::BitsPerSecond line_;
  DcqcnState s_;
};

}  // namespace xoff::models
