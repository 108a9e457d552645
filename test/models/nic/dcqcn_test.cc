// The DCQCN reaction point as a pure state machine, driven with explicit times.
#include "models/nic/dcqcn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace xoff::models {
namespace {
using namespace sim::literals;

constexpr int64_t kG = 1'000'000'000;  // 1 Gb/s in bit/s
const sim::BitsPerSecond kLine = 100_Gbps;

sim::Time at(sim::Duration d) { return sim::Time::zero() + d; }

TEST(DcqcnRateControl, StartsAtLineRateWithInitialAlpha) {
  const DcqcnParams paper = DcqcnParams::paper();
  DcqcnRateControl cc(paper, kLine);
  EXPECT_EQ(cc.rate(), kLine);
  EXPECT_EQ(cc.target(), kLine);
  EXPECT_DOUBLE_EQ(cc.alpha_at(at(1_ms)), 1.0);  // no alpha timer before the first CNP
  cc.advance(at(1_ms));
  EXPECT_EQ(cc.rate(), kLine);
}

TEST(DcqcnRateControl, FirstCnpHalvesRateWhenAlphaIsOne) {
  const DcqcnParams paper = DcqcnParams::paper();
  DcqcnRateControl cc(paper, kLine);
  cc.on_cnp(at(10_us));
  // R_T = 100G; R_C = 100G * (1 - 1/2) = 50G; alpha = (1 - g) * 1 + g = 1.
  EXPECT_EQ(cc.rate().count(), 50 * kG);
  EXPECT_EQ(cc.target().count(), 100 * kG);
  EXPECT_DOUBLE_EQ(cc.alpha_at(at(10_us)), 1.0);
  EXPECT_EQ(cc.state().cuts, 1);
}

TEST(DcqcnRateControl, FastRecoveryHalvesGapToTargetEveryTimerPeriod) {
  const DcqcnParams p = DcqcnParams::paper();  // T = 55 us, B = 10 MB (never reached)
  DcqcnRateControl cc(p, kLine);
  const sim::Time t0 = at(10_us);
  cc.on_cnp(t0);
  const int64_t gap0 = 50 * kG;  // 100G target - 50G current
  for (int k = 1; k <= 5; ++k) {
    cc.advance(t0 + p.rate_timer * k - 1_ps);  // just before the k-th expiry: unchanged
    EXPECT_EQ(cc.target().count() - cc.rate().count(), gap0 >> (k - 1)) << "k=" << k;
    cc.advance(t0 + p.rate_timer * k);
    // gap_k = 50G / 2^k: 25G, 12.5G, 6.25G, 3.125G, 1.5625G.
    EXPECT_EQ(cc.target().count() - cc.rate().count(), gap0 >> k) << "k=" << k;
    EXPECT_EQ(cc.target(), kLine);  // fast recovery leaves R_T alone
  }
}

TEST(DcqcnRateControl, AdditiveIncreaseRaisesTargetByRaiAfterFStages) {
  const DcqcnParams p = DcqcnParams::paper();
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));  // 100G -> 50G, R_T = 100G, alpha stays 1
  const sim::Time t1 = at(1_us);
  cc.on_cnp(t1);  // R_T = 50G, R_C = 25G (alpha 1, not yet decayed: K = 55 us)
  ASSERT_EQ(cc.rate().count(), 25 * kG);
  ASSERT_EQ(cc.target().count(), 50 * kG);
  cc.advance(t1 + p.rate_timer * 5);
  // Five halvings of the 25G gap: 25G / 32 = 781.25 Mb/s below 50G.
  EXPECT_EQ(cc.rate().count(), 50 * kG - 781'250'000);
  cc.advance(t1 + p.rate_timer * 6);
  // Stage 6 > F: R_T = 50G + 40M; R_C = ceil((50.04G + 49.21875G) / 2) = 49.629375G.
  EXPECT_EQ(cc.target().count(), 50'040'000'000);
  EXPECT_EQ(cc.rate().count(), 49'629'375'000);
}

TEST(DcqcnRateControl, HyperIncreaseWhenBothStagesExceedF) {
  DcqcnParams p = DcqcnParams::paper();
  p.fast_recovery_stages = 0;
  p.byte_counter = 10_KB;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  cc.on_cnp(at(1_us));  // R_T = 50G, R_C = 25G; timer restarts at 1 us
  cc.advance(at(56_us));
  // Timer stage 1, byte stage 0: additive. R_T = 50.04G, R_C = (50.04G + 25G) / 2 = 37.52G.
  EXPECT_EQ(cc.target().count(), 50'040'000'000);
  EXPECT_EQ(cc.rate().count(), 37'520'000'000);
  cc.on_bytes_sent(at(57_us), 10_KB);
  // Both stages 1 > F = 0: hyper with i = 1: R_T = 50.04G + 100M = 50.14G;
  // R_C = (50.14G + 37.52G) / 2 = 43.83G.
  EXPECT_EQ(cc.target().count(), 50'140'000'000);
  EXPECT_EQ(cc.rate().count(), 43'830'000'000);
}

// The reaction point of the DCQCN authors' ns-3 model (Zhu, ns3-rdma,
// QbbNetDevice::rpr_*), transcribed as its rules: a timer or byte event first
// bumps its stage counter; in fast recovery, a counter still below F halves
// the gap to R_T, else the state is selected; in additive increase the state
// is selected; selection gives an additive increase while either counter is
// below F, else hyper increase with R_T += (min - F + 1) R_HAI; every step
// then sets R_C = (R_T + R_C) / 2. (Its hyper stage also halves the timer
// period and the byte counter; the events here are given explicitly, so that
// timing difference is left out.)
struct ReferenceRp {
  enum class Stage { kFast, kActive, kHyper } stage = Stage::kFast;
  int f;
  double rai, rhai;
  double target, rate;
  int bytes = 0, time = 0;
  void step(double increase) {
    target = std::min(target + increase, 100e9);
    rate = std::min((target + rate) / 2, 100e9);
  }
  void select() {
    if (bytes < f || time < f) {
      step(rai);
      stage = Stage::kActive;
    } else {
      step(rhai * (std::min(bytes, time) - f + 1));
      stage = Stage::kHyper;
    }
  }
  void event(int& counter) {
    ++counter;
    if (stage == Stage::kFast && counter < f) {
      step(0);
    } else {
      select();
    }
  }
};

// So xoff's F counts fast-recovery steps (F of them, as the paper and QCN
// describe), the reference's F one more: xoff with F = 4 follows the
// reference with F = 5 step for step, through fast recovery, additive and
// hyper increase (i = min - F + 1 there, min - F here). With F = 5 in both,
// xoff recovers one step later.
TEST(DcqcnRateControl, FastRecoveryStagesFourIsTheAuthorsModelWithFive) {
  for (const int xoff_f : {4, 5}) {
    DcqcnParams p = DcqcnParams::paper();
    p.fast_recovery_stages = xoff_f;
    p.byte_counter = 100_KB;
    DcqcnRateControl cc(p, kLine);
    cc.on_cnp(at(0_us));
    const sim::Time t1 = at(1_us);
    cc.on_cnp(t1);  // R_T = 50G, R_C = 25G (alpha 1 at both cuts)
    ReferenceRp ref{.f = 5, .rai = 40e6, .rhai = 100e6, .target = 50e9, .rate = 25e9};
    int differ = 0;
    // Alternately a timer expiry (every 55 us) and 100 KB sent halfway
    // between: both counters reach 12, far into hyper increase.
    for (int k = 1; k <= 12; ++k) {
      cc.advance(t1 + p.rate_timer * k);
      ref.event(ref.time);
      differ += std::abs(static_cast<double>(cc.target().count()) - ref.target) > 8 ||
                std::abs(static_cast<double>(cc.rate().count()) - ref.rate) > 8;
      cc.on_bytes_sent(t1 + p.rate_timer * k + 27_us, 100_KB);
      ref.event(ref.bytes);
      differ += std::abs(static_cast<double>(cc.target().count()) - ref.target) > 8 ||
                std::abs(static_cast<double>(cc.rate().count()) - ref.rate) > 8;
    }
    if (xoff_f == 4) {
      EXPECT_EQ(differ, 0);
      // Into hyper increase: R_T ends above what 12 additive steps give.
      EXPECT_GT(ref.target, 50e9 + 12 * 40e6);
    } else {
      EXPECT_GT(differ, 10);
    }
  }
}

// Without a byte counter (B = 0) the timer alone drives increases, staged as
// the HPCC simulator's RdmaHw::RateIncEventMlx: with F = 1, the first expiry
// is fast recovery, the second an additive increase, then hyper increases;
// hyper_linear = false adds R_HAI each (HPCC), true i x R_HAI (the paper).
TEST(DcqcnRateControl, WithoutAByteCounterTheTimerStagesAsTheHpccModel) {
  DcqcnParams p = DcqcnParams::paper();
  p.byte_counter = sim::Bytes(0);
  p.fast_recovery_stages = 1;
  p.rate_ai = 5_Mbps;
  p.rate_hai = 50_Mbps;
  p.rate_timer = 300_us;
  p.alpha_period = 1_s;  // alpha stays 1: every cut halves
  for (const bool linear : {false, true}) {
    p.hyper_linear = linear;
    DcqcnRateControl cc(p, kLine);
    cc.on_cnp(at(0_us));                     // R_T 100G, R_C 50G
    cc.on_bytes_sent(at(1_us), 100'000_MB);  // no byte counter: nothing happens
    EXPECT_EQ(cc.rate().count(), 50 * kG);
    cc.advance(at(300_us));  // fast recovery: R_C = (50G + 100G) / 2 = 75G
    EXPECT_EQ(cc.rate().count(), 75 * kG);
    EXPECT_EQ(cc.target().count(), 100 * kG);
    cc.on_cnp(at(301_us));  // R_T = 75G (a timer step came), R_C = 37.5G
    ASSERT_EQ(cc.target().count(), 75 * kG);
    cc.advance(at(601_us));  // stage 1 = F: fast recovery, (37.5G + 75G) / 2 = 56.25G
    EXPECT_EQ(cc.rate().count(), 56'250'000'000);
    cc.advance(at(901_us));  // stage 2: additive, R_T = 75.005G, R_C = 65.6275G
    EXPECT_EQ(cc.target().count(), 75'005'000'000);
    EXPECT_EQ(cc.rate().count(), 65'627'500'000);
    cc.advance(at(1201_us));  // stage 3: hyper, i = 1 either way: R_T = 75.055G
    EXPECT_EQ(cc.target().count(), 75'055'000'000);
    cc.advance(at(1501_us));  // stage 4: constant +50M (HPCC), linear i = 2: +100M
    EXPECT_EQ(cc.target().count(), linear ? 75'155'000'000 : 75'105'000'000) << linear;
  }
}

// first_cut_waits (HPCC's first rate-decrease check): the first CNP at 10 us
// sets alpha = 1 and the limiter, and the cut comes 4 us later with alpha
// decayed four periods of 1 us: (255/256)^4 = 0.98444, so R_C = 100G x
// (1 - 0.98444 / 2) = 50.778 Gb/s; a second CNP meanwhile changes nothing.
TEST(DcqcnRateControl, TheFirstCutCanWaitForTheFirstDecreaseCheck) {
  DcqcnParams p = DcqcnParams::paper();
  p.first_cut_waits = true;
  p.min_cut_interval = 4_us;
  p.alpha_period = 1_us;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(10_us));
  EXPECT_EQ(cc.rate(), kLine);
  cc.on_cnp(at(12_us));
  cc.advance(at(14_us) - 1_ps);
  EXPECT_EQ(cc.rate(), kLine);
  EXPECT_EQ(cc.state().cuts, 0);
  cc.advance(at(14_us));
  const double alpha = std::pow(255.0 / 256.0, 4);
  EXPECT_EQ(cc.rate().count(), std::llround(100e9 * (1 - alpha / 2)));
  EXPECT_EQ(cc.target(), kLine);
  EXPECT_EQ(cc.state().cuts, 1);
  EXPECT_DOUBLE_EQ(cc.alpha_at(at(14_us)), (1 - 1.0 / 256) * alpha + 1.0 / 256);
}

TEST(DcqcnRateControl, ByteCounterAloneDrivesFastRecovery) {
  DcqcnParams p = DcqcnParams::paper();
  p.rate_timer = 1_s;  // keep the timer out of the way
  p.byte_counter = 64_KB;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  cc.on_bytes_sent(at(1_us), 63_KB);
  EXPECT_EQ(cc.rate().count(), 50 * kG);  // 63 KB < B: no stage yet
  cc.on_bytes_sent(at(2_us), 1_KB);
  EXPECT_EQ(cc.rate().count(), 75 * kG);         // (100G + 50G) / 2
  cc.on_bytes_sent(at(3_us), 128_KB);            // two more stages at once
  EXPECT_EQ(cc.rate().count(), 93'750'000'000);  // 75 -> 87.5 -> 93.75
  EXPECT_EQ(cc.state().b_stage, 3);
}

TEST(DcqcnRateControl, AlphaDecaysByOneMinusGPerPeriodWithoutCnp) {
  const DcqcnParams p = DcqcnParams::paper();  // g = 1/256, K = 55 us
  DcqcnRateControl cc(p, kLine);
  const sim::Time t0 = at(5_us);
  cc.on_cnp(t0);  // alpha = 1
  for (int n = 1; n <= 40; ++n) {
    const double expect = std::pow(1.0 - 1.0 / 256, n);  // e.g. n = 40: 0.8552
    EXPECT_DOUBLE_EQ(cc.alpha_at(t0 + p.alpha_period * n), expect) << "n=" << n;
    EXPECT_DOUBLE_EQ(cc.alpha_at(t0 + p.alpha_period * n - 1_ps), std::pow(1.0 - 1.0 / 256, n - 1));
  }
}

TEST(DcqcnRateControl, CutUsesDecayedAlphaThenRaisesIt) {
  const DcqcnParams p = DcqcnParams::paper();
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  const sim::Time t = at(550_us);  // 10 alpha periods and 10 rate-timer periods
  cc.advance(t);
  // 5 FR + 5 AI (R_T clamped at 100G) halvings: gap 50G / 2^10 = 48.828125 Mb/s.
  const int64_t rc = cc.rate().count();
  EXPECT_EQ(rc, 100 * kG - 48'828'125);
  const double a = std::pow(1.0 - 1.0 / 256, 10);  // 0.96164
  cc.on_cnp(t);
  EXPECT_EQ(cc.target().count(), rc);
  EXPECT_EQ(cc.rate().count(), std::llround(static_cast<double>(rc) * (1 - a / 2)));
  EXPECT_DOUBLE_EQ(cc.alpha_at(t), (1 - 1.0 / 256) * a + 1.0 / 256);
}

TEST(DcqcnRateControl, RateNeverFallsBelowMinRate) {
  const DcqcnParams p = DcqcnParams::paper();  // min 100 Mb/s
  DcqcnRateControl cc(p, kLine);
  for (int i = 0; i < 20; ++i) cc.on_cnp(at(sim::Duration::us(i)));  // 100G / 2^20 < 100M
  EXPECT_EQ(cc.rate(), p.min_rate);
  EXPECT_GE(cc.target(), cc.rate());
}

TEST(DcqcnRateControl, ReturnsToLineRateAndStopsIncreasing) {
  const DcqcnParams p = DcqcnParams::paper();
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  cc.advance(at(10_ms));  // 181 periods: the 50G gap halves each period, ceil keeps it moving
  EXPECT_EQ(cc.rate(), kLine);
  EXPECT_FALSE(cc.state().increasing);
}

TEST(DcqcnRateControl, CnpsWithinMinCutIntervalCoalesceIntoOneLaterCut) {
  const DcqcnParams p = DcqcnParams::nic_like();  // rate_reduce_monitor_period 4 us
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  const int64_t after_first = cc.rate().count();
  // initial alpha 1023/1024: R_C = 100G * (1 - 1023/2048) = 50.048828125G.
  EXPECT_EQ(after_first, 50'048'828'125);
  cc.on_cnp(at(1_us));
  cc.on_cnp(at(2_us));
  EXPECT_EQ(cc.state().cuts, 1);
  EXPECT_EQ(cc.rate().count(), after_first);
  cc.advance(at(4_us));  // the pending cut happens at 0 + 4 us
  EXPECT_EQ(cc.state().cuts, 2);
  EXPECT_EQ(cc.state().last_cut, at(4_us));
  EXPECT_LT(cc.rate().count(), after_first);
  EXPECT_EQ(cc.state().cnps, 3);
}

TEST(DcqcnRateControl, WithoutClampBackToBackCutsKeepTheTarget) {
  DcqcnParams p = DcqcnParams::paper();
  p.clamp_target_always = false;  // Mellanox clamp_tgt_rate_after_time_inc
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  cc.on_cnp(at(1_us));  // no timer increase in between: R_T stays 100G
  EXPECT_EQ(cc.rate().count(), 25 * kG);
  EXPECT_EQ(cc.target(), kLine);
  cc.advance(at(56_us));  // one fast-recovery step: (100G + 25G) / 2
  EXPECT_EQ(cc.rate().count(), 62'500'000'000);
  cc.on_cnp(at(57_us));  // after a timer increase the cut clamps R_T = R_C
  EXPECT_EQ(cc.target().count(), 62'500'000'000);
}

// Mellanox rate_to_set_on_first_cnp as a share of the rate: the first CNP
// puts the QP's rate limiter at 40G (0.4 x 100G), then cuts it as usual:
// 40G x (1 - 1/2) = 20G, R_T = 40G. A second CNP has no first-CNP step:
// alpha = (1 - 1/256) x 1 + 1/256 = 1 again, 20G x 1/2 = 10G.
TEST(DcqcnRateControl, RateOnFirstCnpSetsTheLimiterBeforeTheFirstCut) {
  DcqcnParams p = DcqcnParams::paper();
  p.rate_on_first_cnp = 0.4;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(10_us));
  EXPECT_EQ(cc.rate().count(), 20 * kG);
  EXPECT_EQ(cc.target().count(), 40 * kG);
  cc.on_cnp(at(11_us));
  EXPECT_EQ(cc.rate().count(), 10 * kG);
}

// Mellanox rpg_min_dec_fac: a cut keeps at least this share of the rate.
// With alpha = 1 the paper cut keeps 1/2; a factor of 0.8 keeps 80G of 100G.
// The default 0.5 never binds (the cut factor 1 - alpha/2 is >= 0.5).
TEST(DcqcnRateControl, MinimumDecreaseFactorBoundsOneCut) {
  DcqcnParams p = DcqcnParams::paper();
  p.min_decrease_factor = 0.8;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(10_us));
  EXPECT_EQ(cc.rate().count(), 80 * kG);
  const DcqcnParams paper = DcqcnParams::paper();
  DcqcnRateControl plain(paper, kLine);
  plain.on_cnp(at(10_us));
  EXPECT_EQ(plain.rate().count(), 50 * kG);
}

TEST(DcqcnRateControl, NextChangeIsTheNextTimerExpiryOrPendingCut) {
  const DcqcnParams p = DcqcnParams::nic_like();  // T = 300 us, cuts 4 us apart
  DcqcnRateControl cc(p, kLine);
  EXPECT_EQ(cc.next_change(), sim::Time::max());  // at line rate: nothing pending
  cc.on_cnp(at(10_us));
  EXPECT_EQ(cc.next_change(), at(310_us));
  cc.on_cnp(at(11_us));  // coalesced: cut due at 14 us
  EXPECT_EQ(cc.next_change(), at(14_us));
}

TEST(DcqcnRateControl, DisabledKeepsLineRate) {
  DcqcnParams p = DcqcnParams::paper();
  p.enabled = false;
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(1_us));
  cc.on_bytes_sent(at(2_us), 1_MB);
  EXPECT_EQ(cc.rate(), kLine);
  EXPECT_EQ(cc.state().cuts, 0);
}

// The HPCC simulator's Mellanox DCQCN (alibaba-edu/High-Precision-Congestion-
// Control, simulation/src/point-to-point/model/rdma-hw.cc: cnp_received_mlx,
// UpdateAlphaMlx, CheckRateDecreaseMlx, RateIncEventTimerMlx and the three
// increases), transcribed as its events with its own times: the first CNP sets
// alpha = 1 and the limiter, starts the alpha clock (every K: alpha = (1 - g)
// alpha + g if a CNP came since the last tick, else (1 - g) alpha) and the
// decrease checks (every I, the first I + 1 ns after it: a CNP since the last
// check cuts R_C by alpha / 2, sets R_T = R_C only after a timer increase, and
// restarts the rate timer T); timer stage s < F is fast recovery, s == F
// additive, then hyper increases of R_HAI each.
struct ReferenceMlx {
  double g, k_us, i_us, t_us, rai, rhai, line, min_rate;
  int f;
  double rate, target, alpha = 1;
  bool first = true, alpha_cnp = false, dec_cnp = false;
  int stage = 0;
  double next_alpha = 1e18, next_check = 1e18, next_timer = 1e18;  // us

  // Runs its own events up to `t` (us), in time order; at equal times alpha
  // ticks before checks (the reference's +1 ns), checks before timer steps.
  void run_to(double t) {
    for (;;) {
      const double e = std::min({next_alpha, next_check, next_timer});
      if (e > t) return;
      if (e == next_alpha) {
        alpha = alpha_cnp ? (1 - g) * alpha + g : (1 - g) * alpha;
        alpha_cnp = false;
        next_alpha += k_us;
      } else if (e == next_check) {
        next_check += i_us;
        if (dec_cnp) {
          if (stage != 0) target = rate;  // ClampTargetRate off
          rate = std::max(min_rate, rate * (1 - alpha / 2));
          stage = 0;
          dec_cnp = false;
          next_timer = e + t_us;
        }
      } else {
        next_timer += t_us;
        if (stage < f) {
          rate = rate / 2 + target / 2;
        } else {
          target = std::min(line, target + (stage == f ? rai : rhai));
          rate = rate / 2 + target / 2;
        }
        ++stage;
      }
    }
  }
  void cnp(double t) {
    run_to(t);
    alpha_cnp = dec_cnp = true;
    if (first) {
      alpha = 1;
      alpha_cnp = false;
      next_alpha = t + k_us;
      next_check = t + i_us + 0.001;
      first = false;  // rate on the first CNP: 1 x the line rate
    }
  }
};

// The periodic-clock tests' parameters: the paper's, with alpha ticks every
// 1 us at g = 1/16 (so a tick moves alpha visibly) and decrease checks every
// `check` (0: a cut per CNP).
DcqcnParams periodic_params(sim::Duration check) {
  DcqcnParams p = DcqcnParams::paper();
  p.periodic_clocks = true;
  p.g = 1.0 / 16;
  p.alpha_period = 1_us;
  p.min_cut_interval = check;
  return p;
}

// With periodic clocks xoff's reaction point follows that reference through
// bursts of CNPs, quiet spells that reach additive and hyper increases, and
// CNPs that fall between checks: R_C, R_T and alpha agree at every sample
// (half-way between the clocks' ticks, so the reference's 1 ns offsets do not
// matter) to 100 bit/s (rounding to whole bit/s) and 1e-12.
TEST(DcqcnRateControl, PeriodicClocksFollowTheHpccSimulatorsMellanoxModel) {
  DcqcnParams p = periodic_params(4_us);
  p.rate_timer = 20_us;
  p.byte_counter = sim::Bytes(0);
  p.fast_recovery_stages = 1;
  p.rate_ai = 1_Gbps;
  p.rate_hai = 2_Gbps;
  p.hyper_linear = false;
  p.clamp_target_always = false;
  p.min_rate = 100_Mbps;
  DcqcnRateControl cc(p, kLine);
  ReferenceMlx ref{.g = 1.0 / 16,
                   .k_us = 1,
                   .i_us = 4,
                   .t_us = 20,
                   .rai = 1e9,
                   .rhai = 2e9,
                   .line = 100e9,
                   .min_rate = 100e6,
                   .f = 1,
                   .rate = 100e9,
                   .target = 100e9};
  // CNP times (us, none within a few ns of a clock tick): a burst, a lone
  // CNP, a long quiet spell, a dense train, then sparse ones.
  std::vector<double> cnps = {10.2, 10.4, 11.7, 13.25, 13.9, 21.3, 33.6};
  for (double t = 150.3; t < 170; t += 0.7) cnps.push_back(t);
  for (const double t : {171.1, 260.45, 262.3, 400.6, 401.2}) cnps.push_back(t);
  size_t next = 0;
  int samples = 0;
  double min_seen = 100e9;
  for (double t = 0.5; t < 600; t += 1.0) {
    while (next < cnps.size() && cnps[next] < t) {
      cc.on_cnp(at(sim::Duration::ps(std::llround(cnps[next] * 1e6))));
      ref.cnp(cnps[next]);
      ++next;
    }
    const sim::Time now = at(sim::Duration::ps(std::llround(t * 1e6)));
    cc.advance(now);
    ref.run_to(t);
    ASSERT_NEAR(static_cast<double>(cc.rate().count()), ref.rate, 100.0) << "t=" << t;
    ASSERT_NEAR(static_cast<double>(cc.target().count()), ref.target, 100.0) << "t=" << t;
    ASSERT_NEAR(cc.alpha_at(now), ref.alpha, 1e-12) << "t=" << t;
    min_seen = std::min(min_seen, ref.rate);
    ++samples;
  }
  EXPECT_EQ(samples, 600);
  // The run went through deep cuts and recovered into hyper increase.
  EXPECT_LT(min_seen, 20e9);
  EXPECT_GT(ref.stage, 3);
}

// The difference the clocks make, by hand: g = 1/16, CNPs at 0, 0.5, 1.5 and
// 2.5 us. Periodic: alpha = 1 at the first CNP; the ticks at 1, 2 and 3 us
// each saw a CNP (at 0.5, 1.5, 2.5), so alpha stays 1 ((1 - g) 1 + g), the
// tick at 4 us saw none: 15/16; the check at 4 us (after that tick) cuts 100G
// by alpha / 2 = 15/32 to 53.125G and leaves alpha alone: (15/16)^2 after the
// tick at 5 us. Per cut (the paper, N = 0): the first CNP cuts at once (alpha
// 1: 50G); the other three fall within min_cut_interval and make one cut at
// 4 us with alpha decayed 4 periods, (15/16)^4 = 0.7725: 50G x (1 - 0.38624)
// = 30.69G, then alpha = (15/16) 0.7725 + 1/16.
TEST(DcqcnRateControl, PeriodicClocksRaiseAlphaPerPeriodNotPerCut) {
  DcqcnParams p = periodic_params(4_us);
  p.cnp_interval = sim::Duration::zero();
  for (const bool periodic : {true, false}) {
    p.periodic_clocks = periodic;
    DcqcnRateControl cc(p, kLine);
    for (const int64_t ns : {0, 500, 1500, 2500}) cc.on_cnp(at(sim::Duration::ns(ns)));
    cc.advance(at(4_us));
    if (periodic) {
      EXPECT_EQ(cc.rate().count(), 53'125'000'000);
      EXPECT_EQ(cc.state().cuts, 1);
      EXPECT_DOUBLE_EQ(cc.alpha_at(at(4_us)), 15.0 / 16);
      EXPECT_DOUBLE_EQ(cc.alpha_at(at(5_us)), 15.0 / 16 * 15.0 / 16);
    } else {
      const double a4 = std::pow(15.0 / 16, 4);
      EXPECT_EQ(cc.rate().count(), std::llround(50e9 * (1 - a4 / 2)));
      EXPECT_EQ(cc.state().cuts, 2);
      EXPECT_DOUBLE_EQ(cc.alpha_at(at(4_us)), 15.0 / 16 * a4 + 1.0 / 16);
    }
  }
}

// A CNP at the instant of a decrease check is seen by that check (HPCC's
// checks run 1 ns after its alpha ticks): at 4 us, right after the first cut,
// it is absorbed (one cut, no second one pending at 8 us); at 12 us, a check
// with no CNP pending, it cuts at once. g = 1/16, K = 1 us: the first cut
// uses (15/16)^4 (the ticks at 1..4 us saw no CNP after the first).
TEST(DcqcnRateControl, PeriodicClocksACnpAtACheckIsSeenByThatCheck) {
  DcqcnParams p = periodic_params(4_us);
  p.rate_timer = 1_s;  // no increases in the way
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  cc.advance(at(4_us));
  const double a4 = std::pow(15.0 / 16, 4);
  EXPECT_EQ(cc.rate().count(), std::llround(100e9 * (1 - a4 / 2)));
  cc.on_cnp(at(4_us));
  EXPECT_EQ(cc.state().cuts, 1);
  EXPECT_FALSE(cc.state().cut_pending);
  const int64_t r1 = cc.rate().count();
  cc.on_cnp(at(12_us));  // alpha: the tick at 5 us raised it (the CNP at 4 us), 6..12 decayed
  EXPECT_EQ(cc.state().cuts, 2);
  const double a12 = ((15.0 / 16) * a4 + 1.0 / 16) * std::pow(15.0 / 16, 7);
  EXPECT_EQ(cc.rate().count(), std::llround(static_cast<double>(r1) * (1 - a12 / 2)));
}

// Periodic clocks with min_cut_interval = 0: every CNP cuts at once, with
// alpha on its own clock. First CNP at 0: alpha = 1, cut to 50G; a CNP at
// 0.5 us: no tick yet, alpha still 1, 25G; the tick at 1 us saw it: alpha
// stays 1; the tick at 2 us saw none: 15/16.
TEST(DcqcnRateControl, PeriodicClocksWithoutACheckIntervalCutOnEveryCnp) {
  const DcqcnParams p = periodic_params(sim::Duration::zero());
  DcqcnRateControl cc(p, kLine);
  cc.on_cnp(at(0_us));
  EXPECT_EQ(cc.rate().count(), 50 * kG);
  cc.on_cnp(at(sim::Duration::ns(500)));
  EXPECT_EQ(cc.rate().count(), 25 * kG);
  EXPECT_EQ(cc.state().cuts, 2);
  EXPECT_DOUBLE_EQ(cc.alpha_at(at(1_us)), 1.0);
  EXPECT_DOUBLE_EQ(cc.alpha_at(at(2_us)), 15.0 / 16);
}

}  // namespace
}  // namespace xoff::models
