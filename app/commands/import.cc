// `xoff import hpcc CONFIG [-o FILE]`: one of the HPCC ns-3 simulator's run
// configurations (mix/config.txt: KEY value lines) as an xoff scenario. The
// topology and flow files are referenced (topology.kind = "hpcc",
// [[traffic.file]] format "hpcc"), the DCQCN, ECN, buffer and NIC settings
// are carried over, and every setting without a counterpart is listed, in
// the file's header and on stdout. The result is loaded as `xoff run` would
// before it is written.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app/commands/commands.h"
#include "app/config/error.h"
#include "app/scenario/scenario.h"
#include "app/scenario/topology_file.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

struct Entry {
  std::vector<std::string> values;
  uint32_t line = 0;
};

std::string toml_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

// "5Mb/s" -> "5Mbps"; "100Gb/s" -> "100Gbps".
std::string rate(const std::string& v) {
  std::string s = v;
  const auto p = s.find("b/s");
  if (p != std::string::npos) s.replace(p, 3, "bps");
  return s;
}

// Seconds as an exact integer number of nanoseconds ("4.00" -> "4000000000ns").
std::string seconds(const std::string& v) {
  const double s = std::stod(v);
  return std::to_string(std::llround(s * 1e9)) + "ns";
}

}  // namespace

