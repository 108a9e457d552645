// [[device]]: per-node QoS settings (PFC classes, DCBX mode, a switch's
// trust and DSCP map, a NIC's RoCE marking), DCBX per link, and the
// inconsistencies across links that `xoff check` reports.
#include <string>
#include <vector>

#include "app/scenario/parse.h"

namespace xoff::app {
namespace {
using config::TableReader;
using models::ClassificationConfig;
using models::DcbxMode;

std::string class_list(uint8_t mask) {
  std::string s = "[";
  for (int c = 0; c < models::kNumClasses; ++c) {
    if (!((mask >> c) & 1)) continue;
    if (s.size() > 1) s += ", ";
    s += std::to_string(c);
  }
  return s + "]";
}

const char* trust_name(ClassificationConfig::Trust t) {
  return t == ClassificationConfig::Trust::kDscp ? "DSCP" : "PCP";
}

// The DSCP a host's RoCE traffic carries: the NIC's roce_dscp, or else the
// one RoCE flows carry by default (24: class 3 by the class selector).
uint8_t roce_dscp_of(const DeviceQos& d) {
  return d.roce_dscp >= 0 ? static_cast<uint8_t>(d.roce_dscp) : uint8_t{24};
}

void warn_link(const ScenarioConfig& s, uint32_t a, uint16_t pa, uint32_t b, uint16_t pb,
               uint8_t lossless, std::vector<std::string>& out) {
  const models::Topology& t = s.topology;
  const auto& na = t.nodes[a];
  const auto& nb = t.nodes[b];
  const bool ha = na.kind == models::NodeKind::kHost;
  const bool hb = nb.kind == models::NodeKind::kHost;
  auto end = [&](uint32_t n, uint16_t p) {
    return t.nodes[n].kind == models::NodeKind::kHost ? t.nodes[n].name
                                                      : t.nodes[n].name + ":p" + std::to_string(p);
  };
  const std::string ea = end(a, pa);
  const std::string eb = end(b, pb);
  const DeviceQos& da = s.devices[a];
  const DeviceQos& db = s.devices[b];
  const uint8_t oa = s.port_pfc[a][pa];
  const uint8_t ob = s.port_pfc[b][pb];
  if ((oa & lossless) != (ob & lossless)) {
    out.push_back("link " + ea + " - " + eb + ": PFC on classes " + class_list(oa) + " at " + ea +
                  ", " + class_list(ob) + " at " + eb + " (DCBX: " + na.name + " " +
                  models::dcbx_mode_name(da.dcbx) + ", " + nb.name + " " +
                  models::dcbx_mode_name(db.dcbx) + "); a lossless class paused at one end is " +
                  "not paused at the other");
  }
  if (ha != hb) {  // a host and its switch: where does the NIC's RoCE land?
    const uint32_t h = ha ? a : b;
    const uint32_t sw = ha ? b : a;
    const uint8_t dscp = roce_dscp_of(s.devices[h]);
    const ClassificationConfig& mine = s.devices[sw].classification;
    const auto trust = mine.host_trust ? *mine.host_trust : mine.trust;  // at its host port
    const int tc = mine.class_of(trust, dscp, static_cast<uint8_t>(dscp >> 3));
    const uint8_t sw_pfc = ha ? ob : oa;
    // Only where a device setting changed the marking or the map (fabric-wide
    // settings say nothing about which class RoCE is meant for).
    const ClassificationConfig& fab = s.switch_config.classification;
    const bool custom = s.devices[h].roce_dscp >= 0 || mine.trust != fab.trust ||
                        mine.dscp_to_tc != fab.dscp_to_tc || fab.host_trust.has_value();
    if (custom && lossless != 0 && (!((lossless >> tc) & 1) || !((sw_pfc >> tc) & 1))) {
      out.push_back(t.nodes[h].name + " marks RoCE with DSCP " + std::to_string(dscp) + ", which " +
                    t.nodes[sw].name + " (trusting " + trust_name(trust) + ") puts in class " +
                    std::to_string(tc) + ", not lossless on " + (ha ? eb : ea) +
                    " (lossless there: " + class_list(lossless & sw_pfc) +
                    "); its RoCE is dropped under congestion instead of paused");
    }
    return;
  }
  if (ha) return;
  const ClassificationConfig& ca = da.classification;
  const ClassificationConfig& cb = db.classification;
  if (ca.trust != cb.trust) {
    out.push_back("link " + ea + " - " + eb + ": " + na.name + " trusts " + trust_name(ca.trust) +
                  ", " + nb.name + " " + trust_name(cb.trust));
  }
  if (ca.trust == ClassificationConfig::Trust::kDscp &&
      cb.trust == ClassificationConfig::Trust::kDscp) {
    std::string differ;
    for (int d = 0; d < 64; ++d) {
      const int ta = ca.dscp_to_tc[d];
      const int tb = cb.dscp_to_tc[d];
      if ((((lossless >> ta) & 1) != 0) == (((lossless >> tb) & 1) != 0)) continue;
      if (!differ.empty()) differ += ", ";
      differ += std::to_string(d) + " (class " + std::to_string(ta) + " at " + na.name + ", " +
                std::to_string(tb) + " at " + nb.name + ")";
    }
    if (!differ.empty()) {
      out.push_back("link " + ea + " - " + eb +
                    ": DSCP lossless at one end, lossy at the other: " + differ);
    }
  }
}

}  // namespace

void read_devices(TableReader& root, Names& names, ScenarioConfig& s) {
  const models::Topology& t = s.topology;
  const uint8_t lossless = models::lossless_classes(s.switch_config);
  s.devices.assign(t.nodes.size(), DeviceQos{});
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    DeviceQos& d = s.devices[n];
    d.pfc = lossless;
    // Defaults as deployed: NICs willing (they take the switch's PFC
    // classes), switches non-willing (they advertise their own).
    d.dcbx =
        t.nodes[n].kind == models::NodeKind::kHost ? DcbxMode::kWilling : DcbxMode::kNonWilling;
    d.classification = s.switch_config.classification;
  }
  std::vector<int> listed(t.nodes.size(), -1);
  int index = 0;
  for (TableReader r : root.array_of_tables("device")) {
    const int me = index++;
    std::vector<uint32_t> nodes;
    for (const std::string& name : r.array<std::string>("nodes")) {
      const auto n = names.node_name(r, "nodes", name);
      if (!n) continue;
      if (listed[*n] >= 0) {
        r.error_at("nodes", "\"" + name + "\" is already configured by device[" +
                                std::to_string(listed[*n]) + "]");
        continue;
      }
      listed[*n] = me;
      nodes.push_back(*n);
    }
    if (!r.has("nodes")) r.error_here(r.path() + ": missing required key \"nodes\"");
    bool hosts = false;
    bool switches = false;
    for (uint32_t n : nodes) (t.nodes[n].kind == models::NodeKind::kHost ? hosts : switches) = true;
    std::optional<uint8_t> pfc;
    if (r.has("pfc_classes")) {
      uint8_t m = 0;
      for (int64_t c : r.array<int64_t>("pfc_classes", {.min = 0, .max = 7})) {
        m = static_cast<uint8_t>(m | 1u << c);
      }
      pfc = m;
    }
    std::optional<DcbxMode> mode;
    if (r.has("dcbx")) {
      const std::string m = r.choice("dcbx", {"willing", "non_willing", "off"});
      mode = m == "willing"       ? DcbxMode::kWilling
             : m == "non_willing" ? DcbxMode::kNonWilling
                                  : DcbxMode::kOff;
    }
    std::optional<ClassificationConfig::Trust> trust;
    if (r.has("trust")) {
      if (hosts)
        r.error_at("trust", r.path_of("trust") + " applies to switches; nodes lists hosts");
      trust = r.choice("trust", {"dscp", "pcp"}) == "pcp" ? ClassificationConfig::Trust::kPcp
                                                          : ClassificationConfig::Trust::kDscp;
    }
    std::vector<std::pair<uint8_t, uint8_t>> remap;
    for (TableReader m : r.array_of_tables("dscp")) {
      const auto d = static_cast<uint8_t>(m.required<int64_t>("dscp", {.min = 0, .max = 63}));
      const auto c = static_cast<uint8_t>(m.required<int64_t>("class", {.min = 0, .max = 7}));
      remap.emplace_back(d, c);
    }
    if (!remap.empty() && hosts) {
      r.error_at("dscp",
                 r.path_of("dscp") + " (a DSCP map) applies to switches; nodes lists hosts");
    }
    int roce_dscp = -1;
    if (r.has("roce_dscp")) {
      roce_dscp = static_cast<int>(r.required<int64_t>("roce_dscp", {.min = 0, .max = 63}));
      if (switches) {
        r.error_at("roce_dscp",
                   r.path_of("roce_dscp") + " applies to host NICs; nodes lists switches");
      }
    }
    std::optional<models::WatchdogConfig> watchdog;
    if (auto w = r.optional_table("watchdog")) {
      if (hosts)
        r.error_at("watchdog", r.path_of("watchdog") + " applies to switches; nodes lists hosts");
      models::WatchdogConfig wc = s.switch_config.watchdog;
      read_watchdog(w, wc);
      watchdog = wc;
    }
    std::optional<models::EcnConfig> ecn;
    if (auto e = r.optional_table("ecn")) {
      if (hosts) r.error_at("ecn", r.path_of("ecn") + " applies to switches; nodes lists hosts");
      models::EcnConfig ec;
      read_ecn(e, ec);
      ecn = ec;
    }
    for (uint32_t n : nodes) {
      DeviceQos& d = s.devices[n];
      if (watchdog) d.watchdog = watchdog;
      if (ecn) d.ecn = ecn;
      if (pfc) d.pfc = *pfc;
      if (mode) d.dcbx = *mode;
      if (trust) d.classification.trust = *trust;
      for (const auto& [dscp, c] : remap) d.classification.dscp_to_tc[dscp] = c;
      d.roce_dscp = roce_dscp;
    }
  }
  // DCBX on every link, then what still disagrees.
  s.port_pfc.assign(t.nodes.size(), {});
  const models::PortMap pm(t);  // Topology::peer scans every link: O(1) here
  for (uint32_t n = 0; n < t.nodes.size(); ++n) s.port_pfc[n].assign(pm.num_ports(n), 0);
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    for (uint16_t p = 0; p < pm.num_ports(n); ++p) {
      const models::PortPeer peer = pm.peer(n, p);
      const auto [mine, theirs] =
          models::dcbx_resolve({s.devices[n].pfc, s.devices[n].dcbx},
                               {s.devices[peer.node].pfc, s.devices[peer.node].dcbx});
      (void)theirs;
      s.port_pfc[n][p] = mine;
    }
  }
  s.qos_warnings.clear();
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    for (uint16_t p = 0; p < pm.num_ports(n); ++p) {
      const models::PortPeer peer = pm.peer(n, p);
      // Each link once, from its lower-numbered end.
      if (peer.node < n || (peer.node == n && peer.port < p)) continue;
      warn_link(s, n, p, peer.node, static_cast<uint16_t>(peer.port), lossless, s.qos_warnings);
    }
  }
}

}  // namespace xoff::app
