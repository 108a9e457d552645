#pragma once
// A FIFO of trivially copyable values in a power-of-two ring that grows by
// doubling and never shrinks: after warm-up, push and pop allocate nothing.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/check.h"

namespace xoff::models {

template <class T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  T pop_front() {
    XOFF_DCHECK(size_ > 0, "pop from empty ring");
    T v = buf_[head_];
    head_ = static_cast<uint32_t>((head_ + 1) & (buf_.size() - 1));
    --size_;
    return v;
  }
  // i-th element from the front.
  T& operator[](size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

 private:
  void grow() {
    XOFF_CHECK(buf_.size() < (size_t{1} << 31), "ring of more than 2^31 entries");
    std::vector<T> next(buf_.empty() ? 16 : buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) next[i] = buf_[(head_ + i) & (buf_.size() - 1)];
    buf_.swap(next);
    head_ = 0;
  }
  std::vector<T> buf_;
  // 32-bit: a ring is 32 B, so a port's class queue fits a line with its counters.
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};

}  // namespace xoff::models
