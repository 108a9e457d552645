// Flow lists from files ([[traffic.file]], app/scenario/flow_file.h): CSV and
// the HPCC simulator's flow.txt, their errors at file:line:col, and a
// 10,000-flow file run to completion.
#include "app/scenario/flow_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/results/h5_reader.h"
#include "app/commands/commands.h"
#include "app/config/error.h"
#include "app/run/runner.h"
#include "app/scenario/scenario.h"
#include "app/scenario/topology_file.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;
using namespace sim::literals;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// Runs a scenario in-process, no output file, no terminal output.
RunOutcome run_quiet(const std::string& scenario) {
  RunArgs a;
  a.scenario = scenario;
  a.no_output = true;
  a.quiet = true;
  a.print_summary = false;
  return run_scenario(a);
}

models::Topology four_hosts() {
  models::SpineLeafConfig c;
  c.leaves = 2;
  c.spines = 1;
  c.hosts_per_leaf = 2;
  c.host_rate = 100_Gbps;
  c.fabric_rate = 100_Gbps;
  c.host_delay = 1_us;
  c.fabric_delay = 1_us;
  return models::spine_leaf(c);
}

class FlowFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("xoff_flowfile_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Runs the bundled pfc_storm with results in the test directory; their path.
  std::string run_storm() {
    RunArgs a;
    a.scenario = std::string(XOFF_SOURCE_DIR) + "/scenarios/pfc_storm.toml";
    a.output = (dir_ / "storm.h5").string();
    a.quiet = true;
    a.print_summary = false;
    EXPECT_EQ(run_scenario(a).exit_code, 0);
    return a.output;
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  // The error's text for a file that must be refused.
  std::string error_of(const std::string& name, const std::string& text, const char* fmt) {
    try {
      (void)read_flow_file(write(name, text), fmt, four_hosts(), {}, "f");
    } catch (const config::ScenarioError& e) {
      return e.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return "";
  }
  fs::path dir_;
};

TEST_F(FlowFileTest, CsvTakesNamesOrOrdinalsUnitsAndDefaults) {
  models::FlowClass defaults;
  defaults.protocol = models::Protocol::kRoce;
  defaults.tc = 3;
  defaults.pcp = 3;
  defaults.dscp = 24;
  const auto p = read_flow_file(write("f.csv",
                                      "# a comment\n"
                                      "src, dst, size, start, protocol, class, name\n"
                                      "h0, h3, 64KB, 10us, roce, 3, first\n"
                                      "\n"
                                      "2, 1, 1000, 0, tcp, 0,\n"),
                                "csv", four_hosts(), defaults, "list");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].spec.src, 0u);
  EXPECT_EQ(p[0].spec.dst, 3u);
  EXPECT_EQ(p[0].spec.size.count(), 64'000);  // KB is decimal, as in scenarios
  EXPECT_EQ(p[0].spec.start, sim::Time::zero() + 10_us);
  EXPECT_EQ(p[0].spec.name, "first");
  EXPECT_EQ(p[0].spec.tc, 3);
  EXPECT_EQ(p[1].spec.src, 2u);
  EXPECT_EQ(p[1].spec.dst, 1u);
  EXPECT_EQ(p[1].spec.size.count(), 1000);  // a bare integer is bytes
  EXPECT_EQ(p[1].spec.protocol, models::Protocol::kTcp);
  EXPECT_EQ(p[1].spec.tc, 0);
  EXPECT_EQ(p[1].spec.dscp, 0);
  EXPECT_EQ(p[1].spec.name, "list/1");  // empty name: prefix/row
  // Columns a file leaves out take the table's defaults.
  const auto q = read_flow_file(write("g.csv", "src,dst,size\nh1,h2,1MB\n"), "csv", four_hosts(),
                                defaults, "g");
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].spec.tc, 3);
  EXPECT_EQ(q[0].spec.dscp, 24);
  EXPECT_EQ(q[0].spec.start, sim::Time::zero());
}

