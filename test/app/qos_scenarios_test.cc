// Consistent PFC configuration and the trust boundary, on the bundled
// scenarios/qos_mismatch.toml and scenarios/trust_boundary.toml: what
// `xoff check` reports for each misconfiguration (both ends named), and what
// a run shows.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "app/config/error.h"
#include "app/scenario/scenario.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {
using testing::drops;
using testing::run;

std::string path(const std::string& name) {
  return std::string(XOFF_SOURCE_DIR) + "/scenarios/" + name;
}

ScenarioConfig load(const std::string& name, const std::string& variant) {
  std::vector<std::string> o;
  if (!variant.empty()) o.push_back("scenario.variant=" + variant);
  return load_scenario(path(name), o);
}

RunOutcome run_variant(const std::string& name, const std::string& variant) {
  return run(name, variant.empty() ? std::vector<std::string>{}
                                   : std::vector<std::string>{"scenario.variant=" + variant});
}

const models::QueueCounters* queue(const RunOutcome& o, const std::string& node, int port, int tc) {
  for (const auto& q : o.data.queues) {
    if (q.node == node && q.port == port && q.traffic_class == tc) return &q;
  }
  return nullptr;
}

int64_t drops_at(const RunOutcome& o, const std::string& node, const std::string& reason) {
  for (const auto& d : o.data.drops) {
    if (d.node == node && d.reason == reason) return d.packets;
  }
  return 0;
}

