// The command's contract: bad input is exit 2 with a positioned message and no
// file written; the same scenario and seed give the same results.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "analysis/results/h5_reader.h"
#include "app/commands/commands.h"
#include "app/run/estimate.h"
#include "app/run/runner.h"
#include "app/scenario/scenario.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("xoff_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  RunArgs args(const std::string& scenario) {
    RunArgs a;
    a.scenario = scenario;
    a.output = (dir_ / "out.h5").string();
    a.quiet = true;
    a.print_summary = false;
    return a;
  }
  fs::path dir_;
};

const char* kGood = R"([scenario]
name = "tiny"
duration = "200us"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 1
host_rate = "100Gbps"
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "100KB"
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST_F(CliTest, GoodScenarioRunsAndWritesResults) {
  EXPECT_EQ(cmd_run(args(write("good.toml", kGood))), 0);
  EXPECT_TRUE(fs::exists(dir_ / "out.h5"));
  const auto data = analysis::read_results((dir_ / "out.h5").string());
  ASSERT_EQ(data.flows.size(), 1u);
  // FCT ends when the last ACK is back. Every frame takes 20 B more of wire
  // (preamble 7, SFD 1, inter-frame gap 12). Data: 100 segments of 1062 B,
  // 1082 B on the wire at 100G = 86.56 ns each, 8.656 us from h0; the last one
  // is stored and forwarded by leaf0, spine0 and leaf1 (3 x 86.56 ns) and
  // crosses 4 links of 1 us: 8.656 + 0.25968 + 4 = 12.91568 us. ACK: 66 + 20 B
  // = 6.88 ns per hop, 4 hops and 4 us: 4.02752 us. FCT = 16.9432 us.
  EXPECT_NEAR((data.flows[0].finish - data.flows[0].start).to_us(), 16.9432, 1e-6);
  // Alone on an idle path the flow is its own ideal: slowdown 1.
  EXPECT_EQ(data.flows[0].ideal_fct, data.flows[0].finish - data.flows[0].start);
}

// A collective's steps are planned as they become ready, so the memory
// estimate counts the flows a run cut at its duration can reach. Ring
// AllReduce over 64 ranks of 6.4 MB at 100 Gb/s: ideal 2 x 63/64 x 6.4e6 B
// x 8 / 1e11 b/s = 1,008 us; 2 x 63 steps x 64 ranks = 8,064 flows. Cut at
// 100 us: 8,064 x 100 / 1,008 = 800 finished at most, plus a step of each
// of the 64 ranks under way: 864. Run to 2 ms (past the ideal): all 8,064.
TEST_F(CliTest, MemoryEstimateCountsTheCollectiveFlowsARunReaches) {
  const std::string path = write("ring.toml", R"([scenario]
name = "ring"
duration = "100us"
[topology]
kind = "spine_leaf"
leaves = 8
spines = 4
hosts_per_leaf = 8
host_rate = "100Gbps"
fabric_rate = "100Gbps"
[[collective]]
name = "ar"
algorithm = "ring"
hosts = "all"
size = "6400KB"
)");
  EXPECT_EQ(estimate_memory(load_scenario(path, {})).flows, 864u);
  EXPECT_EQ(estimate_memory(load_scenario(path, {"scenario.duration=2ms"})).flows, 8064u);
}

// topology.wire_overhead = "0B" leaves preamble, SFD and gap out: the same
// path with 1062 B and 66 B on the wire: 100 x 84.96 ns + 3 x 84.96 ns + 4 us
// + 4 x 5.28 ns + 4 us = 8.496 + 0.25488 + 4 + 0.02112 + 4 = 16.772 us.
TEST_F(CliTest, WireOverheadCanBeLeftOut) {
  const std::string text =
      replace(kGood, "host_rate = \"100Gbps\"", "host_rate = \"100Gbps\"\nwire_overhead = \"0B\"");
  EXPECT_EQ(cmd_run(args(write("bare.toml", text))), 0);
  const auto data = analysis::read_results((dir_ / "out.h5").string());
  ASSERT_EQ(data.flows.size(), 1u);
  EXPECT_NEAR((data.flows[0].finish - data.flows[0].start).to_us(), 16.772, 1e-6);
  EXPECT_EQ(data.flows[0].ideal_fct, data.flows[0].finish - data.flows[0].start);
  // More than 64 B is no Ethernet: refused at its position.
  const std::string bad = replace(text, "wire_overhead = \"0B\"", "wire_overhead = \"65B\"");
  EXPECT_EQ(cmd_run(args(write("bad.toml", bad))), 2);
  EXPECT_FALSE(fs::exists(dir_ / "bad.h5"));
}