TEST_F(FlowFileTest, HpccFlowTxtMapsPriorityAndSeconds) {
  // HPCC's format: count, then `src dst priority dport size start_s`.
  const auto p = read_flow_file(write("flow.txt",
                                      "2\n"
                                      "0 3 3 100 1000000 2.000001\n"
                                      "1   2 0 100 500 2.0000015\n"),
                                "hpcc", four_hosts(), {}, "flow");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].spec.src, 0u);
  EXPECT_EQ(p[0].spec.dst, 3u);
  EXPECT_EQ(p[0].spec.tc, 3);
  EXPECT_EQ(p[0].spec.dscp, 24);
  EXPECT_EQ(p[0].spec.size.count(), 1'000'000);
  EXPECT_EQ(p[0].spec.start.count_ps(), 2'000'001'000'000);  // 2.000001 s
  EXPECT_EQ(p[1].spec.start.count_ps(), 2'000'001'500'000);
  EXPECT_EQ(p[1].spec.tc, 0);
  EXPECT_EQ(p[1].spec.name, "flow/1");
}

TEST_F(FlowFileTest, ErrorsNameFileLineAndColumn) {
  const std::string bad_host = error_of("a.csv", "src,dst,size\nh0,h9,1KB\n", "csv");
  EXPECT_NE(bad_host.find("a.csv:2:4: error: dst: no host named \"h9\""), std::string::npos)
      << bad_host;
  const std::string near = error_of("b.csv", "src,dst,size\nh0,H3x,1KB\n", "csv");
  EXPECT_NE(near.find("b.csv:2:4"), std::string::npos) << near;
  const std::string range = error_of("c.csv", "src,dst,size\n0,7,1KB\n", "csv");
  EXPECT_NE(range.find("c.csv:2:3: error: dst: host ordinal 7 is out of range"), std::string::npos)
      << range;
  const std::string size = error_of("d.csv", "src,dst,size\nh0,h1,lots\n", "csv");
  EXPECT_NE(size.find("d.csv:2:7: error: size:"), std::string::npos) << size;
  const std::string fields = error_of("e.csv", "src,dst,size\nh0,h1\n", "csv");
  EXPECT_NE(fields.find("e.csv:2:1: error: expected 3 fields"), std::string::npos) << fields;
  const std::string column = error_of("f.csv", "src,dst,sise\n", "csv");
  EXPECT_NE(column.find("f.csv:1:9: error: unknown column \"sise\" (did you mean \"size\"?)"),
            std::string::npos)
      << column;
  const std::string count = error_of("g.txt", "3\n0 1 3 100 1000 0\n", "hpcc");
  EXPECT_NE(count.find("announces 3 flows, the file has 1"), std::string::npos) << count;
  const std::string self = error_of("h.txt", "1\n2 2 3 100 1000 0\n", "hpcc");
  EXPECT_NE(self.find("h.txt:2:3: error: dst: must differ from src"), std::string::npos) << self;
  const std::string empty = error_of("sub", "", "csv");
  EXPECT_NE(empty.find("empty flow file"), std::string::npos) << empty;
  fs::remove(dir_ / "sub");  // now a directory
  fs::create_directories(dir_ / "sub");
  try {
    (void)read_flow_file((dir_ / "sub").string(), "csv", four_hosts(), {}, "x");
    ADD_FAILURE() << "a directory was accepted";
  } catch (const config::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos);
  }
}

