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
// After warm-up nothing allocates: rings and the heap keep their capacity,
// and with few QPs both live in the scheduler itself.
#include <algorithm>
#include <array>
#include <cstdint>

#include "models/core/ids.h"
#include "models/core/ring.h"
#include "sim/check.h"
#include "sim/units.h"

namespace xoff::models {

class alignas(64) QpScheduler {
 public:
  QpScheduler() = default;
  QpScheduler(const QpScheduler&) = delete;
  QpScheduler& operator=(const QpScheduler&) = delete;
  ~QpScheduler() {
    if (heap_cap_ > kInlineWaiting) delete[] heap_;
  }

  void make_ready(uint32_t qp, int tc) {
    ready_[tc].push_back(qp);
    ready_mask_ |= static_cast<uint8_t>(1u << tc);
  }
  // QP ids below this (RoceNic checks): 21 bits of a waiting entry's word.
  static constexpr uint32_t kMaxQps = uint32_t{1} << 21;

  // Each QP in at most one place at a time.
  void wait_until(uint32_t qp, int tc, sim::Time t) {
    XOFF_DCHECK(qp < kMaxQps && tc >= 0 && tc < kNumClasses, "QP id or class out of range");
    XOFF_CHECK(seq_ < kMaxSeq, "a NIC paced more than 2^40 sends");
    if (heap_size_ == heap_cap_) grow_heap();
    Waiting* h = heap();
    h[heap_size_++] = Waiting{t, seq_++ << 24 | uint64_t{qp} << 3 | static_cast<uint64_t>(tc)};
    std::push_heap(h, h + heap_size_, later);
  }
  // Moves every waiting QP due at or before `now` to its ready ring, in
  // (time, insertion) order.
  void release_due(sim::Time now) {
    Waiting* h = heap();
    while (heap_size_ > 0 && h[0].t <= now) {
      std::pop_heap(h, h + heap_size_, later);
      const Waiting w = h[--heap_size_];
      make_ready(static_cast<uint32_t>(w.order >> 3) & (kMaxQps - 1),
                 static_cast<int>(w.order & 7));
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
  sim::Time next_wakeup() const { return heap_size_ == 0 ? sim::Time::max() : heap()[0].t; }
  size_t waiting() const { return heap_size_; }
  size_t ready(int tc) const { return ready_[tc].size(); }

 private:
  // 16 bytes: the time, then the insertion sequence (40 bits, unique, so it
  // alone breaks ties), the QP (21 bits) and its class (3 bits) in one word.
  struct Waiting {
    sim::Time t;
    uint64_t order;
  };
  static constexpr uint64_t kMaxSeq = uint64_t{1} << 40;
  // Heap order: std::*_heap keep the "largest" on top, so "later" is larger.
  static bool later(const Waiting& a, const Waiting& b) {
    return a.t > b.t || (a.t == b.t && a.order > b.order);
  }
  // The waiting heap's first kInlineWaiting entries live in the object, like
  // the ready rings' (one paced QP per NIC is the common case).
  static constexpr uint32_t kInlineWaiting = 2;
  static_assert(sizeof(Waiting) == 16);
  Waiting* heap() { return heap_cap_ > kInlineWaiting ? heap_ : inline_; }
  const Waiting* heap() const { return heap_cap_ > kInlineWaiting ? heap_ : inline_; }
  void grow_heap() {
    XOFF_CHECK(heap_cap_ < (uint32_t{1} << 30), "more than 2^30 paced QPs");
    const uint32_t cap = heap_cap_ * 2;
    auto* next = new Waiting[cap];
    std::copy(heap(), heap() + heap_size_, next);
    if (heap_cap_ > kInlineWaiting) delete[] heap_;
    heap_ = next;
    heap_cap_ = cap;
  }

  // The waiting heap and the mask in the first line, then the rings, two to
  // a line.
  union {
    Waiting inline_[kInlineWaiting] = {};
    Waiting* heap_;
  };
  uint64_t seq_ = 0;
  uint32_t heap_size_ = 0;
  uint32_t heap_cap_ = kInlineWaiting;
  uint8_t ready_mask_ = 0;
  // QP ids; the first four of a class in the object (a NIC runs one or
  // two QPs per class almost always), so a packet's turn touches the
  // scheduler's lines only. Two to a line: 32 bytes each, and the array
  // 32-aligned (a Ring alone is 8-aligned).
  static_assert(sizeof(Ring<uint32_t, 4>) == 32);
  alignas(32) std::array<Ring<uint32_t, 4>, kNumClasses> ready_;
};

}  // namespace xoff::models