TEST_F(CliTest, IdealFctIsExactForAPartialLastSegment) {
  // 14600 B = 14 full segments + 600 B: each switch still holds the short last
  // frame behind a full one, so the lone flow's slowdown is exactly 1.
  RunArgs a = args(write("p.toml", replace(kGood, "\"100KB\"", "\"14600B\"")));
  ASSERT_EQ(cmd_run(a), 0);
  const auto data = analysis::read_results(a.output);
  ASSERT_EQ(data.flows.size(), 1u);
  EXPECT_EQ(data.flows[0].ideal_fct, data.flows[0].finish - data.flows[0].start);
}

TEST_F(CliTest, UnitErrorIsExitTwoWithPositionAndNothingWritten) {
  const std::string f = write("bad.toml", replace(kGood, "\"100Gbps\"", "\"100G\""));
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(f)), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("bad.toml:9:13: error: topology.host_rate: expected a rate like \"100Gbps\""),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("rate of zero"), std::string::npos) << "no follow-on errors: " << err;
  // Nothing written: the directory holds only the scenario.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(CliTest, UnknownKeySuggestsTheNearestKnownOne) {
  const std::string f = write("typo.toml", std::string(kGood) + "[ecn]\nkmni = \"5KB\"\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(f)), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("typo.toml:15:1: error: ecn: unknown key \"kmni\" (did you mean \"kmin\"?)"),
            std::string::npos)
      << err;
}

TEST_F(CliTest, CrossFieldErrorNamesBothKeys) {
  const std::string f =
      write("k.toml", std::string(kGood) + "[ecn]\nkmin = \"300KB\"\nkmax = \"200KB\"\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(f)), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("k.toml:15:8: error: ecn.kmin (300KB) must not exceed ecn.kmax (200KB)"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("switch configuration"), std::string::npos) << "reported once: " << err;
}

TEST_F(CliTest, UnknownHostAndMissingFileAreBadInput) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(write("h.toml", replace(kGood, "dst = \"h1\"", "dst = \"h9\"")))), 2);
  EXPECT_EQ(cmd_run(args((dir_ / "missing.toml").string())), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("unknown host \"h9\""), std::string::npos) << err;
  EXPECT_NE(err.find("cannot open scenario file"), std::string::npos) << err;
}

TEST_F(CliTest, EmptyNamesAndHugeBuffersAreRefusedNotAborted) {
  // Found by the mutation test: an empty host name silently meant h0 and then
  // broke an invariant; a headroom of 2^63 - 1 B overflowed the pool check.
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(write("e.toml", replace(kGood, "dst = \"h1\"", "dst = \"\"")))), 2);
  EXPECT_EQ(cmd_run(args(write(
                "b.toml", std::string(kGood) + "[buffer]\nheadroom = \"9223372036854775807B\"\n"))),
            2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("e.toml:12:7: error: traffic.flow[0].dst: must name a host"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("buffer.headroom"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_ / "out.h5"));
}

TEST_F(CliTest, GeneratorInputTheModelsWouldRefuseIsRefusedWithAPosition) {
  const std::string f =
      write("c.toml", std::string(kGood) +
                          "[[collective]]\nhosts = [\"h0\", \"h0\"]\nsize = \"1MB\"\n"
                          "[[traffic.rpc]]\nclient = \"h1\"\nserver = \"h1\"\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cmd_run(args(f)), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("c.toml:15:9: error: collective[0].hosts: host \"h0\" is listed twice"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("traffic.rpc[0].server must differ from traffic.rpc[0].client"),
            std::string::npos)
      << err;
}

