// `xoff counters RUN.h5 [--node N] [--port P]`: a run's end-of-run counters
// under the names operators read on real gear, per port and priority:
// NIC-style (mlx5 ethtool -S) tx_prioN_packets, tx_prioN_bytes,
// tx_prioN_pause (XOFF frames sent), rx_prioN_pause (received),
// rx_prioN_pause_duration_us (time the class was paused), plus
// ecn_marked_prioN and watermark_prioN_bytes (the queue's peak); then drops by
// reason per node, as discards. Only non-zero counters are printed unless
// --all.
#include <cstdio>
#include <map>

#include "analysis/results/h5_reader.h"
#include "analysis/results/results_error.h"
#include "app/commands/commands.h"

namespace xoff::app {

int cmd_counters(const CountersArgs& a) {
  analysis::RunData d;
  try {
    d = analysis::read_results(a.input);
  } catch (const analysis::ResultsError& e) {
    std::fprintf(stderr, "xoff counters: %s\n", e.what());
    return 2;
  }
  bool node_seen = a.node.empty();
  size_t printed = 0;
  std::string current;
  for (const auto& q : d.queues) {
    if (!a.node.empty() && q.node != a.node) continue;
    node_seen = true;
    if (a.port >= 0 && q.port != a.port) continue;
    const std::string where = q.node + " port " + std::to_string(q.port);
    const int c = q.traffic_class;
    const std::pair<std::string, long long> rows[] = {
        {"tx_prio" + std::to_string(c) + "_packets", q.tx_packets},
        {"tx_prio" + std::to_string(c) + "_bytes", q.tx_bytes},
        {"tx_prio" + std::to_string(c) + "_pause", q.pause_sent},
        {"rx_prio" + std::to_string(c) + "_pause", q.pause_received},
        {"rx_prio" + std::to_string(c) + "_pause_duration_us",
         static_cast<long long>(q.paused_time.to_us())},
        {"ecn_marked_prio" + std::to_string(c), q.ecn_marked},
        {"watermark_prio" + std::to_string(c) + "_bytes", q.peak_bytes},
        {"discards_prio" + std::to_string(c), q.dropped_packets},
    };
    for (const auto& [name, value] : rows) {
      if (value == 0 && !a.all) continue;
      if (where != current) {
        std::printf("%s\n", where.c_str());
        current = where;
      }
      std::printf("  %-34s %lld\n", name.c_str(), value);
      ++printed;
    }
  }
  if (!node_seen) {
    std::fprintf(stderr, "xoff counters: no node \"%s\" in %s\n", a.node.c_str(), a.input.c_str());
    return 2;
  }
  // Drops by reason are kept per node.
  for (const auto& r : d.drops) {
    if (!a.node.empty() && r.node != a.node) continue;
    if (r.packets == 0 && !a.all) continue;
    std::printf("%s discards (%s)  %lld packets, %lld bytes\n", r.node.c_str(), r.reason.c_str(),
                static_cast<long long>(r.packets), static_cast<long long>(r.bytes));
    ++printed;
  }
  // The DSCP trust boundary's remarks are kept per switch.
  for (const auto& b : d.buffers) {
    if (!a.node.empty() && b.node != a.node) continue;
    if (b.acl_remarked == 0 && !a.all) continue;
    std::printf("%s acl_remarked  %lld packets\n", b.node.c_str(),
                static_cast<long long>(b.acl_remarked));
    ++printed;
  }
  // Tagger's retagged bounces, per switch.
  for (const auto& b : d.buffers) {
    if (!a.node.empty() && b.node != a.node) continue;
    if (b.tagger_retagged == 0 && !a.all) continue;
    std::printf("%s tagger_retagged  %lld packets\n", b.node.c_str(),
                static_cast<long long>(b.tagger_retagged));
    ++printed;
  }
  if (printed == 0) std::printf("(every counter is zero; --all prints them)\n");
  return 0;
}

}  // namespace xoff::app
