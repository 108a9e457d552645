#include "models/nic/dcqcn_fluid.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "sim/check.h"
#include "sim/rng.h"

namespace xoff::models {
namespace {

// The RED of EcnMarker::probability, on a fluid queue.
double red(const DcqcnFluidSetup& s, double queue_bytes) {
  const auto kmin = static_cast<double>(s.kmin.count());
  const auto kmax = static_cast<double>(s.kmax.count());
  if (queue_bytes <= kmin) return 0;
  if (queue_bytes > kmax) return 1;
  return s.pmax * (queue_bytes - kmin) / (kmax - kmin);
}

// What eqs. (3)-(5) need of a marking probability p seen by a flow at rate r
// (packets/s): the probability of at least one mark in a CNP interval and in
// an alpha period, the byte-counter and timer event rates, and the chance that
// F stages of each passed without a mark.
struct Feedback {
  double cut = 0;    // 1 - (1-p)^(N_cnp r)
  double alpha = 0;  // 1 - (1-p)^(K r)
  double e_b = 0;    // r p / ((1-p)^-B - 1)
  double e_t = 0;    // r p / ((1-p)^(-T r) - 1)
  double f_b = 0;    // (1-p)^(F B)
  double f_t = 0;    // (1-p)^(F T r)
};

struct Consts {
  double pkt_bits;
  double c;  // capacity, packets/s
  double n_cnp, k, t;
  double b;  // packets per byte-counter stage; 0: no byte counter
  double f;
  double r_ai;   // packets/s
  double r_min;  // packets/s
};

Consts consts(const DcqcnFluidSetup& s) {
  XOFF_CHECK(s.flows >= 1, "fluid model needs at least one flow");
  XOFF_CHECK(s.packet.count() > 0 && s.capacity.count() > 0, "fluid model needs C and a packet");
  const DcqcnParams& d = s.dcqcn;
  Consts k{};
  k.pkt_bits = static_cast<double>(s.packet.count()) * 8;
  k.c = static_cast<double>(s.capacity.count()) / k.pkt_bits;
  k.n_cnp = d.cnp_interval.to_seconds();
  k.k = d.alpha_period.to_seconds();
  k.t = d.rate_timer.to_seconds();
  k.b = static_cast<double>(d.byte_counter.count()) / static_cast<double>(s.packet.count());
  k.f = d.fast_recovery_stages;
  k.r_ai = static_cast<double>(d.rate_ai.count()) / k.pkt_bits;
  k.r_min = static_cast<double>(d.min_rate.count()) / k.pkt_bits;
  XOFF_CHECK(k.n_cnp > 0 && k.k > 0 && k.t > 0, "fluid model needs N_cnp, K and T > 0");
  return k;
}

Feedback feedback(const Consts& k, double p, double r) {
  Feedback fb;
  if (p <= 0) {  // the limits as p -> 0: one event per B packets, one per T
    fb.e_b = k.b > 0 ? r / k.b : 0;
    fb.e_t = 1 / k.t;
    fb.f_b = k.b > 0 ? 1 : 0;
    fb.f_t = 1;
    return fb;
  }
  if (p >= 1) {  // every packet marked: a cut per interval, no increase survives
    fb.cut = fb.alpha = 1;
    return fb;
  }
  const double l = std::log1p(-p);  // ln(1 - p) < 0
  fb.cut = -std::expm1(k.n_cnp * r * l);
  fb.alpha = -std::expm1(k.k * r * l);
  if (k.b > 0) {
    fb.e_b = r * p / std::expm1(-k.b * l);
    fb.f_b = std::exp(k.f * k.b * l);
  }
  fb.e_t = r * p / std::expm1(-k.t * r * l);
  fb.f_t = std::exp(k.f * k.t * r * l);
  return fb;
}

// Running mean and variance (Welford) and extremes.
struct Stats {
  int64_t n = 0;
  double mean = 0, m2 = 0, min = 0, max = 0;
  void add(double x) {
    if (n == 0) min = max = x;
    ++n;
    const double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
    min = std::min(min, x);
    max = std::max(max, x);
  }
  double stddev() const { return n > 0 ? std::sqrt(m2 / static_cast<double>(n)) : 0; }
};

DcqcnTrace trace_of(const Stats& q, const Stats& r) {
  DcqcnTrace t;
  t.queue_mean = q.mean;
  t.queue_stddev = q.stddev();
  t.queue_min = q.min;
  t.queue_max = q.max;
  t.rate_mean_bps = r.mean;
  t.rate_stddev_bps = r.stddev();
  return t;
}

}  // namespace

DcqcnFixedPoint dcqcn_fixed_point(const DcqcnFluidSetup& s) {
  const Consts k = consts(s);
  const double r = k.c / s.flows;
  // With dR_C/dt = 0: R_T - R_C = R_C a cut / (N_cnp (e_B + e_T)); put into
  // dR_T/dt = 0: h(p) = R_C a cut^2 / (N_cnp^2 (e_B + e_T)) - R_AI (f_B e_B +
  // f_T e_T), a = alpha(p) from da/dt = 0. h < 0 as p -> 0 (no cuts, only
  // increases) and grows with p: bisect on log p.
  auto h = [&](double p) {
    const Feedback fb = feedback(k, p, r);
    return r * fb.alpha * fb.cut * fb.cut / (k.n_cnp * k.n_cnp * (fb.e_b + fb.e_t)) -
           k.r_ai * (fb.f_b * fb.e_b + fb.f_t * fb.e_t);
  };
  DcqcnFixedPoint fp;
  double lo = 1e-12;
  double hi = s.pmax;
  if (h(hi) < 0) {  // balanced only above Kmax, where RED marks everything
    fp.p = 1;
    fp.queue_bytes = static_cast<double>(s.kmax.count());
  } else {
    for (int i = 0; i < 200; ++i) {
      const double mid = std::sqrt(lo * hi);
      (h(mid) < 0 ? lo : hi) = mid;
    }
    fp.p = std::sqrt(lo * hi);
    const auto kmin = static_cast<double>(s.kmin.count());
    const auto kmax = static_cast<double>(s.kmax.count());
    fp.queue_bytes = kmin + fp.p / s.pmax * (kmax - kmin);
  }
  const Feedback fb = feedback(k, std::min(fp.p, 1.0), r);
  fp.alpha = fb.alpha;
  fp.target_bps =
      (r + (fb.e_b + fb.e_t > 0 ? r * fb.alpha * fb.cut / (k.n_cnp * (fb.e_b + fb.e_t)) : 0)) *
      k.pkt_bits;
  return fp;
}

DcqcnTrace dcqcn_fluid(const DcqcnFluidSetup& s, sim::Duration run, sim::Duration skip,
                       sim::Duration step) {
  const Consts k = consts(s);
  const double dt = step.to_seconds();
  XOFF_CHECK(dt > 0, "fluid model needs a positive step");
  const auto steps = static_cast<int64_t>(run.count_ps() / step.count_ps());
  const auto from = static_cast<int64_t>(skip.count_ps() / step.count_ps());
  const auto lag = static_cast<size_t>(std::llround(s.feedback_delay.to_seconds() / dt));
  // Ring of the last lag + 1 values of p and R_C: slot i % size holds step i.
  const size_t size = lag + 1;
  std::vector<double> p_hist(size, 0.0);
  std::vector<double> r_hist(size, k.c);
  double q = 0;  // bytes
  double a = s.dcqcn.initial_alpha;
  double rt = k.c;  // every flow starts at line rate
  double rc = k.c;
  Stats qs, rs;
  for (int64_t i = 0; i < steps; ++i) {
    const size_t slot = static_cast<size_t>(i) % size;
    p_hist[slot] = red(s, q);
    r_hist[slot] = rc;
    if (i >= from) {
      qs.add(q);
      rs.add(rc * k.pkt_bits);
    }
    // Before the first lag steps the flows have heard nothing yet.
    const bool heard = static_cast<size_t>(i) >= lag;
    const size_t past = (static_cast<size_t>(i) + 1) % size;  // step i - lag
    const double pd = heard ? p_hist[past] : 0.0;
    const double rd = heard ? r_hist[past] : rc;
    const Feedback fb = feedback(k, pd, rd);
    const double da = s.dcqcn.g / k.k * (fb.alpha - a);
    const double drt = -(rt - rc) / k.n_cnp * fb.cut + k.r_ai * (fb.f_b * fb.e_b + fb.f_t * fb.e_t);
    const double drc = -rc * a / (2 * k.n_cnp) * fb.cut + (rt - rc) / 2 * (fb.e_b + fb.e_t);
    const double dq = (s.flows * rc - k.c) * k.pkt_bits / 8;
    a = std::clamp(a + da * dt, 0.0, 1.0);
    rt = std::clamp(rt + drt * dt, k.r_min, k.c);
    rc = std::clamp(rc + drc * dt, k.r_min, rt);
    q = std::max(0.0, q + dq * dt);
  }
  return trace_of(qs, rs);
}

DcqcnTrace dcqcn_hybrid(const DcqcnFluidSetup& s, sim::Duration run, sim::Duration skip,
                        uint64_t seed, sim::Duration step) {
  const Consts k = consts(s);
  const double dt = step.to_seconds();
  XOFF_CHECK(dt > 0, "hybrid model needs a positive step");
  struct Flow {
    DcqcnRateControl rc;
    double credit_bits = 0;
    bool np_sent = false;  // the notification point's CNP pacing
    sim::Time np_last;
    std::deque<sim::Time> cnps;  // in flight to the reaction point
  };
  std::vector<Flow> flows(static_cast<size_t>(s.flows));
  for (Flow& f : flows) f.rc = DcqcnRateControl(s.dcqcn, s.capacity);
  sim::Rng rng(seed, "dcqcn_hybrid/marks");
  const auto steps = static_cast<int64_t>(run.count_ps() / step.count_ps());
  const auto from = static_cast<int64_t>(skip.count_ps() / step.count_ps());
  const auto pkt_bytes = static_cast<double>(s.packet.count());
  const double drain = static_cast<double>(s.capacity.count()) * dt / 8;
  double q = 0;
  int64_t cuts = 0;
  Stats qs, rs;
  for (int64_t i = 0; i < steps; ++i) {
    const sim::Time now = sim::Time::zero() + step * i;
    for (Flow& f : flows) {
      while (!f.cnps.empty() && f.cnps.front() <= now) {
        f.rc.on_cnp(f.cnps.front());
        f.cnps.pop_front();
        ++cuts;
      }
      f.rc.advance(now);
      f.credit_bits += static_cast<double>(f.rc.rate().count()) * dt;
      while (f.credit_bits >= k.pkt_bits) {
        f.credit_bits -= k.pkt_bits;
        q += pkt_bytes;
        f.rc.on_bytes_sent(now, s.packet);
        if (!rng.bernoulli(red(s, q))) continue;
        if (f.np_sent && now - f.np_last < s.dcqcn.cnp_interval) continue;
        f.np_sent = true;
        f.np_last = now;
        f.cnps.push_back(now + s.feedback_delay);
      }
    }
    q = std::max(0.0, q - drain);
    if (i >= from) {
      qs.add(q);
      rs.add(static_cast<double>(flows[0].rc.rate().count()));
    }
  }
  DcqcnTrace t = trace_of(qs, rs);
  t.cuts = cuts;
  return t;
}

}  // namespace xoff::models
