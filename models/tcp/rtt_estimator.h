#pragma once
// The retransmission timeout estimator of RFC 6298, in integer picoseconds.
//
//   first sample R:   SRTT = R, RTTVAR = R/2
//   later samples R:  RTTVAR = 3/4 RTTVAR + 1/4 |SRTT − R|, SRTT = 7/8 SRTT + 1/8 R
//   RTO = clamp(SRTT + 4·RTTVAR, min_rto, max_rto)     (clock granularity G = 0)
//
// Before the first sample RTO = initial_rto. Each expiry doubles RTO (5.5,
// bounded by max_rto); the backed-off value holds until the next valid sample
// (Karn's algorithm: samples only from segments that were never retransmitted,
// which the sender enforces).
#include "sim/units.h"

namespace xoff::models {

class RttEstimator {
 public:
  RttEstimator(sim::Duration min_rto, sim::Duration initial_rto, sim::Duration max_rto)
      : min_rto_(min_rto), initial_rto_(initial_rto), max_rto_(max_rto) {
    reset();
  }

  void reset() {
    srtt_ = rttvar_ = sim::Duration::zero();
    has_sample_ = false;
    rto_ = clamp(initial_rto_);
  }

  void sample(sim::Duration r) {
    if (!has_sample_) {
      srtt_ = r;
      rttvar_ = r / 2;
      has_sample_ = true;
    } else {
      const sim::Duration err = srtt_ > r ? srtt_ - r : r - srtt_;
      rttvar_ = (rttvar_ * 3 + err) / 4;
      srtt_ = (srtt_ * 7 + r) / 8;
    }
    rto_ = clamp(srtt_ + rttvar_ * 4);
  }

  void back_off() { rto_ = rto_ > max_rto_ / 2 ? max_rto_ : rto_ * 2; }

  sim::Duration rto() const { return rto_; }
  sim::Duration srtt() const { return srtt_; }
  sim::Duration rttvar() const { return rttvar_; }
  bool has_sample() const { return has_sample_; }

 private:
  sim::Duration clamp(sim::Duration d) const {
    if (d < min_rto_) return min_rto_;
    return d > max_rto_ ? max_rto_ : d;
  }

  sim::Duration min_rto_;
  sim::Duration initial_rto_;
  sim::Duration max_rto_;
  sim::Duration srtt_;
  sim::Duration rttvar_;
  sim::Duration rto_;
  bool has_sample_ = false;
};

}  // namespace xoff::models
