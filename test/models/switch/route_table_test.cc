// The forwarding table's blocks of 32 destinations (models/switch/route_table.h):
// every lookup equals a plain per-destination map before and after compact()
// and after writes into shared blocks; compact() stores one entry per uniform
// group and one copy of each mixed block.
#include "models/switch/route_table.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/rng.h"

namespace xoff::models {
namespace {

std::vector<PortIndex> ports_of(uint64_t code) {
  // code 0: no route; otherwise 1 - 3 ports from the low bits.
  std::vector<PortIndex> v;
  for (uint64_t i = 0; i < code % 4; ++i)
    v.push_back(PortIndex(static_cast<uint16_t>(code / 4 + i)));
  return v;
}

void expect_same(const RouteTable& t, const std::vector<uint64_t>& want, const char* when) {
  ASSERT_EQ(t.num_destinations(), want.size()) << when;
  for (uint32_t d = 0; d < want.size(); ++d) {
    const auto got = t.lookup(d);
    const auto exp = ports_of(want[d]);
    ASSERT_EQ(std::vector<PortIndex>(got.begin(), got.end()), exp) << when << ", destination " << d;
  }
  EXPECT_TRUE(t.lookup(static_cast<uint32_t>(want.size())).empty()) << when;
  EXPECT_TRUE(t.lookup(1u << 30).empty()) << when;
}

TEST(RouteTable, LookupsMatchAPlainMapThroughCompactionAndLaterWrites) {
  sim::Rng rng(7);
  for (int round = 0; round < 20; ++round) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng.next_u64() % 700);
    std::vector<uint64_t> want(n, 0);
    RouteTable t;
    // Odd rounds: runs of one group (as hosts numbered leaf by leaf give)
    // and lone routes. Even rounds: whole blocks of one group, repeating
    // (uniform blocks that share an entry), and every fourth block the same
    // mix of two groups (mixed blocks that share a copy). Written in a
    // shuffled order; some destinations without a route are never written.
    const bool blocky = round % 2 == 0;
    const uint64_t run = blocky ? 32 * (1 + rng.next_u64() % 3) : 1 + rng.next_u64() % 80;
    for (uint32_t d = 0; d < n; ++d) {
      if (blocky) {
        want[d] = (d / 32) % 4 == 0 ? 4 * (d % 2) + 1 : 4 * ((d / run) % 3) + 1;
      } else if (rng.next_u64() % 10 != 0) {
        want[d] = rng.next_u64() % 3 == 0 ? rng.next_u64() % 64 : 4 * (d / run) + 1;
      }
    }
    want[n - 1] = 5;  // so that the table spans exactly n destinations
    std::vector<uint32_t> order(n);
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    for (uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.next_u64() % i]);
    for (uint32_t d : order) {
      if (want[d] != 0 || rng.next_u64() % 2 == 0) t.set(d, ports_of(want[d]));
    }
    expect_same(t, want, "before compact");
    t.compact();
    expect_same(t, want, "after compact");
    for (int k = 0; k < 50; ++k) {  // writes into shared and uniform blocks
      const uint32_t d = static_cast<uint32_t>(rng.next_u64() % n);
      want[d] = rng.next_u64() % 64;
      t.set(d, ports_of(want[d]));
    }
    expect_same(t, want, "after writes into the compacted table");
    t.compact();
    expect_same(t, want, "compacted twice");
  }
}

// A write after compact() into a block that shares its storage changes that
// destination only: blocks 0 and 1 (hosts 0 - 63 on ports 0, 1, 0, 1, ...)
// share one mixed copy, blocks 2 and 3 (hosts 64 - 127 on port 7) one
// uniform entry.
TEST(RouteTable, AWriteIntoASharedBlockAfterCompactChangesOneDestination) {
  RouteTable t;
  for (uint32_t h = 0; h < 128; ++h) {
    t.set(h, std::vector{PortIndex(static_cast<uint16_t>(h < 64 ? h % 2 : 7))});
  }
  t.compact();
  EXPECT_EQ(t.stored_entries(), 1u + 32u + 1u);  // entry 0, the shared copy, port 7's entry
  t.set(0, std::vector{PortIndex(9)});
  t.set(64, std::vector{PortIndex(9)});
  EXPECT_EQ(t.lookup(0)[0], PortIndex(9));
  EXPECT_EQ(t.lookup(1)[0], PortIndex(1));
  EXPECT_EQ(t.lookup(32)[0], PortIndex(0));  // block 1 kept the shared copy
  EXPECT_EQ(t.lookup(64)[0], PortIndex(9));
  EXPECT_EQ(t.lookup(65)[0], PortIndex(7));
  EXPECT_EQ(t.lookup(96)[0], PortIndex(7));  // block 3 kept the uniform entry
}

