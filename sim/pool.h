#pragma once
// A pool of plain objects (packets) with stable addresses.
//
// Objects live in fixed-size chunks that are never freed during a run; release()
// pushes the slot on a free list, acquire() pops one. After warm-up the hot path
// allocates nothing. The pool counts live objects, which the conservation checks
// use (sent = delivered + dropped + in flight).
#include <cstddef>
#include <memory>
#include <vector>

#include "sim/check.h"

namespace xoff::sim {

template <class T, size_t kChunk = 4096>
class Pool {
 public:
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // Returns a value-initialised object.
  T& acquire() {
    if (free_.empty()) grow();
    T* p = free_.back();
    free_.pop_back();
    *p = T{};
    ++live_;
    return *p;
  }
  void release(T& obj) {
    XOFF_DCHECK(live_ > 0, "pool release without acquire");
    --live_;
    free_.push_back(&obj);
  }
  size_t live() const { return live_; }
  size_t capacity() const { return chunks_.size() * kChunk; }

 private:
  void grow() {
    chunks_.push_back(std::make_unique<T[]>(kChunk));
    T* base = chunks_.back().get();
    free_.reserve(capacity());
    for (size_t i = kChunk; i-- > 0;) free_.push_back(base + i);
  }
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<T*> free_;
  size_t live_ = 0;
};

}  // namespace xoff::sim
