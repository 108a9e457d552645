#pragma once
// The NIC's send scheduler over queue pairs: which QP may put the next packet
// on the wire. O(1) per packet for the choice, O(log n) for pacing, in the
// number n of QPs (the HPCC ns-3 model scans every QP per packet instead).
//
//   ready[tc]  FIFO ring of QPs whose pacing time has come, per traffic class,
//              so a paused or full class does not block the others. Served
//              round-robin: a QP sends one packet and goes to the back (via
//              `waiting` if it is paced).
//   waiting    min-heap of (next send time, sequence, QP): QPs waiting for
//              their DCQCN pacing time. The sequence number makes equal
//              times pop in insertion order on every standard library.
//
// A QP id is in at most one of these at a time (the owner keeps a flag).
// After warm-up nothing allocates: rings and the heap keep their capacity.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "models/core/ids.h"
#include "models/core/ring.h"
#include "sim/units.h"

namespace xoff::models {

class QpScheduler {
 public:
  void make_ready(uint32_t qp, int tc) {
    ready_[tc].push_back(qp);
    ready_mask_ |= static_cast<uint8_t>(1u << tc);
  }
  void wait_until(uint32_t qp, int tc, sim::Time t) {
    heap_.push_back(Waiting{t, seq_++, qp, static_cast<uint8_t>(tc)});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  // Moves every waiting QP due at or before `now` to its ready ring, in
  // (time, insertion) order.
  void release_due(sim::Time now) {
    while (!heap_.empty() && heap_.front().t <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      const Waiting w = heap_.back();
      heap_.pop_back();
      make_ready(w.qp, w.tc);
    }
  }
  // Bit tc set: ready[tc] is not empty.
  uint8_t ready_mask() const { return ready_mask_; }
  uint32_t pop_ready(int tc) {
    const uint32_t qp = ready_[tc].pop_front();
    if (ready_[tc].empty()) ready_mask_ &= static_cast<uint8_t>(~(1u << tc));
    return qp;
  }
  // Earliest pacing time among waiting QPs, or Time::max().
  sim::Time next_wakeup() const { return heap_.empty() ? sim::Time::max() : heap_.front().t; }
  size_t waiting() const { return heap_.size(); }
  size_t ready(int tc) const { return ready_[tc].size(); }

 private:
  struct Waiting {
    sim::Time t;
    uint64_t seq;
    uint32_t qp;
    uint8_t tc;
  };
  // Heap order: std::*_heap keep the "largest" on top, so "later" is larger.
  static bool later(const Waiting& a, const Waiting& b) {
    return a.t > b.t || (a.t == b.t && a.seq > b.seq);
  }

  std::array<Ring<uint32_t>, kNumClasses> ready_;
  uint8_t ready_mask_ = 0;
  std::vector<Waiting> heap_;
  uint64_t seq_ = 0;
};

}  // namespace xoff::models