TEST_F(FlowFileTest, TenThousandFlowsFromACsvAllFinish) {
  // 16 hosts; flow i: h(i % 16) -> h((i + 5) % 16), 1000 + i % 7 bytes,
  // starting every 100 ns (10,000 flows over 1 ms).
  std::ofstream f(dir_ / "flows.csv");
  f << "src,dst,size,start\n";
  int64_t total = 0;
  for (int i = 0; i < 10'000; ++i) {
    const int64_t size = 1000 + i % 7;
    total += size;
    f << "h" << i % 16 << ",h" << (i + 5) % 16 << "," << size << "," << i * 100 << "ns\n";
  }
  f.close();
  const std::string scen = write("s.toml", R"([scenario]
name = "flow_file_10k"
duration = "5ms"
[topology]
kind = "spine_leaf"
leaves = 4
spines = 2
hosts_per_leaf = 4
host_rate = "100Gbps"
[[traffic.file]]
path = "flows.csv"
class = 3
)");
  const RunOutcome o = run_quiet(scen);
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.flows.size(), 10'000u);
  int64_t delivered = 0;
  size_t finished = 0;
  for (const auto& fl : o.data.flows) {
    finished += fl.finished() ? 1 : 0;
    delivered += fl.size_bytes;
  }
  EXPECT_EQ(finished, 10'000u);
  // 10^7 + the sum of i % 7: 1428 whole cycles of 21, then 0 + 1 + 2 + 3.
  EXPECT_EQ(total, 10'000'000 + 1428 * 21 + 6);
  EXPECT_EQ(delivered, total);
}

TEST_F(FlowFileTest, HpccTopologyAndFlowTxtRunAsTheEquivalentSpineLeaf) {
  // HPCC's formats for h0 - leaf - spine - leaf - h1 (node ids: hosts 0, 1;
  // leaves 2, 3; spine 4), every link 100G and 1 us, one 100 KB flow at 0 s.
  write("topology.txt",
        "5 3 4\n"
        "2 3 4\n"
        "0 2 100Gbps 0.001ms 0\n"
        "1 3 100Gbps 0.001ms 0\n"
        "2 4 100Gbps 0.001ms 0\n"
        "3 4 100Gbps 0.001ms 0\n");
  write("flow.txt", "1\n0 1 3 100 100000 0\n");
  const std::string scen = write("s.toml", R"([scenario]
name = "hpcc_import"
duration = "200us"
[topology]
kind = "hpcc"
file = "topology.txt"
[[traffic.file]]
path = "flow.txt"
)");
  const RunOutcome o = run_quiet(scen);
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.flows.size(), 1u);
  ASSERT_TRUE(o.data.flows[0].finished());
  // The same path as CliTest.GoodScenarioRunsAndWritesResults: 100 segments
  // of 1062 B (1082 B on the wire) at 100G (8.656 us), store and forward at 3
  // switches (0.25968 us), 4 links of 1 us; the last ACK back in 4.02752 us:
  // 16.9432 us.
  EXPECT_NEAR((o.data.flows[0].finish - o.data.flows[0].start).to_us(), 16.9432, 1e-6);
  const auto t = read_hpcc_topology((dir_ / "topology.txt").string());
  ASSERT_EQ(t.nodes.size(), 5u);
  EXPECT_EQ(t.nodes[0].name, "h0");
  EXPECT_EQ(t.nodes[2].name, "sw2");
  EXPECT_EQ(t.nodes[2].tier, 1);  // next to a host
  EXPECT_EQ(t.nodes[4].name, "sw4");
  EXPECT_EQ(t.nodes[4].tier, 2);  // the spine
  // Refusals, positioned.
  auto refused = [&](const std::string& text, const std::string& want) {
    write("bad.txt", text);
    try {
      (void)read_hpcc_topology((dir_ / "bad.txt").string());
      ADD_FAILURE() << "accepted: " << text;
    } catch (const config::ScenarioError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  refused("3 1 2\n2\n0 2 100Gbps 1us 0\n", "bad.txt:3:18: error: the file ends where");
  refused("3 1 1\n2\n0 2 100Gbps 1us 0.01\n", "bad.txt:3:17: error: error rate 0.01");
  refused("3 1 1\n2\n0 2 100G 1us 0\n", "bad.txt:3:5: error: link rate");
  refused("3 1 1\n5\n", "bad.txt:2:1: error: expected a switch id");
  refused("3 1 1\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n", "more links than the 1");
}

TEST_F(FlowFileTest, HpccTextOutputsMatchTheResultsTables) {
  const std::string storm = run_storm();
  ExportArgs e;
  e.input = storm;
  e.output = (dir_ / "hpcc").string();
  ASSERT_EQ(cmd_export(e), 0);
  const auto d = analysis::read_results(storm);
  // fct.txt: one line per finished flow, in /flows order.
  std::ifstream fct(dir_ / "hpcc" / "fct.txt");
  std::vector<const models::FlowRecord*> done;
  for (const auto& f : d.flows) {
    if (f.finished()) done.push_back(&f);
  }
  size_t n = 0;
  for (std::string line; std::getline(fct, line); ++n) {
    ASSERT_LT(n, done.size());
    unsigned sip = 0, dip = 0, sport = 0, dport = 0;
    long long size = 0, start = 0, t = 0, ideal = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%x %x %u %u %lld %lld %lld %lld", &sip, &dip, &sport,
                          &dport, &size, &start, &t, &ideal),
              8)
        << line;
    const auto& f = *done[n];
    // HPCC's numbering: 0x0b000001 + (id / 256) << 16 + (id % 256) << 8.
    EXPECT_EQ(sip, 0x0b000001u + (f.src_host % 256) * 256);
    EXPECT_EQ(dip, 0x0b000001u + (f.dst_host % 256) * 256);
    EXPECT_EQ(size, f.size_bytes);
    EXPECT_EQ(start, f.start.count_ps() / 1000);
    EXPECT_EQ(t, (f.finish - f.start).count_ps() / 1000);
    EXPECT_EQ(ideal, f.ideal_fct.count_ps() / 1000);
  }
  EXPECT_EQ(n, done.size());
  EXPECT_EQ(n, 3u);  // the three victims finish; to_h0 does not (scenarios/README)
  // pfc.txt: one line per PFC frame received, pause (1) or resume (0).
  size_t received = 0;
  size_t pauses = 0;
  for (const auto& ev : d.pfc_events) {
    received += ev.sent ? 0 : 1;
    pauses += !ev.sent && ev.quanta > 0 ? 1 : 0;
  }
  std::ifstream pfc(dir_ / "hpcc" / "pfc.txt");
  size_t lines = 0;
  size_t one = 0;
  for (std::string line; std::getline(pfc, line); ++lines) {
    long long t = 0;
    unsigned node = 0, type = 0, ifindex = 0, kind = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld %u %u %u %u", &t, &node, &type, &ifindex, &kind), 5);
    EXPECT_GE(ifindex, 1u);  // ns-3 devices count from 1
    one += kind;
  }
  EXPECT_EQ(lines, received);
  EXPECT_EQ(one, pauses);
  EXPECT_GT(lines, 0u);
  // qlen.txt: pfc_storm probes leaf0's queues (class 3) on every port. leaf0
  // is switch 0, HPCC id 8 after the 8 hosts; a port's line counts its
  // samples by KB, so the counts add up to the series' length and the last
  // bucket holds the deepest sample.
  std::ifstream qlen(dir_ / "hpcc" / "qlen.txt");
  std::string head;
  std::getline(qlen, head);
  EXPECT_EQ(head, "time: " + std::to_string(d.meta.sim_time.count_ps() / 1000));
  size_t ports = 0;
  for (std::string line; std::getline(qlen, line); ++ports) {
    std::istringstream in(line);
    unsigned node = 0, ifindex = 0;
    in >> node >> ifindex;
    EXPECT_EQ(node, 8u) << line;
    std::vector<uint64_t> cnt;
    for (uint64_t c = 0; in >> c;) cnt.push_back(c);
    const analysis::SeriesData* s =
        d.find_series("queue_bytes/leaf0/p" + std::to_string(ifindex - 1) + "/tc3");
    ASSERT_NE(s, nullptr) << line;
    uint64_t total = 0;
    for (uint64_t c : cnt) total += c;
    EXPECT_EQ(total, s->value.size()) << line;
    const double deepest = *std::max_element(s->value.begin(), s->value.end());
    EXPECT_EQ(cnt.size(), static_cast<size_t>(deepest / 1000) + 1) << line;
    EXPECT_GT(cnt.back(), 0u) << line;
  }
  EXPECT_GT(ports, 0u);
  e.input = (dir_ / "missing.h5").string();
  EXPECT_EQ(cmd_export(e), 2);
}

