#include "models/nic/dcqcn.h"

#include <algorithm>
#include <cmath>

#include "sim/check.h"

namespace xoff::models {

using namespace sim::literals;

DcqcnParams DcqcnParams::paper() {
  DcqcnParams p;
  p.g = 1.0 / 256;
  p.initial_alpha = 1.0;
  p.alpha_period = 55_us;
  p.rate_timer = 55_us;
  p.byte_counter = 10_MB;
  p.fast_recovery_stages = 5;
  p.rate_ai = 40_Mbps;
  p.rate_hai = 100_Mbps;
  p.min_rate = 100_Mbps;
  p.min_cut_interval = sim::Duration::zero();
  p.cnp_interval = 50_us;
  return p;
}

DcqcnParams DcqcnParams::nic_like() {
  DcqcnParams p;
  p.g = 5.0 / 1024;
  p.initial_alpha = 1023.0 / 1024;
  p.alpha_period = 1_us;
  p.rate_timer = 300_us;
  p.byte_counter = sim::Bytes(32767);
  p.fast_recovery_stages = 1;
  p.rate_ai = 5_Mbps;
  p.rate_hai = 50_Mbps;
  p.min_rate = 1_Mbps;
  p.min_cut_interval = 4_us;
  p.cnp_interval = 4_us;
  p.clamp_target_always = false;
  return p;
}

DcqcnRateControl::DcqcnRateControl(const DcqcnParams& p, sim::BitsPerSecond line_rate)
    : p_(&p), line_(line_rate) {
  XOFF_CHECK(line_rate.count() > 0, "DCQCN line rate must be positive");
  XOFF_CHECK(p.g > 0 && p.g <= 1, "DCQCN g must be in (0, 1]");
  XOFF_CHECK(p.initial_alpha >= 0 && p.initial_alpha <= 1, "DCQCN initial alpha must be in [0, 1]");
  XOFF_CHECK(p.alpha_period > sim::Duration::zero(), "DCQCN alpha period K must be positive");
  XOFF_CHECK(p.rate_timer > sim::Duration::zero(), "DCQCN rate timer T must be positive");
  XOFF_CHECK(p.byte_counter.count() >= 0, "DCQCN byte counter B must not be negative");
  XOFF_CHECK(p.fast_recovery_stages >= 0, "DCQCN F must not be negative");
  XOFF_CHECK(p.rate_on_first_cnp > 0 && p.rate_on_first_cnp <= 1,
             "DCQCN rate on the first CNP must be in (0, 1]");
  XOFF_CHECK(p.min_decrease_factor >= 0 && p.min_decrease_factor <= 1,
             "DCQCN minimum decrease factor must be in [0, 1]");
  XOFF_CHECK(p.min_rate.count() > 0 && p.min_rate <= line_rate,
             "DCQCN min rate must be positive and at most the line rate");
  s_.current = line_rate;
  s_.target = line_rate;
  s_.alpha = p.initial_alpha;
}

double DcqcnRateControl::alpha_at(sim::Time now) const {
  if ((!s_.ever_cut && !s_.first_pending) || now <= s_.alpha_anchor) return s_.alpha;
  int64_t periods = (now - s_.alpha_anchor) / p_->alpha_period;
  double a = s_.alpha;
  if (p_->periodic_clocks && periods > 0 && s_.cnp_since_tick) {
    a = (1.0 - p_->g) * a + p_->g;  // the first tick saw a CNP
    --periods;
  }
  return a * std::pow(1.0 - p_->g, static_cast<double>(periods));
}

void DcqcnRateControl::tick_alpha(sim::Time now) {
  if (now <= s_.alpha_anchor) return;
  const int64_t periods = (now - s_.alpha_anchor) / p_->alpha_period;
  if (periods == 0) return;
  s_.alpha = alpha_at(now);
  s_.alpha_anchor += p_->alpha_period * periods;
  s_.cnp_since_tick = false;
}

// A QP's first CNP, when its cut waits for a decrease check: the rate limiter
// starts at rate_on_first_cnp x R_C with R_T = R_C and α = initial_alpha, and
// the α period and the decrease checks count from now.
void DcqcnRateControl::start_limiter(sim::Time now) {
  s_.first_pending = true;
  s_.alpha = p_->initial_alpha;
  s_.alpha_anchor = now;
  s_.cnp_since_tick = false;
  set_first_cnp_rate();
  s_.target = s_.current;
  s_.last_cut = now;
}

// The rate limiter's first rate: rate_on_first_cnp x R_C.
void DcqcnRateControl::set_first_cnp_rate() {
  s_.current = sim::BitsPerSecond(
      std::llround(static_cast<double>(s_.current.count()) * p_->rate_on_first_cnp));
  clamp();
}

// Mellanox / HPCC RdmaHw: the first CNP starts the α clock (α = initial_alpha)
// and the decrease checks; a later CNP marks the current α period and the
// current check interval, and the check at its end cuts.
void DcqcnRateControl::on_cnp_periodic(sim::Time now) {
  const sim::Duration interval = p_->min_cut_interval;
  if (!s_.ever_cut && !s_.first_pending) {
    start_limiter(now);
    if (interval == sim::Duration::zero()) {
      cut(now);
      return;
    }
    s_.cut_pending = true;
    s_.cut_due = now + interval;
    return;
  }
  tick_alpha(now);
  s_.cnp_since_tick = true;
  if (s_.cut_pending) return;  // the next check cuts already
  if (interval == sim::Duration::zero()) {
    cut(now);
    return;
  }
  // A CNP at the instant of a check is seen by it (the reference's checks run
  // 1 ns after its α ticks and its arrivals): absorbed if that check has cut
  // already, else it cuts now.
  if (s_.ever_cut && now == s_.last_cut) return;
  // Checks fall on last_cut + k x interval (every cut is at a check).
  const int64_t k = (now - s_.last_cut + interval - sim::Duration::ps(1)) / interval;
  const sim::Time due = s_.last_cut + interval * k;
  if (due == now) {
    cut(now);
    return;
  }
  s_.cut_pending = true;
  s_.cut_due = due;
}

void DcqcnRateControl::on_cnp(sim::Time now) {
  if (!p_->enabled) return;
  advance(now);
  ++s_.cnps;
  if (p_->periodic_clocks) {
    on_cnp_periodic(now);
    return;
  }
  if (!s_.ever_cut && p_->first_cut_waits && p_->min_cut_interval > sim::Duration::zero()) {
    if (s_.first_pending) return;  // its cut is already due
    // The cut comes at the first decrease check, min_cut_interval from now.
    start_limiter(now);
    s_.cut_pending = true;
    s_.cut_due = now + p_->min_cut_interval;
    return;
  }
  const bool too_soon = s_.ever_cut && p_->min_cut_interval > sim::Duration::zero() &&
                        now < s_.last_cut + p_->min_cut_interval;
  if (too_soon) {
    s_.cut_pending = true;
    s_.cut_due = s_.last_cut + p_->min_cut_interval;
  } else {
    cut(now);
  }
}

void DcqcnRateControl::on_bytes_sent(sim::Time now, sim::Bytes b) {
  if (!p_->enabled) return;
  advance(now);
  if (!s_.increasing || p_->byte_counter.count() == 0) return;
  s_.byte_acc += b;
  while (s_.increasing && s_.byte_acc >= p_->byte_counter) {
    s_.byte_acc -= p_->byte_counter;
    ++s_.b_stage;
    increase_event();
  }
}

sim::Time DcqcnRateControl::next_timer_expiry() const {
  if (!s_.increasing) return sim::Time::max();
  return s_.timer_anchor + p_->rate_timer * (s_.timer_expiries + 1);
}

sim::Time DcqcnRateControl::next_change() const {
  if (!p_->enabled) return sim::Time::max();
  const sim::Time cut_at = s_.cut_pending ? s_.cut_due : sim::Time::max();
  return std::min(next_timer_expiry(), cut_at);
}

// Replays, in time order, the rate-timer expiries and the coalesced cut that
// fall at or before `now`. A cut restarts the timer, so it is re-read each turn.
void DcqcnRateControl::advance(sim::Time now) {
  if (!p_->enabled) return;
  for (;;) {
    const sim::Time timer_at = next_timer_expiry();
    const sim::Time cut_at = s_.cut_pending ? s_.cut_due : sim::Time::max();
    if (std::min(timer_at, cut_at) > now) return;
    if (cut_at <= timer_at) {
      s_.cut_pending = false;
      cut(cut_at);
    } else {
      ++s_.timer_expiries;
      ++s_.t_stage;
      increase_event();
    }
  }
}

void DcqcnRateControl::cut(sim::Time at) {
  if (p_->periodic_clocks) tick_alpha(at);
  const double a = alpha_at(at);
  // The rate limiter's first rate (set at the first CNP already when the cut waited).
  if (!s_.ever_cut && !s_.first_pending && p_->rate_on_first_cnp < 1.0) set_first_cnp_rate();
  if (p_->clamp_target_always || s_.t_stage > 0 || !s_.ever_cut) s_.target = s_.current;
  const double factor = std::max(1.0 - a / 2.0, p_->min_decrease_factor);
  const double cut_rate = static_cast<double>(s_.current.count()) * factor;
  s_.current = sim::BitsPerSecond(std::llround(cut_rate));
  if (!p_->periodic_clocks) {  // on its own clock otherwise
    s_.alpha = (1.0 - p_->g) * a + p_->g;
    s_.alpha_anchor = at;
  }
  s_.timer_anchor = at;
  s_.timer_expiries = 0;
  s_.t_stage = 0;
  s_.b_stage = 0;
  s_.byte_acc = sim::Bytes(0);
  s_.last_cut = at;
  s_.ever_cut = true;
  s_.first_pending = false;
  ++s_.cuts;
  clamp();
  s_.increasing = s_.current < line_;
}

void DcqcnRateControl::increase_event() {
  const int f = p_->fast_recovery_stages;
  int hi = std::max(s_.t_stage, s_.b_stage);
  int lo = std::min(s_.t_stage, s_.b_stage);
  if (p_->byte_counter.count() == 0) {
    // Timer only: stage T = 1..F fast recovery, F + 1 additive, then hyper
    // (the HPCC model's 0-based stage s = T - 1: < F, == F, > F).
    hi = s_.t_stage;
    lo = s_.t_stage > f + 1 ? s_.t_stage - 1 : f;
  }
  int64_t target = s_.target.count();
  if (hi <= f) {
    // fast recovery: R_T unchanged
  } else if (lo > f) {
    target += (p_->hyper_linear ? static_cast<int64_t>(lo - f) : 1) * p_->rate_hai.count();
  } else {
    target += p_->rate_ai.count();
  }
  target = std::min(target, line_.count());
  // Rounded up, so R_C reaches R_T instead of stalling one bit/s below it.
  const int64_t current = (target + s_.current.count() + 1) / 2;
  s_.target = sim::BitsPerSecond(target);
  s_.current = sim::BitsPerSecond(current);
  clamp();
  if (s_.current >= line_) s_.increasing = false;
}

void DcqcnRateControl::clamp() {
  if (s_.current > line_) s_.current = line_;
  if (s_.current < p_->min_rate) s_.current = p_->min_rate;
  if (s_.target > line_) s_.target = line_;
  if (s_.target < s_.current) s_.target = s_.current;
}

}  // namespace xoff::models
