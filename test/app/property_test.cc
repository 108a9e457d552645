// Property tests over random small scenarios: a seeded generator writes a
// scenario (a spine-leaf, fat-tree or ring of random size, rates and delays;
// a random buffer, alpha, XON offset, ECN, DCQCN, TCP variant, watchdog;
// RoCE and TCP traffic; faults: PFC storms, PFC frames, slow receivers, link
// failures and flaps), and every one must
//   - load (the generator only writes valid files) and run to its end with
//     every invariant holding (a broken one aborts the test binary; the
//     scenario is printed first so it can be replayed with `xoff run`);
//   - lose no lossless packet (unless the watchdog forwards into paused
//     peers, which overflows their headroom by design): the headroom is set from the bound computed
//     here, independently of models/topology/headroom.h:
//       bound = 2 x (delay x rate) + 2 x frame + response x rate + 64 B
//     (IEEE 802.1Qbb Annex N: the cable is crossed twice, a maximum frame on
//     each side may be in the middle of transmission, the response delay at
//     the peer, plus the 64 B PFC frame itself), frame = 1000 B + 62 B of
//     headers vs 1460 B + 58 B of TCP: 1518 B;
//   - give the same fingerprint, events and counters when run again.
// A fixed set of seeds in CI (XOFF_PROPERTY_SEEDS, default 100); the `slow`
// label runs 5,000. With the headroom cut to 35 % of the bound (tried), 42 of
// the first 100 lose lossless packets: the property can fail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/run/runner.h"
#include "sim/rng.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

struct Generated {
  std::string text;
  int hosts = 0;
  // The watchdog's `forward` action sends into a peer that paused: its
  // headroom overflows by design (the pfcwd trade-off), so the lossless
  // property does not hold there.
  bool lossless_expected = true;
};

// Bytes in flight over `delay_ns` at `gbps` (Gb/s x ns = bits), rounded up.
double wire_bytes(double gbps, double delay_ns) { return gbps * delay_ns / 8.0; }

const char* pick_action(uint64_t i) { return i == 0 ? "drop" : i == 1 ? "alert" : "forward"; }

