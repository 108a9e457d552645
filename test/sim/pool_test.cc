#include "sim/pool.h"

#include <gtest/gtest.h>

#include <set>

namespace xoff::sim {
namespace {

struct Item {
  int a = 0;
  long b = 0;
};

TEST(Pool, ReusesReleasedSlotsAndCountsLive) {
  Pool<Item, 4> pool;
  Item& x = pool.acquire();
  x.a = 5;
  Item& y = pool.acquire();
  EXPECT_EQ(pool.live(), 2u);
  pool.release(x);
  Item& z = pool.acquire();
  EXPECT_EQ(&z, &x);  // LIFO reuse keeps the hot slot in cache
  EXPECT_EQ(z.a, 0);  // handed out value-initialised
  pool.release(y);
  pool.release(z);
  EXPECT_EQ(pool.live(), 0u);
}

TEST(Pool, GrowsByChunksWithStableAddresses) {
  Pool<Item, 4> pool;
  std::set<Item*> seen;
  for (int i = 0; i < 10; ++i) seen.insert(&pool.acquire());
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_EQ(pool.capacity(), 12u);  // 3 chunks of 4
}

}  // namespace
}  // namespace xoff::sim
