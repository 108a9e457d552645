#include "models/core/ring.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <utility>

namespace xoff::models {
namespace {

// Pushes and pops against a std::deque oracle, sizes wandering past the
// inline capacity and the first heap capacities (16, 32), so that the ring
// wraps inline, spills, wraps and doubles again.
template <uint32_t N>
void check_fifo() {
  Ring<uint32_t, N> r;
  std::deque<uint32_t> model;
  uint64_t x = 777;  // a fixed linear congruential sequence
  uint32_t id = 0;
  for (int step = 0; step < 5000; ++step) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const size_t limit = step < 500 ? 3 : 50;
    if (model.size() < limit && (model.empty() || (x >> 40) % 2 == 0)) {
      r.push_back(id);
      model.push_back(id++);
    } else {
      ASSERT_EQ(r.pop_front(), model.front()) << "step " << step;
      model.pop_front();
    }
    ASSERT_EQ(r.size(), model.size());
    for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(r[i], model[i]);
  }
}

TEST(Ring, KeepsFifoOrderThroughWrapsAndGrowth) { check_fifo<0>(); }
TEST(Ring, KeepsFifoOrderInsideAndPastItsInlineStorage) { check_fifo<4>(); }

// Fills a ring with `n` values from `first` on, its head moved off slot 0
// first (a move keeps the ring's own order, not the buffer's).
template <uint32_t N>
void fill(Ring<uint32_t, N>& r, uint32_t n, uint32_t first) {
  r.push_back(7);
  r.pop_front();
  for (uint32_t i = 0; i < n; ++i) r.push_back(first + i);
}

template <uint32_t N>
void expect_values(Ring<uint32_t, N>& r, uint32_t n, uint32_t first) {
  ASSERT_EQ(r.size(), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(r.pop_front(), first + i);
}

// A move takes the values, inline or spilled, into an empty, inline or
// spilled ring (whose buffer it frees: ASan's leak check in scripts/asan.sh
// sees one it does not), and leaves the source empty and usable.
template <uint32_t N>
void check_moves() {
  for (uint32_t n : {0u, 3u, 40u}) {       // empty, inline (for N = 4), past both
    for (uint32_t held : {0u, 3u, 40u}) {  // what the destination holds before
      Ring<uint32_t, N> a;
      fill(a, n, 1000);
      Ring<uint32_t, N> b;
      fill(b, held, 5000);
      b = std::move(a);
      EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the source's state is specified
      a.push_back(9);          // and it works on
      EXPECT_EQ(a.pop_front(), 9u);
      Ring<uint32_t, N> c(std::move(b));
      EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
      expect_values(c, n, 1000);
    }
  }
}

TEST(Ring, MovesTakeInlineAndSpilledValues) {
  check_moves<0>();
  check_moves<4>();
}

TEST(Ring, SelfMoveKeepsTheValues) {
  for (uint32_t n : {3u, 40u}) {
    Ring<uint32_t, 4> r;
    fill(r, n, 1000);
    Ring<uint32_t, 4>& same = r;
    r = std::move(same);
    expect_values(r, n, 1000);
  }
}

}  // namespace
}  // namespace xoff::models