Generated generate(uint64_t seed) {
  sim::Rng rng(seed, "property");
  auto pick = [&](std::initializer_list<double> v) {
    return *(v.begin() + static_cast<std::ptrdiff_t>(rng.uniform_int(v.size())));
  };
  auto between = [&](int lo, int hi) {
    return lo + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(hi - lo + 1)));
  };
  std::string t;
  auto line = [&t](const std::string& s) { t += s + "\n"; };
  const int duration_us = between(300, 1500);
  line("[scenario]");
  line("name = \"property_" + std::to_string(seed) + "\"");
  line("duration = \"" + std::to_string(duration_us) + "us\"");
  line("seed = " + std::to_string(seed));
  line("stop_when_done = " + std::string(rng.uniform_int(2) ? "true" : "false"));

  // Topology.
  const double host_gbps = pick({10, 25, 40, 100});
  const double fabric_gbps = pick({10, 25, 40, 100, 400});
  const double host_ns = pick({100, 500, 1000, 2000});
  const double fabric_ns = pick({100, 500, 1000, 3000});
  Generated g;
  std::vector<std::pair<std::string, std::string>> links;  // candidates for link faults
  auto rate = [](double gbps) { return "\"" + std::to_string(static_cast<int>(gbps)) + "Gbps\""; };
  auto ns = [](double v) { return "\"" + std::to_string(static_cast<int>(v)) + "ns\""; };
  bool one_rate = false;  // a fat-tree: every link at the host rate and delay
  line("[topology]");
  switch (rng.uniform_int(3)) {
    case 0: {
      const int leaves = between(1, 4);
      const int spines = between(1, 3);
      const int per_leaf = between(2, 4);
      g.hosts = leaves * per_leaf;
      line("kind = \"spine_leaf\"");
      line("leaves = " + std::to_string(leaves));
      line("spines = " + std::to_string(spines));
      line("hosts_per_leaf = " + std::to_string(per_leaf));
      for (int l = 0; l < leaves; ++l) {
        links.emplace_back("leaf" + std::to_string(l), "spine" + std::to_string(l % spines));
      }
      break;
    }
    case 1:
      g.hosts = 16;  // k = 4: 4 pods x 2 edges x 2 hosts
      line("kind = \"fat_tree\"");
      line("k = 4");
      line("rate = " + rate(host_gbps));
      line("delay = " + ns(host_ns));
      one_rate = true;
      break;
    default: {
      const int switches = between(3, 5);
      g.hosts = switches;
      line("kind = \"ring\"");
      line("switches = " + std::to_string(switches));
      line("hosts_per_switch = 1");
      links.emplace_back("sw0", "sw1");
      break;
    }
  }
  if (!one_rate) {
    line("host_rate = " + rate(host_gbps));
    line("fabric_rate = " + rate(fabric_gbps));
    line("host_delay = " + ns(host_ns));
    line("fabric_delay = " + ns(fabric_ns));
  }

  // Buffer: headroom from the bound above, on the worst link, times 1 to 1.5.
  const double response_ns = pick({0, 500, 1000});
  const double frame = 1518;
  auto bound = [&](double gbps, double delay_ns) {
    return 2 * wire_bytes(gbps, delay_ns) + 2 * frame + wire_bytes(gbps, response_ns) + 64;
  };
  const double need = one_rate ? bound(host_gbps, host_ns)
                               : std::max(bound(host_gbps, host_ns), bound(fabric_gbps, fabric_ns));
  const auto headroom = static_cast<int64_t>(std::ceil(need * (1.0 + rng.uniform01() * 0.5)));
  // Enough buffer for a headroom on every port of the largest switch (8 in
  // these fabrics) and a shared pool besides.
  const int64_t size = 8 * headroom + static_cast<int64_t>(pick({256, 1024, 4096})) * 1024;
  line("[buffer]");
  line("size = \"" + std::to_string(size) + "B\"");
  line("headroom = \"" + std::to_string(headroom) + "B\"");
  line("alpha = " + std::to_string(pick({0.0625, 0.25, 1, 4, 8})));
  line("xon_offset = \"" + std::to_string(static_cast<int>(pick({0, 2048, 9216}))) + "B\"");
  line("[pfc]");
  line("response_delay = " + ns(response_ns));

  if (rng.uniform_int(4) != 0) {
    const int kmin = between(5, 50);
    line("[ecn]");
    line("classes = [1, 3]");
    line("kmin = \"" + std::to_string(kmin) + "KB\"");
    line("kmax = \"" + std::to_string(kmin + between(10, 400)) + "KB\"");
    line("pmax = " + std::to_string(pick({0.01, 0.1, 1})));
  } else {
    line("[ecn]");
    line("enabled = false");
  }
  line("[nic]");
  line("dcqcn = \"" + std::string(rng.uniform_int(3) == 0 ? "off" : "paper") + "\"");
  line("ack_every = " + std::to_string(static_cast<int>(pick({1, 1, 4}))));
  line("rto = \"200us\"");
  line("[tcp]");
  line("variant = \"" + std::string(rng.uniform_int(2) ? "dctcp" : "newreno") + "\"");
  if (rng.uniform_int(3) == 0) {
    line("[watchdog]");
    const char* action = pick_action(rng.uniform_int(3));
    g.lossless_expected = std::string(action) != "forward";
    line("action = \"" + std::string(action) + "\"");
    line("poll_interval = \"20us\"");
    line("detection_time = \"100us\"");
    line("restoration_time = \"100us\"");
  }

  // Traffic: an incast, a permutation, TCP background and an RPC probe.
  auto host = [&](int i) { return "\"h" + std::to_string(i) + "\""; };
  const int receiver = between(0, g.hosts - 1);
  std::string senders;
  for (int h = 0, n = 0; h < g.hosts && n < 6; ++h) {
    if (h == receiver) continue;
    senders += (senders.empty() ? "" : ", ") + host(h);
    ++n;
  }
  line("[[traffic.incast]]");
  line("receiver = " + host(receiver));
  line("senders = [" + senders + "]");
  line("size = \"" + std::to_string(between(4, 256)) + "KB\"");
  line("waves = " + std::to_string(between(1, 2)));
  line("[[traffic.permutation]]");
  line("size = \"" + std::to_string(between(8, 512)) + "KB\"");
  line("start = \"" + std::to_string(between(0, 100)) + "us\"");
  if (rng.uniform_int(2) == 0) {
    line("[[traffic.permutation]]");
    line("name = \"tcp_bg\"");
    line("size = \"" + std::to_string(between(8, 256)) + "KB\"");
    line("protocol = \"tcp\"");
    line("class = 1");
    line("dscp = 8");
  }
  const int client = between(0, g.hosts - 1);
  line("[[traffic.rpc]]");
  line("client = " + host(client));
  line("server = " + host((client + 1) % g.hosts));
  line("interval = \"20us\"");
  line("count = " + std::to_string(between(5, 30)));

  // Faults, each with probability 1/4.
  if (rng.uniform_int(4) == 0) {
    const int start = between(10, 200);
    line("[[fault]]");
    line("kind = \"pfc_storm\"");
    line("host = " + host(between(0, g.hosts - 1)));
    line("start = \"" + std::to_string(start) + "us\"");
    line("stop = \"" + std::to_string(start + between(50, 400)) + "us\"");
  }
  if (rng.uniform_int(4) == 0) {
    line("[[fault]]");
    line("kind = \"pfc_frame\"");
    line("host = " + host(between(0, g.hosts - 1)));
    line("quanta = " + std::to_string(static_cast<int>(pick({0, 1000, 65535}))));
    line("at = \"" + std::to_string(between(0, 300)) + "us\"");
  }
  if (rng.uniform_int(4) == 0) {
    line("[[fault]]");
    line("kind = \"slow_receiver\"");
    line("host = " + host(receiver));
    line("rate = \"" + std::to_string(between(1, 10)) + "Gbps\"");
    line("start = \"" + std::to_string(between(0, 100)) + "us\"");
  }
  if (!links.empty() && rng.uniform_int(4) == 0) {
    const auto& [a, b] = links[rng.uniform_int(links.size())];
    line("[[fault]]");
    line("kind = \"link_flap\"");
    line("link = [\"" + a + "\", \"" + b + "\"]");
    line("start = \"" + std::to_string(between(10, 200)) + "us\"");
    line("period = \"100us\"");
    line("down = \"" + std::to_string(between(5, 90)) + "us\"");
    line("count = " + std::to_string(between(1, 3)));
  }
  g.text = t;
  return g;
}

