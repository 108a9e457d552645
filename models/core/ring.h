#pragma once
// A FIFO of trivially copyable values in a power-of-two ring that grows by
// doubling and never shrinks: after warm-up, push and pop allocate nothing.
// 24 bytes (a pointer and three 32-bit counts, not a std::vector's three
// pointers): a port keeps two in its hot lines.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "sim/check.h"

namespace xoff::models {

template <class T>
class Ring {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Ring() = default;
  Ring(Ring&& o) noexcept { *this = std::move(o); }
  Ring& operator=(Ring&& o) noexcept {  // the source is left empty
    buf_ = std::move(o.buf_);
    cap_ = std::exchange(o.cap_, 0);
    head_ = std::exchange(o.head_, 0);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  void push_back(const T& v) {
    if (size_ == cap_) grow();
    buf_[(head_ + size_) & (cap_ - 1)] = v;
    ++size_;
  }
  T pop_front() {
    XOFF_DCHECK(size_ > 0, "pop from empty ring");
    T v = buf_[head_];
    head_ = (head_ + 1) & (cap_ - 1);
    --size_;
    return v;
  }
  // i-th element from the front.
  T& operator[](size_t i) { return buf_[(head_ + i) & (cap_ - 1)]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (cap_ - 1)]; }

 private:
  void grow() {
    XOFF_CHECK(cap_ < (uint32_t{1} << 31), "ring of more than 2^31 entries");
    const uint32_t cap = cap_ == 0 ? 16 : cap_ * 2;
    auto next = std::make_unique<T[]>(cap);
    for (uint32_t i = 0; i < size_; ++i) next[i] = buf_[(head_ + i) & (cap_ - 1)];
    buf_ = std::move(next);
    cap_ = cap;
    head_ = 0;
  }
  std::unique_ptr<T[]> buf_;
  uint32_t cap_ = 0;  // a power of two, or 0
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};

}  // namespace xoff::models
