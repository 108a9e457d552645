// The AI cluster pieces end to end: the rail topology and oversubscription
// keys, servers with NVLink, hierarchical allreduce, host ranges, and
// workloads from files (xoff's format and ASTRA-sim's DATA text), with their
// errors at file:line:col.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/config/error.h"
#include "app/run/runner.h"
#include "app/scenario/scenario.h"
#include "app/scenario/workload_file.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

// 2 servers x 4 GPUs on a rail fabric: rail g has one leaf (both servers),
// 400G links; oversubscription 1 gives 2 spines (2 x 400G down / 400G each).
constexpr const char* kRail = R"([scenario]
name = "rail_test"
duration = "20ms"
[topology]
kind = "rail"
servers = 2
gpus_per_server = 4
servers_per_leaf = 2
oversubscription = 1
host_rate = "400Gbps"
host_delay = "500ns"
[buffer]
size = "32MB"
headroom = "256KiB"
[nic]
mtu = "4096B"
)";

class AiClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("xoff_ai_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
         "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  RunOutcome run(const std::string& text) {
    RunArgs a;
    a.scenario = write("s.toml", text);
    a.no_output = true;
    a.quiet = true;
    a.print_summary = false;
    return run_scenario(a);
  }
  std::string error_of(const std::string& text) {
    try {
      (void)load_scenario(write("bad.toml", text), {});
    } catch (const config::ScenarioError& e) {  // and ScenarioErrors
      return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return "";
  }
  std::string workload_error(const std::string& text, const char* format) {
    try {
      (void)read_workload_file(write("w.txt", text), format, sim::Duration::ns(1));
    } catch (const config::ScenarioError& e) {
      return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return "";
  }
  fs::path dir_;
};

TEST_F(AiClusterTest, RailKeysBuildTheFabricAndOversubscriptionGivesTheSpines) {
  const ScenarioConfig s = load_scenario(write("s.toml", kRail), {});
  // 4 rail leaves + 2 spines + 8 hosts; 8 host links + 4 x 2 uplinks.
  EXPECT_EQ(s.topology.nodes.size(), 14u);
  EXPECT_EQ(s.topology.links.size(), 16u);
  EXPECT_EQ(s.gpus_per_server, 4u);
  EXPECT_EQ(s.nvlink.gpus_per_server, 4u);
  EXPECT_EQ(s.nvlink.rate.count(), 3'600'000'000'000);  // H100 NVLink 4 default
  // 2 x 400G / (3 x 400G) is not a whole number of spines for ratio 1.5.
  std::string bad = kRail;
  bad.replace(bad.find("oversubscription = 1"), 20, "oversubscription = 1.5");
  const std::string e = error_of(bad);
  EXPECT_NE(e.find("topology.oversubscription"), std::string::npos) << e;
  EXPECT_NE(e.find("whole number"), std::string::npos) << e;
}

TEST_F(AiClusterTest, SpinesAndOversubscriptionTogetherAreRefused) {
  std::string bad = kRail;
  bad.replace(bad.find("oversubscription = 1"), 20, "oversubscription = 1\nspines = 2");
  const std::string e = error_of(bad);
  EXPECT_NE(e.find("both set"), std::string::npos) << e;
}

// Hierarchical allreduce of 8e6 B: phase 0 is a ring reduce-scatter over
// NVLink inside each server, 3 steps of 2e6 B: 2e6 x 8 / 3.6e12 s =
// 4.444445 us (rounded up to the ps) + 1 us latency each. Phase 1: 4 rail
// rings of 2 ranks over RoCE; phase 2 the all-gather, as phase 0.
TEST_F(AiClusterTest, HierarchicalAllReduceRunsNvlinkPhasesAroundTheRailRings) {
  const RunOutcome o = run(std::string(kRail) + R"(
[[collective]]
name = "ar"
algorithm = "hierarchical"
hosts = "h0..h7"
size = "8MB"
)");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.collectives.size(), 1u);
  const auto& c = o.data.collectives[0];
  EXPECT_EQ(c.algorithm, "hierarchical");
  ASSERT_EQ(c.step_times.size(), 3u + 2u + 3u);
  for (int k : {0, 1, 2, 5, 6, 7}) EXPECT_EQ(c.step_times[k].count_ps(), 5'444'445) << k;
  // Ideal: 2 x 3/4 x 8e6 x 8 / 3.6e12 = 26.666667 us (NVLink, both phases)
  // + 2 x 1/2 x (8e6 / 4) x 8 / 400e9 = 40 us (rails).
  EXPECT_EQ(c.ideal.count_ps(), 26'666'667 + 40'000'000);
  EXPECT_GT((c.finish - c.start).count_ps(), c.ideal.count_ps());
  size_t nvlink = 0, roce = 0;
  for (const auto& f : o.data.flows) {
    EXPECT_TRUE(f.finished());
    (f.protocol == "nvlink" ? nvlink : roce) += 1;
  }
  EXPECT_EQ(nvlink, 2u * 4 * 3 * 2);  // servers x ranks x steps x two phases
  EXPECT_EQ(roce, 4u * 2 * 2);        // rails x ranks x steps
}

TEST_F(AiClusterTest, HierarchicalNeedsWholeServers) {
  const std::string e = error_of(std::string(kRail) + R"(
[[collective]]
algorithm = "hierarchical"
hosts = "h0..h5"
size = "8MB"
)");
  EXPECT_NE(e.find("whole servers"), std::string::npos) << e;
  const std::string back = error_of(std::string(kRail) + R"(
[[collective]]
hosts = "h5..h1"
size = "8MB"
)");
  EXPECT_NE(back.find("runs backwards"), std::string::npos) << back;
}

// An all-to-all over 2 servers x 4 GPUs sends S/8 to each peer: the 3 in
// its own server over NVLink, the 4 in the other over RoCE, at once. Ideal:
// max(4/8 x 4e6 x 8 / 400e9, 3/8 x 4e6 x 8 / 3.6e12) = max(40, 3.33) us.
TEST_F(AiClusterTest, AnAllToAllReachesItsServersPeersOverNvlink) {
  const RunOutcome o = run(std::string(kRail) + R"(
[[collective]]
name = "a2a"
op = "all_to_all"
hosts = "all"
size = "4MB"
)");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.collectives.size(), 1u);
  EXPECT_EQ(o.data.collectives[0].ideal.count_ps(), 40'000'000);
  int nvlink = 0, roce = 0;
  for (const auto& f : o.data.flows) {
    EXPECT_EQ(f.size_bytes, 500'000);
    const bool same_server = f.src_host / 4 == f.dst_host / 4;
    EXPECT_EQ(f.protocol, same_server ? "nvlink" : "roce") << f.name;
    (same_server ? nvlink : roce)++;
  }
  EXPECT_EQ(nvlink, 8 * 3);
  EXPECT_EQ(roce, 8 * 4);
}

// Two jobs on one fabric: 4 servers x 4 GPUs on 4 rail leaves (4 servers
// each) with one spine (oversubscription 4: one 400G uplink per leaf). Job A
// (servers 0, 1) alone: an all-to-all of 4 MB sends 0.5 MB to each of 7
// peers; the 3 in other rails and the other server cross the spine, so each
// leaf's uplink carries 2 GPUs x 3 x 0.5 MB = 3 MB = 60 us at 400G. With job
// B (servers 2, 3) at the same time the uplinks carry 6 MB: about 120 us.
TEST_F(AiClusterTest, TwoJobsShareTheFabricAndSlowEachOtherDown) {
  const std::string fabric = R"([scenario]
name = "two_jobs"
duration = "20ms"
[topology]
kind = "rail"
servers = 4
gpus_per_server = 4
servers_per_leaf = 4
oversubscription = 4
host_rate = "400Gbps"
host_delay = "500ns"
[buffer]
size = "32MB"
headroom = "256KiB"
[nic]
mtu = "4096B"
)";
  const std::string job_a = R"(
[[collective]]
name = "a"
op = "all_to_all"
hosts = "h0..h7"
size = "4MB"
)";
  const std::string job_b = R"(
[[collective]]
name = "b"
op = "all_to_all"
hosts = "h8..h15"
size = "4MB"
)";
  const RunOutcome alone = run(fabric + job_a);
  const RunOutcome both = run(fabric + job_a + job_b);
  ASSERT_EQ(alone.exit_code, 0);
  ASSERT_EQ(both.exit_code, 0);
  ASSERT_EQ(alone.data.collectives.size(), 1u);
  ASSERT_EQ(both.data.collectives.size(), 2u);
  const double t_alone =
      (alone.data.collectives[0].finish - alone.data.collectives[0].start).to_us();
  EXPECT_GE(t_alone, 60.0);
  EXPECT_LT(t_alone, 90.0);
  for (const auto& c : both.data.collectives) {
    const double t = (c.finish - c.start).to_us();
    EXPECT_GE(t, 120.0) << c.name;
    EXPECT_LT(t, 180.0) << c.name;
  }
}

