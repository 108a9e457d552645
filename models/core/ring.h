#pragma once
// A FIFO of trivially copyable values in a power-of-two ring that grows by
// doubling and never shrinks: after warm-up, push and pop allocate nothing.
// Ring<T>: 24 bytes (a pointer and three 32-bit counts, not a std::vector's
// three pointers): a port keeps two in its hot lines. Ring<T, N>: the first
// N values (a power of two) live in the object itself, so a ring that stays
// that short touches its owner's lines and no buffer of its own (a NIC's
// ready QPs of a class: one or two almost always); past N it moves to the
// heap and stays there (until it is moved from).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sim/check.h"

namespace xoff::models {

namespace detail {
template <class T, uint32_t N>
struct RingStorage {
  union {
    T inline_[N] = {};
    T* heap_;
  };
};
template <class T>
struct RingStorage<T, 0> {
  T* heap_ = nullptr;
};
}  // namespace detail

template <class T, uint32_t N = 0>
class Ring {
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert((N & (N - 1)) == 0, "the inline capacity is 0 or a power of two");

 public:
  Ring() = default;
  Ring(Ring&& o) noexcept { *this = std::move(o); }
  // The source is left empty, as a new ring (its buffer, if any, is taken).
  Ring& operator=(Ring&& o) noexcept {
    if (this == &o) return *this;
    release();
    s_ = o.s_;  // the heap pointer or the inline values (a trivially copyable union)
    o.s_ = {};
    cap_ = std::exchange(o.cap_, N);
    head_ = std::exchange(o.head_, 0);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  ~Ring() { release(); }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf()[head_]; }
  const T& front() const { return buf()[head_]; }
  void push_back(const T& v) {
    if (size_ == cap_) grow();
    buf()[(head_ + size_) & (cap_ - 1)] = v;
    ++size_;
  }
  T pop_front() {
    XOFF_DCHECK(size_ > 0, "pop from empty ring");
    T v = buf()[head_];
    head_ = (head_ + 1) & (cap_ - 1);
    --size_;
    return v;
  }
  // i-th element from the front.
  T& operator[](size_t i) { return buf()[(head_ + i) & (cap_ - 1)]; }
  const T& operator[](size_t i) const { return buf()[(head_ + i) & (cap_ - 1)]; }

 private:
  bool spilled() const { return cap_ > N; }
  T* buf() {
    if constexpr (N == 0) {
      return s_.heap_;
    } else {
      return spilled() ? s_.heap_ : s_.inline_;
    }
  }
  const T* buf() const { return const_cast<Ring*>(this)->buf(); }
  void release() {
    if (spilled()) delete[] s_.heap_;
  }
  void grow() {
    XOFF_CHECK(cap_ < (uint32_t{1} << 31), "ring of more than 2^31 entries");
    const uint32_t cap = cap_ == 0 ? 16 : cap_ * 2;
    T* next = new T[cap];
    const T* old = buf();
    for (uint32_t i = 0; i < size_; ++i) next[i] = old[(head_ + i) & (cap_ - 1)];
    release();
    s_.heap_ = next;
    cap_ = cap;
    head_ = 0;
  }
  detail::RingStorage<T, N> s_;
  uint32_t cap_ = N;  // a power of two, or 0
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};
static_assert(sizeof(Ring<uint64_t>) == 24);  // (Ring<uint32_t, 4>'s 32: QpScheduler)

}  // namespace xoff::models
