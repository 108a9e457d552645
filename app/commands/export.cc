// `xoff export hpcc RUN.h5 -o DIR`: a run's results as the HPCC ns-3
// simulator's text outputs, so analysis scripts written for it (fct_analysis.py
// and the like) run on xoff results unchanged:
//
//   fct.txt  one line per finished flow:
//            sip dip sport dport size start_ns fct_ns standalone_fct_ns
//            (IPs in hex as HPCC numbers them, 0x0b000001 + id/256 << 16 +
//            id%256 << 8 for host ordinal id; sport 10000 + flow id mod 50000,
//            dport 100; standalone = xoff's ideal FCT)
//   pfc.txt  one line per PFC frame received: time_ns node_id node_type
//            if_index type (node ids as HPCC numbers them: hosts 0..H-1 by
//            ordinal, then switches in topology order; node_type 0 host / 1
//            switch; if_index = port + 1 as ns-3 counts devices; type 1
//            pause / 0 resume)
//   qlen.txt HPCC's queue-length histograms: "time: <end_ns>", then per
//            switch port with queue_bytes series (a [[monitor.probe]]) a line
//            "node_id if_index c0 c1 ...": c_k = the samples whose port
//            total (its classes' series summed at each sample time) was k KB
//            (bytes / 1000, floored), as HPCC's monitor_buffer counts them.
//            One dump at the end of the run (HPCC dumps the same cumulative
//            histograms every qlen_dump_interval).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analysis/results/h5_reader.h"
#include "analysis/results/results_error.h"
#include "app/commands/commands.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

uint32_t hpcc_ip(uint32_t id) { return 0x0b000001u + ((id / 256) << 16) + ((id % 256) << 8); }

bool write_text(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) {
    fs::remove(tmp);
    return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

}  // namespace

int cmd_export(const ExportArgs& a) {
  if (a.format != "hpcc") {
    std::fprintf(stderr, "xoff export: format \"%s\": expected hpcc\n", a.format.c_str());
    return 2;
  }
  analysis::RunData d;
  try {
    d = analysis::read_results(a.input);
  } catch (const analysis::ResultsError& e) {
    std::fprintf(stderr, "xoff export: %s\n", e.what());
    return 2;
  }
  std::string fct;
  size_t flows = 0;
  char line[256];
  for (const auto& f : d.flows) {
    if (!f.finished()) continue;
    std::snprintf(line, sizeof line, "%08x %08x %u %u %lld %lld %lld %lld\n", hpcc_ip(f.src_host),
                  hpcc_ip(f.dst_host), 10000 + f.flow_id % 50000, 100,
                  static_cast<long long>(f.size_bytes),
                  static_cast<long long>(f.start.count_ps() / 1000),
                  static_cast<long long>((f.finish - f.start).count_ps() / 1000),
                  static_cast<long long>(f.ideal_fct.count_ps() / 1000));
    fct += line;
    ++flows;
  }
  // HPCC numbering: hosts 0..H-1 (host ordinals), then the switches in order.
  std::map<std::string, std::pair<uint32_t, bool>> nodes;  // name -> (id, is switch)
  uint32_t hosts = 0;
  for (const auto& n : d.topology_nodes) hosts += n.kind == "switch" ? 0 : 1;
  uint32_t next_host = 0;
  uint32_t next_switch = hosts;
  for (const auto& n : d.topology_nodes) {
    const bool sw = n.kind == "switch";
    nodes[n.name] = {sw ? next_switch++ : next_host++, sw};
  }
  std::string pfc;
  size_t frames = 0;
  for (const auto& e : d.pfc_events) {
    if (e.sent) continue;  // HPCC logs the paused device: the receiver
    const auto it = nodes.find(e.node);
    if (it == nodes.end()) continue;
    std::snprintf(line, sizeof line, "%lld %u %u %u %u\n",
                  static_cast<long long>(e.time.count_ps() / 1000), it->second.first,
                  it->second.second ? 1u : 0u, e.port + 1u, e.quanta > 0 ? 1u : 0u);
    pfc += line;
    ++frames;
  }
  // qlen.txt: per switch port, the sum over its classes' queue_bytes series
  // at each sample time, binned by KB.
  std::map<std::pair<uint32_t, uint32_t>, std::map<int64_t, double>> port_samples;
  for (const auto& s : d.series) {
    char node[128] = "";
    unsigned port = 0, tc = 0;
    if (std::sscanf(s.name.c_str(), "queue_bytes/%127[^/]/p%u/tc%u", node, &port, &tc) != 3)
      continue;
    const auto it = nodes.find(node);
    if (it == nodes.end() || !it->second.second) continue;  // switches only, as HPCC
    auto& at = port_samples[{it->second.first, port + 1u}];
    for (size_t i = 0; i < s.time_ps.size(); ++i) at[s.time_ps[i]] += s.value[i];
  }
  std::string qlen = "time: " + std::to_string(d.meta.sim_time.count_ps() / 1000) + "\n";
  for (const auto& [key, samples] : port_samples) {
    std::vector<uint64_t> cnt;
    for (const auto& [t, bytes] : samples) {
      const auto kb = static_cast<size_t>(std::max(0.0, bytes) / 1000);
      if (cnt.size() < kb + 1) cnt.resize(kb + 1, 0);
      ++cnt[kb];
    }
    qlen += std::to_string(key.first) + " " + std::to_string(key.second);
    for (uint64_t c : cnt) qlen += " " + std::to_string(c);
    qlen += "\n";
  }
  std::error_code ec;
  fs::create_directories(a.output, ec);
  if (ec || !write_text(fs::path(a.output) / "fct.txt", fct) ||
      !write_text(fs::path(a.output) / "pfc.txt", pfc) ||
      !write_text(fs::path(a.output) / "qlen.txt", qlen)) {
    std::fprintf(stderr, "xoff export: cannot write in %s\n", a.output.c_str());
    return 1;
  }
  std::printf(
      "%s/fct.txt: %zu flows; %s/pfc.txt: %zu PFC frames received; %s/qlen.txt: %zu "
      "switch ports%s\n",
      a.output.c_str(), flows, a.output.c_str(), frames, a.output.c_str(), port_samples.size(),
      port_samples.empty() ? " (the run has no queue_bytes probes: add [[monitor.probe]])" : "");
  return 0;
}

}  // namespace xoff::app