// A table moved from is empty and usable, as a vector moved from is.
TEST(RouteTable, ATableMovedFromIsEmpty) {
  RouteTable a;
  for (uint32_t h = 0; h < 40; ++h) a.set(h, std::vector{PortIndex(3)});
  a.compact();
  RouteTable b = std::move(a);
  EXPECT_EQ(b.lookup(39)[0], PortIndex(3));
  EXPECT_EQ(a.num_destinations(), 0u);  // NOLINT(bugprone-use-after-move): the point
  EXPECT_TRUE(a.lookup(5).empty());
  a.set(5, std::vector{PortIndex(1)});
  EXPECT_EQ(a.lookup(5)[0], PortIndex(1));
  RouteTable c;
  c = std::move(b);
  EXPECT_EQ(c.lookup(0)[0], PortIndex(3));
  EXPECT_TRUE(b.lookup(0).empty());  // NOLINT(bugprone-use-after-move)
}

TEST(RouteTable, CompactStoresOneEntryPerUniformGroupAndOneCopyPerMixedBlock) {
  // A spine of a 4,096-host spine-leaf: 64 leaves of 64 hosts, leaf l on port
  // l. Each leaf is two blocks of 32 with one group: 64 uniform groups, 64
  // entries, plus entry 0 (the empty group) = 65; before compact, 128 blocks
  // of 32 written (4,096) + 1.
  RouteTable spine;
  for (uint32_t h = 0; h < 4096; ++h)
    spine.set(h, std::vector{PortIndex(static_cast<uint16_t>(h / 64))});
  EXPECT_EQ(spine.stored_entries(), 4096u + 1u);
  spine.compact();
  EXPECT_EQ(spine.stored_entries(), 65u);
  EXPECT_EQ(spine.lookup(4095)[0], PortIndex(63));
  EXPECT_EQ(spine.lookup(64)[0], PortIndex(1));
  // Leaf 1 of it: hosts 64 - 127 on ports 0 - 63, the rest over 64 uplinks
  // (ports 64 - 127, one group). Blocks 2 and 3 are mixed (each host its own
  // port) and differ: 64 entries; the uplink group is one uniform entry; +
  // entry 0 = 66.
  RouteTable leaf;
  std::vector<PortIndex> up;
  for (uint16_t p = 64; p < 128; ++p) up.push_back(PortIndex(p));
  for (uint32_t h = 0; h < 4096; ++h) {
    if (h / 64 == 1) {
      leaf.set(h, std::vector{PortIndex(static_cast<uint16_t>(h - 64))});
    } else {
      leaf.set(h, up);
    }
  }
  leaf.compact();
  EXPECT_EQ(leaf.stored_entries(), 66u);
  EXPECT_EQ(leaf.lookup(100)[0], PortIndex(36));
  EXPECT_EQ(leaf.lookup(3000).size(), 64u);
  // Two leaves' blocks with the same content share one copy: 32 destinations
  // to ports 0, 1, 0, 1, ... in blocks 0 and 5, uniform elsewhere (none).
  RouteTable alt;
  for (uint32_t h = 0; h < 32; ++h)
    alt.set(h, std::vector{PortIndex(static_cast<uint16_t>(h % 2))});
  for (uint32_t h = 160; h < 192; ++h)
    alt.set(h, std::vector{PortIndex(static_cast<uint16_t>(h % 2))});
  alt.compact();
  EXPECT_EQ(alt.stored_entries(), 1u + 32u);  // entry 0, one shared mixed block
  EXPECT_EQ(alt.lookup(161)[0], PortIndex(1));
  EXPECT_TRUE(alt.lookup(100).empty());
}

}  // namespace
}  // namespace xoff::models