int cmd_import(const ImportArgs& a) {
  if (a.format != "hpcc") {
    std::fprintf(stderr, "xoff import: format \"%s\": expected hpcc\n", a.format.c_str());
    return 2;
  }
  std::ifstream in(a.input);
  if (!fs::is_regular_file(a.input) || !in) {
    std::fprintf(stderr, "%s: error: cannot read the HPCC config\n", a.input.c_str());
    return 2;
  }
  std::map<std::string, Entry> cfg;
  std::vector<std::string> order;
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ss(line);
    std::string key;
    if (!(ss >> key)) continue;
    Entry e;
    e.line = n;
    for (std::string v; ss >> v;) e.values.push_back(v);
    if (!cfg.count(key)) order.push_back(key);
    cfg[key] = e;
  }
  std::vector<std::string> notes;  // settings with no counterpart, and choices made
  std::set<std::string> used;
  auto get = [&](const std::string& k) -> const Entry* {
    used.insert(k);
    const auto it = cfg.find(k);
    return it == cfg.end() || it->second.values.empty() ? nullptr : &it->second;
  };
  auto first = [&](const std::string& k) -> std::string {
    const Entry* e = get(k);
    return e == nullptr ? "" : e->values[0];
  };
  const fs::path out = a.output.empty() ? fs::path("out") / "hpcc_import.toml" : fs::path(a.output);
  const fs::path out_dir = fs::absolute(out).parent_path();
  // HPCC's paths are relative to where the simulator runs: the working directory.
  auto path_for = [&](const std::string& p) {
    return fs::relative(fs::absolute(p), out_dir).string();
  };
  const std::string topo = first("TOPOLOGY_FILE");
  const std::string flows = first("FLOW_FILE");
  if (topo.empty() || flows.empty()) {
    std::fprintf(stderr, "%s: error: TOPOLOGY_FILE and FLOW_FILE are required\n", a.input.c_str());
    return 2;
  }
  // The hosts' link rate picks the entry of the per-rate ECN maps.
  int64_t host_rate = 0;
  try {
    const models::Topology t = read_hpcc_topology(topo);
    std::map<int64_t, int> count;
    for (const auto& l : t.links) {
      if (t.nodes[l.a].kind == models::NodeKind::kHost ||
          t.nodes[l.b].kind == models::NodeKind::kHost)
        ++count[l.rate.count()];
    }
    for (const auto& [r, c] : count) {
      if (host_rate == 0 || c > count[host_rate]) host_rate = r;
    }
  } catch (const config::ScenarioError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  std::ostringstream t;
  const std::string name = fs::path(a.input).stem().string();
  t << "[scenario]\nname = " << toml_string("hpcc_" + name) << "\n";
  t << "description = " << toml_string("Imported from the HPCC simulator's " + a.input) << "\n";
  if (const std::string stop = first("SIMULATOR_STOP_TIME"); !stop.empty()) {
    t << "duration = \"" << seconds(stop) << "\"\n";
  }
  t << "\n[topology]\nkind = \"hpcc\"\nfile = " << toml_string(path_for(topo)) << "\n";
  t << "\n[buffer]\n";
  if (const std::string b = first("BUFFER_SIZE"); !b.empty()) t << "size = \"" << b << "MB\"\n";
  if (first("USE_DYNAMIC_PFC_THRESHOLD") == "1") {
    notes.push_back(
        "USE_DYNAMIC_PFC_THRESHOLD 1: xoff's dynamic threshold is buffer.alpha (1.0 here); "
        "HPCC's formula differs");
  }
  // ECN: one (kmin, kmax, pmax) for all ports; the maps give one per link rate.
  auto map_value = [&](const std::string& k, bool& multi) -> std::string {
    const Entry* e = get(k);
    if (e == nullptr || e->values.size() < 3) return "";
    std::string chosen = e->values[2];
    std::set<std::string> distinct;
    for (size_t i = 1; i + 1 < e->values.size(); i += 2) {
      distinct.insert(e->values[i + 1]);
      if (std::llround(std::stod(e->values[i])) == host_rate) chosen = e->values[i + 1];
    }
    multi = multi || distinct.size() > 1;
    return chosen;
  };
  bool multi = false;
  const std::string kmin = map_value("KMIN_MAP", multi);
  const std::string kmax = map_value("KMAX_MAP", multi);
  const std::string pmax = map_value("PMAX_MAP", multi);
  t << "\n[ecn]\nenabled = " << (first("ENABLE_QCN") == "0" ? "false" : "true") << "\n";
  t << "classes = [3]\n";
  if (!kmin.empty()) t << "kmin = \"" << kmin << "KB\"\n";
  if (!kmax.empty()) t << "kmax = \"" << kmax << "KB\"\n";
  if (!pmax.empty()) t << "pmax = " << pmax << "\n";
  // HPCC's switches mark at dequeue (SwitchNode::SwitchNotifyDequeue).
  t << "at = \"dequeue\"\n";
  if (multi) {
    notes.push_back(
        "KMIN_MAP/KMAX_MAP/PMAX_MAP per link rate: xoff has one setting for every "
        "port; took the entry of the hosts' rate (" +
        std::to_string(host_rate / 1'000'000'000) + " Gb/s)");
  }
  t << "\n[nic]\n";
  if (const std::string m = first("PACKET_PAYLOAD_SIZE"); !m.empty())
    t << "mtu = \"" << m << "B\"\n";
  // Written always: xoff's default coalesces (256), the reference ACKs per
  // L2_ACK_INTERVAL packets (1 in its shipped configs).
  if (const std::string ack = first("L2_ACK_INTERVAL"); ack.empty() || ack == "0") {
    notes.push_back(ack.empty() ? "no L2_ACK_INTERVAL: ack_every = 1, an ACK per packet"
                                : "L2_ACK_INTERVAL 0 (no ACKs): xoff always acknowledges; "
                                  "ack_every = 1");
    t << "ack_every = 1\n";
  } else {
    t << "ack_every = " << ack << "\n";
  }
  // ACK_HIGH_PRIO 1 puts ACKs first at the hosts only (scratch/third.cc sets
  // RdmaEgressQueue::ack_q_idx = 0 and leaves SwitchNode's AckHighPrio at 0, so
  // its switches queue ACKs with the data): a strict class at the NIC whose
  // DSCP the switches classify into the data's class (3 in HPCC's flow files).
  // The strict class applies at switch ports too, where nothing maps to 7.
  const bool ack_high_prio = first("ACK_HIGH_PRIO") == "1";
  if (ack_high_prio) {
    t << "ack_class = 7  # ACK_HIGH_PRIO 1: ahead of data at the NIC (strict below)\n";
    t << "ack_dscp = 24  # ... and in the data's class 3 at the switches, as HPCC's are\n";
  }
  const std::string cc = first("CC_MODE");
  if (cc == "1" || cc.empty()) {
    // HPCC's receiver sets a CNP flag on every ACK that covers a CE packet;
    // its sender cuts at most once per RATE_DECREASE_INTERVAL.
    t << "cnp = \"ack\"\n";
    t << "dcqcn = \"paper\"\n\n[nic.dcqcn_params]\n";
    t << "cnp_interval = \"0us\"\n";
    if (const std::string g = first("EWMA_GAIN"); !g.empty()) t << "g = " << g << "\n";
    if (const std::string k = first("ALPHA_RESUME_INTERVAL"); !k.empty())
      t << "alpha_period = \"" << k << "us\"\n";
    if (const std::string k = first("RP_TIMER"); !k.empty())
      t << "rate_timer = \"" << k << "us\"\n";
    if (const std::string k = first("FAST_RECOVERY_TIMES"); !k.empty())
      t << "fast_recovery_stages = " << k << "\n";
    if (const std::string k = first("RATE_AI"); !k.empty())
      t << "rate_ai = \"" << rate(k) << "\"\n";
    if (const std::string k = first("RATE_HAI"); !k.empty())
      t << "rate_hai = \"" << rate(k) << "\"\n";
    if (const std::string k = first("MIN_RATE"); !k.empty())
      t << "min_rate = \"" << rate(k) << "\"\n";
    if (const std::string k = first("RATE_DECREASE_INTERVAL"); !k.empty())
      t << "min_cut_interval = \"" << k << "us\"\n";
    // HPCC's DCQCN (RdmaHw::RateIncEventMlx) increases on its timer only: F
    // fast-recovery steps, one additive, then hyper increases of R_HAI each.
    t << "byte_counter = \"0B\"  # HPCC's DCQCN has no byte counter\n";
    t << "hyper_increase = \"constant\"\n";
    // Its first cut comes at the first rate-decrease check after the first CNP.
    t << "first_cut = \"next_check\"\n";
    // Its α ticks every ALPHA_RESUME_INTERVAL and its decrease checks every
    // RATE_DECREASE_INTERVAL, both clocks started by the first CNP.
    t << "clocks = \"periodic\"\n";
    // CLAMP_TARGET_RATE 0 (its default): a cut resets R_T only after a timer increase.
    t << "clamp_target = " << (first("CLAMP_TARGET_RATE") == "1" ? "true" : "false") << "\n";
  } else {
    t << "dcqcn = \"off\"\n";
    notes.push_back("CC_MODE " + cc +
                    " (3 HPCC, 7 TIMELY, 8 DCTCP, 10 PINT): xoff's RoCE NICs run DCQCN or none; "
                    "imported with DCQCN off");
  }
  if (ack_high_prio) t << "\n[scheduler]\nstrict = [7]\n";
  t << "\n[[traffic.file]]\npath = " << toml_string(path_for(flows)) << "\nformat = \"hpcc\"\n";
  if (const Entry* e = get("ERROR_RATE_PER_LINK"); e && std::stod(e->values[0]) != 0) {
    notes.push_back("ERROR_RATE_PER_LINK " + e->values[0] + ": xoff models no bit errors");
  }
  for (const char* k : {"FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE", "TRACE_FILE", "TRACE_OUTPUT_FILE",
                        "QLEN_MON_FILE", "QLEN_MON_START", "QLEN_MON_END", "ENABLE_TRACE"}) {
    if (get(k) != nullptr && std::string(k) == "FCT_OUTPUT_FILE") {
      notes.push_back(
          "output files (FCT_OUTPUT_FILE, PFC_OUTPUT_FILE, traces, qlen): xoff writes "
          "HDF5; `xoff export hpcc RUN.h5 -o DIR` writes fct.txt, pfc.txt and qlen.txt");
    }
  }
  for (const auto& k : order) {
    if (!used.count(k))
      notes.push_back(k + " (line " + std::to_string(cfg[k].line) + "): no counterpart");
  }
  std::ostringstream file;
  file << "# Imported by `xoff import hpcc " << a.input << "`.\n";
  if (!notes.empty()) file << "# Not carried over, or changed:\n";
  for (const auto& n : notes) file << "#   " << n << "\n";
  file << "\n" << t.str();
  // Written under a temporary name, loaded as a scenario, then renamed.
  std::error_code ec;
  if (!out_dir.empty()) fs::create_directories(out_dir, ec);
  const fs::path tmp = out.string() + ".tmp.toml";
  {
    std::ofstream f(tmp);
    f << file.str();
    if (!f.flush()) {
      std::fprintf(stderr, "xoff import: cannot write %s\n", tmp.c_str());
      return 1;
    }
  }
  try {
    (void)load_scenario(tmp.string(), {});
  } catch (const config::ScenarioError& e) {
    std::fprintf(stderr, "xoff import: the converted scenario does not load:\n%s\n", e.what());
    fs::remove(tmp, ec);
    return 2;
  }
  fs::rename(tmp, out, ec);
  if (ec) {
    std::fprintf(stderr, "xoff import: cannot write %s\n", out.c_str());
    return 1;
  }
  std::printf("%s: written from %s\n", out.c_str(), a.input.c_str());
  for (const auto& n : notes) std::printf("  not carried over: %s\n", n.c_str());
  return 0;
}

}  // namespace xoff::app