const models::FlowRecord* flow(const RunOutcome& o, const std::string& name) {
  for (const auto& f : o.data.flows) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

double fct_us(const RunOutcome& o, const std::string& name) {
  const models::FlowRecord* f = flow(o, name);
  EXPECT_NE(f, nullptr) << name;
  return f == nullptr ? 0 : static_cast<double>((f->finish - f->start).count_ps()) / 1e6;
}

TEST(QosMismatchScenario, ConsistentAsWrittenNothingReportedNothingLost) {
  const ScenarioConfig s = load("qos_mismatch.toml", "");
  EXPECT_TRUE(s.qos_warnings.empty());
  const RunOutcome o = run_variant("qos_mismatch.toml", "");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(o.traffic_finished);
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_EQ(drops(o, "lossy_ingress"), 0);
  EXPECT_GT(o.pause_frames, 0);  // the incast is held by PFC, not by loss
}

TEST(QosMismatchScenario, NicWithPfcOnAnotherClassIgnoresPausesAndTheLeafOverflows) {
  const ScenarioConfig s = load("qos_mismatch.toml", "nic_pfc");
  ASSERT_EQ(s.qos_warnings.size(), 1u);
  EXPECT_EQ(s.qos_warnings[0],
            "link leaf0:p3 - h3: PFC on classes [3] at leaf0:p3, [4] at h3 (DCBX: leaf0 "
            "non_willing, h3 off); a lossless class paused at one end is not paused at the other");
  const RunOutcome o = run_variant("qos_mismatch.toml", "nic_pfc");
  // leaf0 did pause h3 (tx pause counted at leaf0:p3, rx at h3), but h3's
  // class 3 never stopped: paused time 0, and leaf0's headroom for h3 overflows.
  const auto* sent = queue(o, "leaf0", 3, 3);
  const auto* got = queue(o, "h3", 0, 3);
  ASSERT_NE(sent, nullptr);
  ASSERT_NE(got, nullptr);
  EXPECT_GT(sent->pause_sent, 0);
  EXPECT_EQ(got->pause_received, sent->pause_sent);
  EXPECT_EQ(got->paused_time.count_ps(), 0);
  EXPECT_GT(drops_at(o, "leaf0", "lossless_violation"), 0);
  EXPECT_EQ(o.lossless_violations, drops_at(o, "leaf0", "lossless_violation"));
  EXPECT_TRUE(o.traffic_finished);  // go-back-N recovers what was lost
}

TEST(QosMismatchScenario, DcbxWillingNicTakesTheSwitchClassesAndRunsAsConsistent) {
  const ScenarioConfig s = load("qos_mismatch.toml", "dcbx_fix");
  EXPECT_TRUE(s.qos_warnings.empty());
  const uint32_t h3 = *s.topology.find("h3");
  EXPECT_EQ(s.port_pfc[h3][0], 1u << 3);  // adopted from leaf0 (non-willing), not its own [4]
  // The same operational configuration as the consistent file: the same run,
  // event for event.
  const RunOutcome fixed = run_variant("qos_mismatch.toml", "dcbx_fix");
  const RunOutcome base = run_variant("qos_mismatch.toml", "");
  EXPECT_EQ(fixed.data.meta.fingerprint, base.data.meta.fingerprint);
  EXPECT_EQ(fixed.lossless_violations, 0);
}

TEST(QosMismatchScenario, RoceMarkedIntoALossyClassIsDroppedWhilePfcRuns) {
  const ScenarioConfig s = load("qos_mismatch.toml", "nic_dscp");
  ASSERT_EQ(s.qos_warnings.size(), 1u);
  EXPECT_NE(s.qos_warnings[0].find("h3 marks RoCE with DSCP 0, which leaf0 (trusting DSCP) puts "
                                   "in class 0"),
            std::string::npos)
      << s.qos_warnings[0];
  const RunOutcome o = run_variant("qos_mismatch.toml", "nic_dscp");
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_GT(drops_at(o, "leaf0", "lossy_ingress"), 0);  // h3's RoCE, class 0 at leaf0
  EXPECT_GT(o.pause_frames, 0);                         // PFC still on for everyone else
  const auto* h3_class0 = queue(o, "leaf0", 0, 0);      // leaf0 -> h0 carries h3's in class 0
  ASSERT_NE(h3_class0, nullptr);
  EXPECT_GT(h3_class0->tx_packets, 0);
  const models::FlowRecord* f = flow(o, "incast/w0/s3");  // from h3
  ASSERT_NE(f, nullptr);
  EXPECT_GT(f->retransmitted_bytes, 0);  // only h3's flow lost packets
  for (const auto& other : o.data.flows) {
    if (other.name != f->name) {
      EXPECT_EQ(other.retransmitted_bytes, 0) << other.name;
    }
  }
}

TEST(QosMismatchScenario, SpineMappingRoceLossyBreaksLosslessOnBothLeafLinks) {
  const ScenarioConfig s = load("qos_mismatch.toml", "spine_map");
  ASSERT_EQ(s.qos_warnings.size(), 2u);
  EXPECT_EQ(s.qos_warnings[0],
            "link leaf0:p4 - spine0:p0: DSCP lossless at one end, lossy at the other: 24 (class "
            "3 at leaf0, 0 at spine0)");
  const RunOutcome o = run_variant("qos_mismatch.toml", "spine_map");
  // The spine queues RoCE in class 0, so leaf0's pauses for class 3 do not
  // stop it: leaf0's headroom for the spine overflows.
  EXPECT_GT(drops_at(o, "leaf0", "lossless_violation"), 0);
  const auto* spine_to_leaf0 = queue(o, "spine0", 0, 0);
  ASSERT_NE(spine_to_leaf0, nullptr);
  EXPECT_GT(spine_to_leaf0->tx_packets, 0);
}

// Ideal FCT of a 4 MB RoCE victim at 100 Gb/s: 4,000,000 B in 1000 B
// payloads = 4,000 packets of 1,062 B = 339.84 us on the wire, plus
// propagation and store-and-forward over four links (the recorded ideal).
TEST(TrustBoundaryScenario, AclKeepsTheStormOutWatchdogContainsItOpenFabricStalls) {
  const RunOutcome open = run_variant("trust_boundary.toml", "");
  const RunOutcome wd = run_variant("trust_boundary.toml", "watchdog");
  const RunOutcome acl = run_variant("trust_boundary.toml", "acl");
  for (const char* v : {"victim1", "victim2", "victim3"}) {
    SCOPED_TRACE(v);
    const double ideal = static_cast<double>(flow(acl, v)->ideal_fct.count_ps()) / 1e6;
    EXPECT_LT(fct_us(acl, v), 1.02 * ideal);    // nothing reached the fabric
    EXPECT_GT(fct_us(open, v), 3.0 * ideal);    // stalled behind leaf0's pause of the spine
    EXPECT_LT(fct_us(wd, v), fct_us(open, v));  // the watchdog cut it short ...
    EXPECT_GT(fct_us(wd, v), 1.2 * ideal);      // ... after its detection time
  }
  // The storm sends XOFF every min(100 us refresh, half of 65535 quanta at
  // 100G = 167.8 us) from 200 us until 1.2 ms: 10 frames, all dropped by the ACL.
  EXPECT_EQ(drops_at(acl, "leaf0", "acl"), 10);
  EXPECT_EQ(queue(acl, "leaf0", 0, 3)->pause_received, 0);
  // h0's bulk TCP marked DSCP 24: lossless in the open fabric (where h0, which
  // queues it in its own class 1, ignores leaf0's class-3 pauses: lossless
  // violations), remarked to class 0 by the ACL.
  EXPECT_GT(open.lossless_violations, 0);
  EXPECT_EQ(acl.lossless_violations, 0);
  int64_t remarked = 0;
  for (const auto& b : acl.data.buffers) remarked += b.node == "leaf0" ? b.acl_remarked : 0;
  EXPECT_GT(remarked, 0);
  EXPECT_GT(queue(acl, "leaf0", 4, 0)->tx_packets, 0);  // h0's TCP up the uplink in class 0
  int storms = 0;
  for (const auto& b : wd.data.buffers) storms += static_cast<int>(b.watchdog_storms);
  EXPECT_EQ(storms, 1);  // leaf0:p0:tc3
}

// Per-port trust: RoCE in class 3 (PCP 3) marked DSCP 0 is lossy where the
// leaf trusts DSCP and lossless where its host ports trust PCP. 3 x 512 KB
// into one 100G port: with PFC the incast ends in 3 x 512,000 B / 1000 B x
// 1062 B x 8 / 100 Gb/s = 130.5 us plus the path; with drops it takes twice that.
TEST(HostTrust, HostPortsTrustingPcpKeepMismarkedDscpLossless) {
  const RunOutcome dscp = run("test/app/data/host_trust.toml");
  const RunOutcome pcp = run("test/app/data/host_trust.toml", {"classification.host_trust=pcp"});
  EXPECT_GT(drops(dscp, "lossy_ingress"), 0);
  EXPECT_EQ(dscp.pause_frames, 0);
  EXPECT_EQ(drops(pcp, "lossy_ingress"), 0);
  EXPECT_EQ(pcp.lossless_violations, 0);
  EXPECT_GT(pcp.pause_frames, 0);
  for (const auto& f : pcp.data.flows) {
    const double us = static_cast<double>((f.finish - f.start).count_ps()) / 1e6;
    EXPECT_GT(us, 130.5);
    EXPECT_LT(us, 140.0);
  }
}

// A per-role watchdog ([device.watchdog]): the fabric-wide one off, leaf0's
// on with a 50 us detection time. Only leaf0 meets the storm, so it is
// contained exactly as with the 50 us detection everywhere (pfc_storm with
// --set watchdog.detection_time=50us: stormed at 179.04 us, 13,374 drops;
// 13,604 before preamble and gap took 20 B of wire per frame: 13,604 x
// 1062 / 1082 = 13,353, the same time's frames within 0.2 %),
// and no other switch runs a watchdog.
TEST(DeviceWatchdog, OnlyTheConfiguredSwitchWatchesAndContainsTheStorm) {
  std::string text = testing::text_of(path("pfc_storm.toml"));
  const size_t at = text.find("enabled = true\naction = \"drop\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::strlen("enabled = true"), "enabled = false");
  text +=
      "[[device]]\nnodes = [\"leaf0\"]\n[device.watchdog]\npoll_interval = \"20us\"\n"
      "detection_time = \"50us\"\n";
  const RunOutcome per_role =
      testing::run_file(testing::write_temp("xoff_device_watchdog.toml", text));
  const RunOutcome global = run("pfc_storm.toml", {"watchdog.detection_time=50us"});
  ASSERT_FALSE(per_role.data.watchdog_events.empty());
  for (const auto& e : per_role.data.watchdog_events) EXPECT_EQ(e.node, "leaf0");
  EXPECT_EQ(per_role.data.watchdog_events[0].time, global.data.watchdog_events[0].time);
  EXPECT_GE(per_role.data.watchdog_events[0].time.count_ps(), 179'040'000);  // "179.04 us"
  EXPECT_LT(per_role.data.watchdog_events[0].time.count_ps(), 179'050'000);
  EXPECT_EQ(drops(per_role, "watchdog"), drops(global, "watchdog"));
  EXPECT_EQ(drops(per_role, "watchdog"), 13'374);
  EXPECT_TRUE(per_role.traffic_finished);
}

// Per-switch ECN ([device.ecn], a whole [ecn] table for those switches):
// the demo's incast into h0 is marked at leaf0; with leaf0's ECN off it is
// marked nowhere on leaf0, while the other switches keep the fabric's.
TEST(DeviceEcn, ASwitchWithItsOwnEcnTableMarksByItAlone) {
  auto marks_at = [](const RunOutcome& o, const std::string& node) {
    int64_t n = 0;
    for (const auto& q : o.data.queues) n += q.node == node ? q.ecn_marked : 0;
    return n;
  };
  const std::string file =
      testing::write_temp("xoff_device_ecn.toml",
                          testing::text_of(path("demo.toml")) +
                              "[[device]]\nnodes = [\"leaf0\"]\n[device.ecn]\nenabled = false\n");
  const RunOutcome base = run("demo.toml");
  const RunOutcome off = testing::run_file(file);
  EXPECT_GT(marks_at(base, "leaf0"), 0);
  EXPECT_EQ(marks_at(off, "leaf0"), 0);
  const ScenarioConfig s = load_scenario(file, {});
  EXPECT_TRUE(s.devices[*s.topology.find("leaf1")].ecn == std::nullopt);
  EXPECT_FALSE(s.devices[*s.topology.find("leaf0")].ecn->tc[3].enabled);
}

// ECN per class and per port group. [[ecn.class]] overrides one class's
// thresholds (the keys it leaves out keep [ecn]'s); [ecn.host_ports] gives the
// egress ports facing hosts their own (from [ecn]'s values). In the demo the
// incast into h0 is marked at leaf0's host port and the permutation at the
// 2:1 uplinks: with the host ports' marking off, no host port marks and the
// fabric still does.
TEST(EcnGroups, PerClassAndPerPortGroupThresholds) {
  const auto marks = [](const RunOutcome& o, bool host_ports) {
    int64_t n = 0;  // leaf ports 0..3 face hosts
    for (const auto& q : o.data.queues) {
      if (q.node.rfind("h", 0) == 0) continue;
      const bool host = q.node.rfind("leaf", 0) == 0 && q.port < 4;
      if (host == host_ports) n += q.ecn_marked;
    }
    return n;
  };
  const std::string demo = testing::text_of(path("demo.toml"));
  const std::string off_file =
      testing::write_temp("xoff_ecn_host_off.toml", demo + "[ecn.host_ports]\nenabled = false\n");
  const RunOutcome base = run("demo.toml");
  const RunOutcome off = testing::run_file(off_file);
  ASSERT_EQ(off.exit_code, 0);
  EXPECT_GT(marks(base, true), 0);
  EXPECT_GT(marks(base, false), 0);
  EXPECT_EQ(marks(off, true), 0);
  EXPECT_GT(marks(off, false), 0);

  const std::string groups = testing::write_temp(
      "xoff_ecn_groups.toml",
      demo +
          "[[ecn.class]]\nclass = 3\nkmin = \"50KB\"\n"
          "[ecn.host_ports]\nkmax = \"400KB\"\n[[ecn.host_ports.class]]\nclass = 1\n"
          "pmax = 0.5\n");
  const ScenarioConfig s = load_scenario(groups, {});
  const models::EcnConfig& e = s.switch_config.ecn;
  // [ecn] marks classes 1 and 3 at 5 KB / 200 KB / 0.01.
  EXPECT_EQ(e.tc[1].kmin.count(), 5'000);
  EXPECT_EQ(e.tc[3].kmin.count(), 50'000);   // its own
  EXPECT_EQ(e.tc[3].kmax.count(), 200'000);  // kept
  EXPECT_FALSE(e.tc[0].enabled);
  ASSERT_TRUE(e.host_ports);
  EXPECT_EQ(e.host_tc[3].kmin.count(), 5'000);  // [ecn]'s, not [[ecn.class]]'s
  EXPECT_EQ(e.host_tc[3].kmax.count(), 400'000);
  EXPECT_DOUBLE_EQ(e.host_tc[3].pmax, 0.01);
  EXPECT_DOUBLE_EQ(e.host_tc[1].pmax, 0.5);
  EXPECT_TRUE(e.host_tc[1].enabled);
  EXPECT_FALSE(e.host_tc[0].enabled);  // [ecn]'s classes
  // kmin above kmax in a class entry is refused at its position.
  const std::string bad = testing::write_temp(
      "xoff_ecn_bad.toml", demo + "[[ecn.class]]\nclass = 3\nkmin = \"300KB\"\n");
  EXPECT_THROW(load_scenario(bad, {}), config::ScenarioError);
}

}  // namespace
}  // namespace xoff::app
