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

// 64-bit keys (the event profile keys by address): keys that differ only
// above bit 32 stay apart, and sorted() lists every entry by key whatever
// the insertion order.
TEST(FlatMap, SixtyFourBitKeysAndTheSortedListing) {
  FlatMap<int, uint64_t> m;
  const uint64_t high = uint64_t{1} << 40;
  for (uint64_t k : {high + 7, uint64_t{7}, 2 * high + 7, uint64_t{3}}) m.get(k) += 1;
  m.get(7) += 10;
  ASSERT_EQ(m.size(), 4u);
  const auto all = m.sorted();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0], (std::pair<uint64_t, int>{3, 1}));
  EXPECT_EQ(all[1], (std::pair<uint64_t, int>{7, 11}));
  EXPECT_EQ(all[2], (std::pair<uint64_t, int>{high + 7, 1}));
  EXPECT_EQ(all[3], (std::pair<uint64_t, int>{2 * high + 7, 1}));
}

}  // namespace
}  // namespace xoff::sim
