#include "sim/flat_map.h"

#include <gtest/gtest.h>

#include <map>

#include "sim/rng.h"

namespace xoff::sim {
namespace {

TEST(FlatMap, GetCreatesOnceFindSeesIt) {
  FlatMap<int> m;
  EXPECT_EQ(m.find(7), nullptr);
  m.get(7) = 3;
  m.get(7) += 1;
  ASSERT_NE(m.find(7), nullptr);
  EXPECT_EQ(*m.find(7), 4);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.find(8), nullptr);
}

TEST(FlatMap, GrowsAtHalfLoad) {
  FlatMap<int> m;
  for (uint32_t k = 0; k < 8; ++k) m.get(k) = static_cast<int>(k);
  EXPECT_EQ(m.capacity(), 16u);  // 8 keys fill 16 slots to 1/2
  m.get(8);
  EXPECT_EQ(m.capacity(), 32u);
  for (uint32_t k = 0; k < 8; ++k) EXPECT_EQ(*m.find(k), static_cast<int>(k));
}

// Random inserts and erases against std::map: backward-shift deletion must
// keep every remaining key reachable.
TEST(FlatMap, MatchesStdMapUnderChurn) {
  FlatMap<uint64_t> m;
  std::map<uint32_t, uint64_t> ref;
  Rng rng(42, "flat_map_test");
  for (int step = 0; step < 200000; ++step) {
    const auto key = static_cast<uint32_t>(rng.next_u64() % 4096);
    if (rng.next_u64() % 3 == 0) {
      EXPECT_EQ(m.erase(key), ref.erase(key) == 1);
    } else {
      m.get(key) = step;
      ref[key] = step;
    }
  }
  EXPECT_EQ(m.size(), ref.size());
  for (uint32_t k = 0; k < 4096; ++k) {
    const uint64_t* v = m.find(k);
    const auto it = ref.find(k);
    ASSERT_EQ(v != nullptr, it != ref.end()) << k;
    if (v != nullptr) {
      EXPECT_EQ(*v, it->second);
    }
  }
}

}  // namespace
}  // namespace xoff::sim