// chunk_size pipelines trees and ring-type schedules; elsewhere it would be
// silently ignored, so it is refused at its position.
TEST_F(AiClusterTest, ChunkSizeIsRefusedWhereItHasNoEffect) {
  const std::string e = error_of(std::string(kRail) + R"(
[[collective]]
hosts = "all"
size = "8MB"
algorithm = "halving_doubling"
chunk_size = "128KB"
)");
  EXPECT_NE(e.find("bad.toml:22:14: error: collective[0].chunk_size applies to ring, "
                   "reduce_scatter, all_gather and tree, not halving_doubling"),
            std::string::npos)
      << e;
}

// A workload: compute 30 us, an all-to-all within each rail, compute 20 us,
// an allreduce in each server (NVLink), twice. Each iteration holds both
// computes: 50 us of waiting on the critical path, and the iteration takes
// at least that plus both collectives' ideal times.
TEST_F(AiClusterTest, AnXoffWorkloadRunsItsStepsInOrderEveryIteration) {
  write("job.txt", R"(# a toy step
compute 30us
all_to_all 4MB group=rail   # expert dispatch
compute 20us
allreduce 8MB group=server
)");
  const RunOutcome o = run(std::string(kRail) + R"(
[[collective]]
name = "job"
hosts = "all"
workload = "job.txt"
iterations = 2
)");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.collectives.size(), 2u);
  for (const auto& c : o.data.collectives) {
    EXPECT_EQ(c.op, "workload");
    EXPECT_EQ(c.size_bytes, 12'000'000);
    // all_to_all in a rail of 2: 1 step; allreduce ring in a server of 4: 6.
    EXPECT_EQ(c.step_times.size(), 7u);
    EXPECT_EQ(c.path_wait.count_ps(), 50'000'000);
    // Ideal: 50 us + 1/2 x 4e6 x 8 / 400e9 (40 us) + 2 x 3/4 x 8e6 x 8 / 3.6e12 (26.666667 us).
    EXPECT_EQ(c.ideal.count_ps(), 50'000'000 + 40'000'000 + 26'666'667);
    EXPECT_GE((c.finish - c.start).count_ps(), c.ideal.count_ps());
    // Its two collectives: each starts after its compute (30 us after the
    // iteration, 20 us after the first), lasts at least its own ideal time,
    // and the last one ends the iteration.
    ASSERT_EQ(c.segments.size(), 2u);
    EXPECT_EQ(c.segments[0].op, "all_to_all");
    EXPECT_EQ(c.segments[0].group, "rail");
    EXPECT_EQ(c.segments[1].op, "allreduce");
    EXPECT_EQ(c.segments[1].size_bytes, 8'000'000);
    EXPECT_EQ(c.segments[0].start, c.start + sim::Duration::us(30));
    EXPECT_EQ(c.segments[1].start, c.segments[0].finish + sim::Duration::us(20));
    EXPECT_GE((c.segments[0].finish - c.segments[0].start).count_ps(), 40'000'000);
    EXPECT_GE((c.segments[1].finish - c.segments[1].start).count_ps(), 26'666'667);
    EXPECT_EQ(c.segments[1].finish, c.finish);
  }
  EXPECT_EQ(o.data.collectives[1].start, o.data.collectives[0].finish);
  // Flows: rail all-to-all 4 rails x 2 ranks x 1 + server allreduce 2 x 4 x 6, twice.
  EXPECT_EQ(o.data.flows.size(), 2u * (8 + 48));
}

