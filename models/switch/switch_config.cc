#include "models/switch/switch_config.h"

#include <cmath>
#include <string>

namespace xoff::models {

const char* watchdog_action_name(WatchdogAction a) {
  switch (a) {
    case WatchdogAction::kDrop:
      return "drop";
    case WatchdogAction::kForward:
      return "forward";
    case WatchdogAction::kAlert:
      return "alert";
  }
  return "?";
}

int64_t headroom_partition_of(const MmuConfig& c, int64_t headroom_sum) {
  if (c.headroom_oversubscription <= 0) return headroom_sum;
  return static_cast<int64_t>(
      std::ceil(static_cast<double>(headroom_sum) / c.headroom_oversubscription));
}

int64_t lossless_headroom_per_port(const MmuConfig& c) {
  int64_t per_port = 0;
  for (const PgConfig& pg : c.pg) {
    if (pg.lossless) per_port += pg.headroom.count();
  }
  return per_port;
}

int64_t reserved_bytes(const MmuConfig& c, size_t num_ports) {
  int64_t reserved = 0;
  for (const PgConfig& pg : c.pg) reserved += pg.reserved.count();
  return reserved * static_cast<int64_t>(num_ports);
}

int64_t headroom_partition_bytes(const MmuConfig& c, size_t num_ports) {
  return headroom_partition_of(c, lossless_headroom_per_port(c) * static_cast<int64_t>(num_ports));
}

int64_t shared_pool_bytes(const MmuConfig& c, size_t num_ports) {
  return c.total.count() - reserved_bytes(c, num_ports) - headroom_partition_bytes(c, num_ports);
}

uint8_t lossless_classes(const SwitchConfig& c) {
  uint8_t m = 0;
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (c.mmu.pg[c.classification.tc_to_pg[tc]].lossless) m = static_cast<uint8_t>(m | 1u << tc);
  }
  return m;
}

namespace {

std::string b(sim::Bytes v) { return std::to_string(v.count()) + " B"; }
std::string idx(const char* what, int i) {
  return std::string(what) + "[" + std::to_string(i) + "]";
}

void validate_mmu(const MmuConfig& m, size_t num_ports, std::vector<std::string>& out) {
  if (m.total.count() <= 0) out.push_back("mmu.total must be positive");
  for (int i = 0; i < kNumClasses; ++i) {
    const PgConfig& pg = m.pg[i];
    const std::string n = idx("mmu.pg", i);
    if (pg.alpha < 0) out.push_back(n + ".alpha must not be negative");
    if (pg.reserved.count() < 0 || pg.static_limit.count() < 0 || pg.headroom.count() < 0 ||
        pg.xon_offset.count() < 0) {
      out.push_back(n + ": sizes must not be negative");
    }
    if (m.egress[i].alpha < 0) out.push_back(idx("mmu.egress", i) + ".alpha must not be negative");
  }
  if (m.headroom_oversubscription != 0 && m.headroom_oversubscription < 1) {
    out.push_back("mmu.headroom_oversubscription must be 0 (dedicated) or >= 1");
  }
  const int64_t shared = shared_pool_bytes(m, num_ports);
  if (shared <= 0) {
    out.push_back("mmu.total (" + b(m.total) +
                  ") leaves no shared pool after reserves and headroom on " +
                  std::to_string(num_ports) + " ports (" + std::to_string(shared) + " B)");
  }
}

void validate_ecn(const EcnConfig& e, std::vector<std::string>& out) {
  for (int group = 0; group < (e.host_ports ? 2 : 1); ++group) {
    for (int i = 0; i < kNumClasses; ++i) {
      const EcnClassConfig& c = group == 0 ? e.tc[i] : e.host_tc[i];
      const std::string n = idx(group == 0 ? "ecn.tc" : "ecn.host_tc", i);
      if (c.kmin > c.kmax)
        out.push_back(n + ".kmin (" + b(c.kmin) + ") exceeds " + n + ".kmax (" + b(c.kmax) + ")");
      if (c.pmax < 0 || c.pmax > 1) out.push_back(n + ".pmax must be in [0, 1]");
    }
  }
}

}  // namespace

std::vector<std::string> validate(const SwitchConfig& c, size_t num_ports) {
  std::vector<std::string> out;
  for (int i = 0; i < 64; ++i) {
    if (c.classification.dscp_to_tc[i] >= kNumClasses)
      out.push_back(idx("classification.dscp_to_tc", i) + " must be < 8");
  }
  for (int i = 0; i < kNumClasses; ++i) {
    if (c.classification.pcp_to_tc[i] >= kNumClasses)
      out.push_back(idx("classification.pcp_to_tc", i) + " must be < 8");
    if (c.classification.tc_to_pg[i] >= kNumClasses)
      out.push_back(idx("classification.tc_to_pg", i) + " must be < 8");
  }
  validate_mmu(c.mmu, num_ports, out);
  validate_ecn(c.ecn, out);
  const TaggerConfig& t = c.tagger;
  if (t.classes.size() != t.dscp.size()) out.push_back("tagger: one DSCP per class");
  for (uint8_t tc : t.classes) {
    if (tc >= kNumClasses || !c.mmu.pg[c.classification.tc_to_pg[tc]].lossless)
      out.push_back("tagger: class " + std::to_string(tc) + " must be a lossless class");
  }
  for (uint8_t d : t.dscp) {
    if (d >= 64) out.push_back("tagger: DSCP " + std::to_string(d) + " must be < 64");
  }
  if (c.pfc.quanta == 0) out.push_back("pfc.quanta must be positive (0 is XON)");
  if (c.pfc.response_delay < sim::Duration::zero())
    out.push_back("pfc.response_delay must not be negative");
  const WatchdogConfig& w = c.watchdog;
  if (w.enabled &&
      (w.poll_interval <= sim::Duration::zero() || w.detection_time <= sim::Duration::zero() ||
       w.restoration_time <= sim::Duration::zero())) {
    out.push_back("watchdog: poll_interval, detection_time and restoration_time must be positive");
  }
  return out;
}

}  // namespace xoff::models