RunOutcome run_once(const fs::path& file) {
  RunArgs a;
  a.scenario = file.string();
  a.no_output = true;
  a.quiet = true;
  a.print_summary = false;
  a.log_level = "off";
  a.max_events = 50'000'000;  // far beyond these runs: a hang ends the test
  return run_scenario(a);
}

int seeds_to_run() {
  const char* env = std::getenv("XOFF_PROPERTY_SEEDS");
  return env != nullptr ? std::max(1, std::atoi(env)) : 100;
}

TEST(PropertyTest, RandomScenariosKeepInvariantsLoseNoLosslessPacketAndRepeat) {
  const fs::path dir = fs::temp_directory_path() / ("xoff_property_" + std::to_string(getpid()));
  fs::create_directories(dir);
  int with_pauses = 0;
  int with_marks = 0;
  const int n = seeds_to_run();
  for (int s = 1; s <= n; ++s) {
    const Generated g = generate(static_cast<uint64_t>(s));
    const fs::path file = dir / ("property_" + std::to_string(s) + ".toml");
    std::ofstream(file) << g.text;
    SCOPED_TRACE(file.string() + ":\n" + g.text);
    std::printf("[property] seed %d (%d hosts)\n", s, g.hosts);
    std::fflush(stdout);
    const RunOutcome first = run_once(file);
    ASSERT_EQ(first.exit_code, 0) << "a valid scenario was refused or failed";
    EXPECT_EQ(first.status, "complete");
    if (g.lossless_expected) {
      EXPECT_EQ(first.lossless_violations, 0) << "headroom at the bound, yet lossless drops";
    }
    const RunOutcome second = run_once(file);
    ASSERT_EQ(second.exit_code, 0);
    EXPECT_EQ(first.data.meta.fingerprint, second.data.meta.fingerprint);
    EXPECT_EQ(first.data.meta.events, second.data.meta.events);
    EXPECT_EQ(first.pause_frames, second.pause_frames);
    EXPECT_EQ(first.ecn_marks, second.ecn_marks);
    EXPECT_GT(first.data.meta.events, 0u);
    with_pauses += first.pause_frames > 0;
    with_marks += first.ecn_marks > 0;
    if (!HasFailure()) fs::remove(file);
  }
  // The generator reaches the interesting states, not only idle fabrics.
  std::printf("%d scenarios, %d with PFC pauses, %d with ECN marks\n", n, with_pauses, with_marks);
  if (n >= 20) {
    EXPECT_GT(with_pauses, n / 10);
    EXPECT_GT(with_marks, n / 10);
  }
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace xoff::app