// ASTRA-sim DATA text, 2 layers, cycle 1 ns: forward l0, l1 (no
// communication), then backward from l1: weight gradient (AllReduce 16e6 B),
// input gradient (AllGather 1e6 B), update; l0: weight gradient (AllReduce
// 8e6 B), update (no input gradient for the first layer).
TEST_F(AiClusterTest, AnAstraSimDataWorkloadBecomesItsTrainingLoop) {
  const auto steps = read_workload_file(write("a.txt", R"(DATA
2
l0  -1  1000 NONE 0  500 NONE 0  2000 ALLREDUCE 8000000  100
l1  -1  1100 NONE 0  600 ALLGATHER 1000000  2100 ALLREDUCE 16000000  110
)"),
                                        "astra", sim::Duration::ns(1));
  ASSERT_EQ(steps.size(), 7u);
  EXPECT_EQ(steps[0].compute.count_ps(), 1'000'000);  // fwd l0
  EXPECT_EQ(steps[1].compute.count_ps(), 1'100'000);  // fwd l1
  EXPECT_EQ(steps[2].compute.count_ps(), 2'100'000);  // wg l1
  EXPECT_EQ(steps[2].op, models::CollectiveOp::kAllReduce);
  EXPECT_EQ(steps[2].size.count(), 16'000'000);
  EXPECT_EQ(steps[3].compute.count_ps(), 600'000);  // ig l1
  EXPECT_EQ(steps[3].op, models::CollectiveOp::kAllGather);
  EXPECT_EQ(steps[4].compute.count_ps(), 110'000);  // update l1
  EXPECT_EQ(steps[4].size.count(), 0);
  EXPECT_EQ(steps[5].size.count(), 8'000'000);  // wg l0
  EXPECT_EQ(steps[6].compute.count_ps(), 100'000);
}

TEST_F(AiClusterTest, WorkloadErrorsNameFileLineAndColumn) {
  const std::string op = workload_error("compute 1us\nallredux 1MB\n", "xoff");
  EXPECT_NE(op.find("w.txt:2:1: error: step: \"allredux\" is not one of"), std::string::npos) << op;
  EXPECT_NE(op.find("did you mean \"allreduce\""), std::string::npos) << op;
  const std::string group = workload_error("allreduce 1MB group=pod\n", "xoff");
  EXPECT_NE(group.find("w.txt:1:21: error: group:"), std::string::npos) << group;
  const std::string size = workload_error("allreduce lots\n", "xoff");
  EXPECT_NE(size.find("w.txt:1:11: error: size:"), std::string::npos) << size;
  const std::string alg = workload_error("all_to_all 1MB algorithm=ring\n", "xoff");
  EXPECT_NE(alg.find("algorithm: \"ring\" is not one of direct"), std::string::npos) << alg;
  const std::string none = workload_error("compute 1ms\n", "xoff");
  EXPECT_NE(none.find("no collective step"), std::string::npos) << none;
  const std::string hybrid = workload_error("HYBRID_TRANSFORMER\n1\n", "astra");
  EXPECT_NE(hybrid.find("w.txt:1:1: error: parallelism: only the DATA"), std::string::npos)
      << hybrid;
  const std::string layers =
      workload_error("DATA\n2\nl0 -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1\n", "astra");
  EXPECT_NE(layers.find("w.txt:2:1: error: layers: says 2 layers but the file describes 1"),
            std::string::npos)
      << layers;
  const std::string fields = workload_error("DATA\n1\nl0 -1 1 NONE 0\n", "astra");
  EXPECT_NE(fields.find("a layer has 12 fields"), std::string::npos) << fields;
  // A server group needs servers: a spine-leaf without gpus_per_server.
  write("job.txt", "allreduce 1MB group=server\n");
  const std::string noservers = error_of(R"([scenario]
name = "x"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 4
host_rate = "100Gbps"
[[collective]]
hosts = "all"
workload = "job.txt"
)");
  EXPECT_NE(noservers.find("gpus_per_server"), std::string::npos) << noservers;
}

}  // namespace
}  // namespace xoff::app