TEST_F(FlowFileTest, ImportOfAnHpccConfigCarriesItsSettingsAndListsTheRest) {
  // HPCC's mix/ layout: a 25G-host spine-leaf, two flows at 2 s, DCQCN.
  write("topology.txt",
        "5 3 4\n2 3 4\n"
        "0 2 25Gbps 0.001ms 0\n1 3 25Gbps 0.001ms 0\n"
        "2 4 100Gbps 0.001ms 0\n3 4 100Gbps 0.001ms 0\n");
  write("flow.txt", "2\n0 1 3 100 200000 2.0\n1 0 3 100 100000 2.00001\n");
  const std::string dir = dir_.string();
  const std::string config =
      write("config.txt", "ENABLE_QCN 1\nPACKET_PAYLOAD_SIZE 1000\nTOPOLOGY_FILE " + dir +
                              "/topology.txt\nFLOW_FILE " + dir +
                              "/flow.txt\nSIMULATOR_STOP_TIME 2.01\nCC_MODE 1\n"
                              "ALPHA_RESUME_INTERVAL 55\nRATE_DECREASE_INTERVAL 4\nRP_TIMER 300\n"
                              "EWMA_GAIN 0.00390625\nFAST_RECOVERY_TIMES 1\nRATE_AI 5Mb/s\n"
                              "RATE_HAI 50Mb/s\nMIN_RATE 100Mb/s\nL2_ACK_INTERVAL 1\nHAS_WIN 0\n"
                              "ACK_HIGH_PRIO 1\n"
                              "KMAX_MAP 2 25000000000 400 100000000000 1600\n"
                              "KMIN_MAP 2 25000000000 100 100000000000 400\n"
                              "PMAX_MAP 2 25000000000 0.2 100000000000 0.2\nBUFFER_SIZE 32\n");
  ImportArgs im;
  im.input = config;
  im.output = (dir_ / "conv" / "scen.toml").string();
  ASSERT_EQ(cmd_import(im), 0);
  const ScenarioConfig s = load_scenario(im.output, {});
  EXPECT_EQ(s.topology.nodes.size(), 5u);
  EXPECT_EQ(s.duration.count_ps(), 2'010'000'000'000);  // 2.01 s
  EXPECT_EQ(s.switch_config.mmu.total.count(), 32'000'000);
  // The maps' entry for the hosts' 25 Gb/s: KMIN 100 KB, KMAX 400 KB.
  EXPECT_EQ(s.switch_config.ecn.tc[3].kmin.count(), 100'000);
  EXPECT_EQ(s.switch_config.ecn.tc[3].kmax.count(), 400'000);
  EXPECT_DOUBLE_EQ(s.switch_config.ecn.tc[3].pmax, 0.2);
  EXPECT_EQ(s.roce.mtu.count(), 1000);
  EXPECT_EQ(s.roce.ack_every, 1);  // L2_ACK_INTERVAL 1; xoff's own default is 256
  EXPECT_DOUBLE_EQ(s.roce.dcqcn.g, 0.00390625);
  EXPECT_EQ(s.roce.dcqcn.rate_timer, 300_us);
  EXPECT_EQ(s.roce.dcqcn.alpha_period, 55_us);
  EXPECT_EQ(s.roce.dcqcn.fast_recovery_stages, 1);
  EXPECT_EQ(s.roce.dcqcn.rate_ai.count(), 5'000'000);
  EXPECT_EQ(s.roce.dcqcn.min_cut_interval, 4_us);
  // HPCC's DCQCN as its RdmaHw runs it: timer-only increases (no byte
  // counter), hyper steps of R_HAI each, R_T kept on back-to-back cuts
  // (CLAMP_TARGET_RATE 0), a CNP flag on every ACK of a CE packet, and
  // switches marking at dequeue.
  EXPECT_EQ(s.roce.dcqcn.byte_counter.count(), 0);
  EXPECT_FALSE(s.roce.dcqcn.hyper_linear);
  EXPECT_TRUE(s.roce.dcqcn.first_cut_waits);
  EXPECT_TRUE(s.roce.dcqcn.periodic_clocks);  // α and decrease checks on their clocks
  EXPECT_FALSE(s.roce.dcqcn.clamp_target_always);
  EXPECT_TRUE(s.roce.cnp_on_ack);
  EXPECT_EQ(s.roce.dcqcn.cnp_interval, sim::Duration::zero());
  EXPECT_TRUE(s.switch_config.ecn.mark_at_dequeue);
  // ACK_HIGH_PRIO 1 as HPCC's scratch/third.cc applies it: ACKs first at the
  // hosts (a strict class 7), with the data's DSCP class (24 -> 3) at switches.
  EXPECT_EQ(s.roce.ack_tc, 7);
  EXPECT_EQ(s.roce.ack_dscp, 24);
  EXPECT_TRUE(s.switch_config.scheduler.strict[7]);
  EXPECT_EQ(s.switch_config.classification.class_of(s.switch_config.classification.trust, 24, 0),
            3);
  ASSERT_EQ(s.traffic.flows.size(), 2u);
  EXPECT_EQ(s.traffic.flows[1].spec.start.count_ps(), 2'000'010'000'000);
  // What has no counterpart is listed in the file.
  std::ifstream in(im.output);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("HAS_WIN (line 16): no counterpart"), std::string::npos) << text;
  EXPECT_NE(text.find("per link rate"), std::string::npos);
  // ... and it runs: both flows finish.
  const RunOutcome o = run_quiet(im.output);
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_TRUE(o.traffic_finished);
  im.input = (dir_ / "none.txt").string();
  EXPECT_EQ(cmd_import(im), 2);
}

TEST_F(FlowFileTest, CountersPrintTheResultsTablesUnderOperatorNames) {
  const std::string storm = run_storm();
  const auto d = analysis::read_results(storm);
  CountersArgs c;
  c.input = storm;
  c.node = "leaf0";
  c.port = 0;
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(cmd_counters(c), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  for (const auto& q : d.queues) {
    if (q.node != "leaf0" || q.port != 0 || q.traffic_class != 3) continue;
    auto line = [](const std::string& name, long long v) {
      char b[96];
      std::snprintf(b, sizeof b, "  %-34s %lld\n", name.c_str(), v);
      return std::string(b);
    };
    EXPECT_NE(out.find(line("tx_prio3_packets", q.tx_packets)), std::string::npos) << out;
    EXPECT_NE(out.find(line("rx_prio3_pause", q.pause_received)), std::string::npos) << out;
    EXPECT_NE(out.find(line("watermark_prio3_bytes", q.peak_bytes)), std::string::npos) << out;
    EXPECT_NE(out.find(line("discards_prio3", q.dropped_packets)), std::string::npos) << out;
    EXPECT_GT(q.pause_received, 0);  // h0's storm reaches leaf0
  }
  EXPECT_NE(out.find("leaf0 discards (watchdog)"), std::string::npos) << out;
  c.node = "nosuch";
  EXPECT_EQ(cmd_counters(c), 2);
}

// The DSCP trust boundary's remarks, per switch, from /counters/buffers.
TEST_F(FlowFileTest, CountersShowTheAclRemarksOfTheTrustBoundary) {
  RunArgs a;
  a.scenario = std::string(XOFF_SOURCE_DIR) + "/scenarios/trust_boundary.toml";
  a.variant = "acl";
  a.output = (dir_ / "acl.h5").string();
  a.quiet = true;
  a.print_summary = false;
  ASSERT_EQ(run_scenario(a).exit_code, 0);
  const auto d = analysis::read_results(a.output);
  int64_t remarked = 0;
  for (const auto& b : d.buffers) remarked += b.node == "leaf0" ? b.acl_remarked : 0;
  ASSERT_GT(remarked, 0);
  CountersArgs c;
  c.input = a.output;
  c.node = "leaf0";
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(cmd_counters(c), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("leaf0 acl_remarked  " + std::to_string(remarked) + " packets"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("leaf0 discards (acl)  10 packets"), std::string::npos) << out;
}

TEST_F(FlowFileTest, LinkFlapExpandsIntoDownUpPairsAndTheFlowSurvivesIt) {
  const std::string scen = write("flap.toml", R"([scenario]
name = "flap"
duration = "20ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 2
hosts_per_leaf = 1
host_rate = "100Gbps"
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "2MB"
[[fault]]
kind = "link_flap"
link = ["leaf0", "spine0"]
start = "20us"
period = "100us"
down = "30us"
count = 5
)");
  const ScenarioConfig s = load_scenario(scen, {});
  // Down at 20 + 100 k us, up 30 us later, k = 0..4.
  ASSERT_EQ(s.link_faults.size(), 10u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_FALSE(s.link_faults[2 * k].up);
    EXPECT_EQ(s.link_faults[2 * k].at, sim::Time::zero() + 20_us + 100_us * k);
    EXPECT_TRUE(s.link_faults[2 * k + 1].up);
    EXPECT_EQ(s.link_faults[2 * k + 1].at, sim::Time::zero() + 50_us + 100_us * k);
  }
  const RunOutcome o = run_quiet(scen);
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.flows.size(), 1u);
  ASSERT_TRUE(o.data.flows[0].finished());
  int64_t lost = 0;
  for (const auto& d : o.data.drops) lost += d.reason == "link_down" ? d.packets : 0;
  EXPECT_GT(lost, 0);
  // Alone the flow takes more than 2 MB / 100G = 160 us; the flaps drop frames
  // in flight, which go-back-N resends (after a NAK once frames arrive again,
  // or after the 4.194304 ms timeout when the last ones were lost; which one
  // depends on where the flaps fall in the flow).
  EXPECT_GT((o.data.flows[0].finish - o.data.flows[0].start).to_us(), 160.0);
  EXPECT_GE(o.data.flows[0].retransmitted_bytes, lost * 1000);  // at least the lost payload
  EXPECT_EQ(o.lossless_violations, 0);
  // down must be shorter than period.
  const std::string bad =
      write("bad.toml", replace_all(read_text(scen), "down = \"30us\"", "down = \"100us\""));
  EXPECT_THROW(load_scenario(bad, {}), config::ScenarioError);
}

TEST_F(FlowFileTest, APfcFrameFaultPausesForItsQuantaAndAnXonEndsIt) {
  const std::string base = R"([scenario]
name = "pf"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 1
host_rate = "100Gbps"
[[traffic.flow]]
src = "h1"
dst = "h0"
size = "4MB"
[[fault]]
kind = "pfc_frame"
host = "h0"
at = "10us"
)";
  auto paused_us = [&](const std::string& text) {
    const RunOutcome o = run_quiet(write("pf.toml", text));
    EXPECT_EQ(o.exit_code, 0);
    for (const auto& q : o.data.queues) {
      if (q.node == "leaf0" && q.port == 0 && q.traffic_class == 3) return q.paused_time.to_us();
    }
    return -1.0;
  };
  // One XOFF of 65535 quanta at 100G: 65535 x 512 bit / 100 Gb/s = 335.5392 us.
  EXPECT_NEAR(paused_us(base), 335.5392, 1e-6);
  // An XON at 100 us ends it: both frames apply 1 us (response delay) after
  // they arrive, so the pause lasts 100 - 10 = 90 us.
  EXPECT_NEAR(paused_us(base + "[[fault]]\nkind = \"pfc_frame\"\nhost = \"h0\"\nat = \"100us\"\n"
                               "quanta = 0\n"),
              90.0, 1e-6);
}

TEST_F(FlowFileTest, AcksTakeTheirOwnClassWhenAskedTo) {
  // 1 MB = 1000 segments; the default ack_every = 256 asks for ACKs on PSNs
  // 255, 511, 767 and the last: 4 ACKs cross leaf0's port towards h0 in class 3
  // (the data's) or in nic.ack_class.
  const std::string base = R"([scenario]
name = "ack"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 1
host_rate = "100Gbps"
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "1MB"
)";
  auto acks = [&](const std::string& text, int tc) {
    const RunOutcome o = run_quiet(write("ack.toml", text));
    EXPECT_EQ(o.exit_code, 0);
    for (const auto& q : o.data.queues) {
      if (q.node == "leaf0" && q.port == 0 && q.traffic_class == tc) return q.tx_packets;
    }
    return int64_t{0};
  };
  EXPECT_EQ(acks(base, 3), 4);
  const std::string high = base + "[nic]\nack_class = 6\n";
  EXPECT_EQ(acks(high, 6), 4);
  EXPECT_EQ(acks(high, 3), 0);
}