TEST_F(CliTest, SameScenarioAndSeedGiveIdenticalResults) {
  const std::string scenario = std::string(XOFF_SOURCE_DIR) + "/scenarios/ecn_tradeoff.toml";
  RunArgs a = args(scenario);
  a.overrides = {"scenario.duration=1ms"};
  a.output = (dir_ / "a.h5").string();
  ASSERT_EQ(cmd_run(a), 0);
  a.output = (dir_ / "b.h5").string();
  ASSERT_EQ(cmd_run(a), 0);
  a.seed = 99;
  a.output = (dir_ / "c.h5").string();
  ASSERT_EQ(cmd_run(a), 0);
  const auto ra = analysis::read_results((dir_ / "a.h5").string());
  const auto rb = analysis::read_results((dir_ / "b.h5").string());
  const auto rc = analysis::read_results((dir_ / "c.h5").string());
  EXPECT_EQ(ra.meta.fingerprint, rb.meta.fingerprint);
  EXPECT_EQ(ra.meta.events, rb.meta.events);
  ASSERT_EQ(ra.flows.size(), rb.flows.size());
  for (size_t i = 0; i < ra.flows.size(); ++i) {
    EXPECT_EQ(ra.flows[i].finish, rb.flows[i].finish);
    EXPECT_EQ(ra.flows[i].size_bytes, rb.flows[i].size_bytes);
  }
  ASSERT_EQ(ra.series.size(), rb.series.size());
  for (size_t i = 0; i < ra.series.size(); ++i) EXPECT_EQ(ra.series[i].value, rb.series[i].value);
  // Another seed draws other Poisson arrivals: another run.
  EXPECT_NE(ra.meta.fingerprint, rc.meta.fingerprint);
}

TEST_F(CliTest, MonitoringSettingsDoNotChangeTheFingerprint) {
  // Sampling and deadlock detection only read the fabric: more or fewer
  // samples, or none, leave the physics and its fingerprint as they are,
  // while a physics change (the buffer) does change it.
  RunArgs a = args(std::string(XOFF_SOURCE_DIR) + "/scenarios/demo.toml");
  a.no_output = true;
  auto fingerprint = [&](std::vector<std::string> o) {
    a.overrides = o;
    a.overrides.push_back("scenario.duration=1ms");
    const RunOutcome r = run_scenario(a);
    EXPECT_EQ(r.exit_code, 0);
    return r.data.meta.fingerprint;
  };
  const uint64_t base = fingerprint({});
  EXPECT_EQ(fingerprint({"monitor.sample_interval=1us"}), base);
  EXPECT_EQ(fingerprint({"monitor.sample_interval=50us"}), base);
  EXPECT_EQ(fingerprint({"monitor.deadlock=false"}), base);
  EXPECT_NE(fingerprint({"buffer.alpha=0.25"}), base);
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(CliTest, ReproducibleRunsWriteByteIdenticalFiles) {
  RunArgs a = args(std::string(XOFF_SOURCE_DIR) + "/scenarios/deadlock_ring.toml");
  a.reproducible = true;
  a.output = (dir_ / "a.h5").string();
  ASSERT_EQ(cmd_run(a), 0);
  a.output = (dir_ / "b.h5").string();
  ASSERT_EQ(cmd_run(a), 0);
  const std::string x = bytes_of(dir_ / "a.h5"), y = bytes_of(dir_ / "b.h5");
  EXPECT_GT(x.size(), 10'000u);
  EXPECT_TRUE(x == y) << "results files differ";
}

TEST_F(CliTest, EveryBundledScenarioPassesCheck) {
  CheckArgs c;
  for (const auto& e : fs::directory_iterator(std::string(XOFF_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() == ".toml") c.scenarios.push_back(e.path().string());
  }
  ASSERT_GE(c.scenarios.size(), 7u);
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(cmd_check(c), 0);
  ::testing::internal::GetCapturedStdout();
}

}  // namespace
}  // namespace xoff::app
