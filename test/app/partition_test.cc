// How xoff-mpi splits a fabric (app/mpi/partition.h) and puts the parts'
// results together (app/mpi/merge.h). The end-to-end check, under a real
// mpirun, is test/mpi/mpi_test.sh.
#include "app/mpi/partition.h"

#include <gtest/gtest.h>

#include "app/mpi/merge.h"

namespace xoff::app {
namespace {

models::Topology fabric() {
  models::SpineLeafConfig c;
  c.leaves = 4;
  c.spines = 2;
  c.hosts_per_leaf = 4;
  c.host_rate = sim::BitsPerSecond(100'000'000'000);
  c.fabric_rate = sim::BitsPerSecond(100'000'000'000);
  c.host_delay = sim::Duration::ns(500);
  c.fabric_delay = sim::Duration::us(2);
  return models::spine_leaf(c);
}

TEST(Partition, LeavesKeepTheirHostsAndPartsBalance) {
  const models::Topology t = fabric();
  const Partition p = partition_fabric(t, 2);
  // Every host is in its leaf's part.
  for (const models::LinkSpec& l : t.links) {
    const bool host_link = t.nodes[l.a].kind == models::NodeKind::kHost ||
                           t.nodes[l.b].kind == models::NodeKind::kHost;
    if (host_link) {
      EXPECT_EQ(p.owner[l.a], p.owner[l.b]);
    }
  }
  // 16 hosts in 4 leaves of 4: two leaves (8 hosts) each.
  EXPECT_EQ(p.hosts_per_part(t), (std::vector<uint32_t>{8, 8}));
  // Only leaf-spine links cross (2 us), never a 500 ns host link.
  EXPECT_EQ(p.lookahead, sim::Duration::us(2));
  // Each leaf has 2 uplinks; with the 2 spines in some part, the leaves of the
  // other part cross on both: at least 2 leaves x 2 uplinks.
  EXPECT_GE(p.crossing_links, 4u);
  EXPECT_LE(p.crossing_links, 8u);
}

TEST(Partition, OnePartCrossesNothingAndMorePartsThanGroupsLeaveSomeEmpty) {
  const models::Topology t = fabric();
  const Partition one = partition_fabric(t, 1);
  EXPECT_EQ(one.crossing_links, 0u);
  EXPECT_EQ(one.lookahead, sim::Duration::infinite());
  const Partition three = partition_fabric(t, 3);
  uint32_t hosts = 0;
  for (uint32_t h : three.hosts_per_part(t)) {
    EXPECT_EQ(h % 4, 0u);  // whole leaves only
    hosts += h;
  }
  EXPECT_EQ(hosts, 16u);
}

// METIS on the same fabric: leaves keep their hosts, the parts balance within
// METIS's 3 % default imbalance, and the cut is no worse than the contiguous one.
TEST(Partition, MetisKeepsGroupsWholeAndBalances) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS (apt install libmetis-dev)";
  const models::Topology t = fabric();
  const Partition m = partition_fabric(t, 2, PartitionMethod::kMetis);
  EXPECT_STREQ(m.method, "metis");
  for (const models::LinkSpec& l : t.links) {
    if (t.nodes[l.a].kind == models::NodeKind::kHost ||
        t.nodes[l.b].kind == models::NodeKind::kHost) {
      EXPECT_EQ(m.owner[l.a], m.owner[l.b]);
    }
  }
  // Groups weigh 5 (a leaf and its 4 hosts) and 1 (a spine): 22 in all, so
  // the parts can be 11 and 11 at best; 2 leaves each is the only split that
  // keeps them within 3 %.
  EXPECT_EQ(m.hosts_per_part(t), (std::vector<uint32_t>{8, 8}));
  const Partition c = partition_fabric(t, 2);
  EXPECT_LE(m.crossing_links, c.crossing_links);
  // The same input, the same answer (every process computes it alone).
  EXPECT_EQ(partition_fabric(t, 2, PartitionMethod::kMetis).owner, m.owner);
}

TEST(Merge, FlowsFromTheSourcesPartCountersSummedSeriesAdded) {
  const models::Topology t = fabric();
  const Partition p = partition_fabric(t, 2);
  const uint32_t h0 = 0;    // host 0 (leaf 0, part 0)
  const uint32_t h15 = 15;  // host 15 (leaf 3, part 1)
  ASSERT_EQ(p.owner[t.host_node(h0)], 0);
  ASSERT_EQ(p.owner[t.host_node(h15)], 1);
  std::vector<analysis::RunData> parts(2);
  for (int k = 0; k < 2; ++k) {
    analysis::RunData& d = parts[static_cast<size_t>(k)];
    d.meta.events = 100 + static_cast<uint64_t>(k);
    d.meta.fingerprint = 0xFFFF'FFFF'FFFF'FFF0ULL + static_cast<uint64_t>(k) * 0x20;
    // Each part holds a record of both flows; only the source's part is real.
    models::FlowRecord f1;
    f1.flow_id = 1;
    f1.src_host = h15;
    f1.state = k == 1 ? models::FlowRecord::State::kFinished : models::FlowRecord::State::kRunning;
    models::FlowRecord f0;
    f0.flow_id = 0;
    f0.src_host = h0;
    f0.state = k == 0 ? models::FlowRecord::State::kFinished : models::FlowRecord::State::kRunning;
    d.flows = {f1, f0};
    models::QueueCounters q;
    q.node = t.nodes[t.host_node(h0)].name;
    q.tx_packets = 10 * (k + 1);
    q.peak_bytes = 1000 * (2 - k);
    d.queues.push_back(q);
    d.series.push_back({"s", "bytes", {0, 1000}, {k == 0 ? 1.5 : 0.0, k == 1 ? 2.5 : 0.0}});
  }
  const analysis::RunData m = merge_parts(parts, p, t);
  EXPECT_EQ(m.meta.events, 201u);
  // (2^64 - 16) + ((2^64 - 16 + 32) mod 2^64 = 16) = 2^64 = 0 modulo 2^64
  EXPECT_EQ(m.meta.fingerprint, 0u);
  ASSERT_EQ(m.flows.size(), 2u);
  EXPECT_EQ(m.flows[0].flow_id, 0u);  // canonical order: by id
  EXPECT_TRUE(m.flows[0].finished());
  EXPECT_TRUE(m.flows[1].finished());
  ASSERT_EQ(m.queues.size(), 1u);
  EXPECT_EQ(m.queues[0].tx_packets, 30);    // 10 + 20
  EXPECT_EQ(m.queues[0].peak_bytes, 2000);  // the maximum, not the sum
  EXPECT_EQ(m.series[0].value, (std::vector<double>{1.5, 2.5}));
}

}  // namespace
}  // namespace xoff::app
