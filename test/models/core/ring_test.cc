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

// A move takes the values, inline or spilled, and leaves the source empty
// and usable.
TEST(Ring, MoveTakesInlineAndSpilledValues) {
  for (uint32_t n : {3u, 9u}) {  // within 4 inline values, and past them
    Ring<uint32_t, 4> a;
    a.push_back(100);
    a.pop_front();  // head not at 0: the move keeps the ring's own order
    for (uint32_t i = 0; i < n; ++i) a.push_back(i);
    Ring<uint32_t, 4> b(std::move(a));
    EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the source's state is specified
    ASSERT_EQ(b.size(), n);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(b[i], i);
    a.push_back(7);  // the source works on
    EXPECT_EQ(a.pop_front(), 7u);
    Ring<uint32_t, 4> c;
    c.push_back(1);
    c = std::move(b);
    ASSERT_EQ(c.size(), n);
    EXPECT_EQ(c.pop_front(), 0u);
    EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
  }
}

}  // namespace
}  // namespace xoff::models