TEST_F(FlowFileTest, TtlCountsSwitchHopsAndJumboFramesAreAccepted) {
  // h0 -> leaf0 -> spine0 -> leaf1 -> h1: three switches, each takes one from
  // the TTL and drops a packet that arrives with 1 or less. TTL 4 gets
  // through (4, 3, 2 on arrival); TTL 3 reaches leaf1 with 1 and is dropped.
  const std::string base = R"([scenario]
name = "ttl"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 1
host_rate = "100Gbps"
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "10KB"
)";
  auto ttl_drops = [&](int ttl) {
    const RunOutcome o =
        run_quiet(write("ttl.toml", base + "[routing]\nttl = " + std::to_string(ttl) + "\n"));
    EXPECT_EQ(o.exit_code, 0);
    int64_t n = 0;
    for (const auto& d : o.data.drops) n += d.reason == "ttl" ? d.packets : 0;
    return n;
  };
  EXPECT_EQ(ttl_drops(4), 0);
  EXPECT_GT(ttl_drops(3), 0);
  // Jumbo frames: 9154 B of RoCE payload is a 9216 B frame (whose headroom,
  // 55,996 B on these links, the 48 KiB default does not cover); one more
  // byte is refused.
  const std::string jumbo = base + "[buffer]\nheadroom = \"64KB\"\n[nic]\nmtu = ";
  EXPECT_NO_THROW(load_scenario(write("j.toml", jumbo + "\"9154B\"\n"), {}));
  EXPECT_THROW(load_scenario(write("k.toml", jumbo + "\"9155B\"\n"), {}), config::ScenarioError);
}

}  // namespace
}  // namespace xoff::app
