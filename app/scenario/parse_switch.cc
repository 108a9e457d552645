// [buffer], [pfc], [ecn], [classification], [scheduler] and [watchdog]: one
// SwitchConfig applied to every switch of the scenario.
#include <algorithm>
#include <cstring>
#include <utility>

#include "app/scenario/parse.h"
#include "models/topology/headroom.h"

namespace xoff::app {
namespace {
using config::TableReader;

uint8_t class_mask(TableReader& r, std::string_view key, uint8_t fallback) {
  if (!r.has(key)) return fallback;
  uint8_t m = 0;
  for (int64_t c : r.array<int64_t>(key, {.min = 0, .max = 7})) m |= static_cast<uint8_t>(1 << c);
  return m;
}

void read_buffer(std::optional<TableReader> r, models::MmuConfig& m, bool pfc_enabled,
                 bool& allow_small_headroom) {
  uint8_t lossless = 1 << 3;
  // Buffer sizes up to 1 TiB (far beyond any switch): larger ones would
  // overflow the pool arithmetic (ports x headroom) and say nothing real.
  const config::Bounds<sim::Bytes> size_range{.min = sim::Bytes(0),
                                              .max = sim::Bytes(int64_t{1} << 40)};
  if (r) {
    allow_small_headroom = r->optional<bool>("allow_small_headroom", false);
    m.total = r->optional<sim::Bytes>("size", m.total,
                                      {.min = sim::Bytes(1), .max = sim::Bytes(int64_t{1} << 40)});
    lossless = class_mask(*r, "lossless", lossless);
    m.headroom_oversubscription =
        r->optional<double>("headroom_oversubscription", 0.0, {.min = 0.0, .max = 64.0});
  }
  models::PgConfig pg;
  models::EgressQueueConfig eg;
  if (r) {
    pg.alpha = r->optional<double>("alpha", pg.alpha, {.min = 0.0, .max = 64.0});
    pg.reserved = r->optional<sim::Bytes>("reserved", pg.reserved, size_range);
    pg.static_limit = r->optional<sim::Bytes>("static_limit", pg.static_limit, size_range);
    pg.headroom = r->optional<sim::Bytes>("headroom", pg.headroom, size_range);
    pg.xon_offset = r->optional<sim::Bytes>("xon_offset", pg.xon_offset, size_range);
    eg.alpha = r->optional<double>("egress_alpha", eg.alpha, {.min = 0.0, .max = 64.0});
    eg.static_limit = r->optional<sim::Bytes>("egress_static_limit", eg.static_limit, size_range);
    if (eg.alpha == 0 && eg.static_limit.count() == 0) {
      r->error_at("egress_static_limit", r->path_of("egress_alpha") +
                                             " = 0 selects a static limit: set " +
                                             r->path_of("egress_static_limit"));
    }
    if (pg.alpha == 0 && pg.static_limit.count() == 0) {
      r->error_at("static_limit", r->path_of("alpha") + " = 0 selects a static limit: set " +
                                      r->path_of("static_limit"));
    }
  }
  for (int tc = 0; tc < models::kNumClasses; ++tc) {
    m.pg[tc] = pg;
    m.pg[tc].lossless = pfc_enabled && ((lossless >> tc) & 1);
    m.egress[tc] = eg;
  }
}

void read_classification(std::optional<TableReader> r, models::ClassificationConfig& c) {
  if (!r) return;
  c.trust = r->choice("trust", {"dscp", "pcp"}, "dscp") == "pcp"
                ? models::ClassificationConfig::Trust::kPcp
                : models::ClassificationConfig::Trust::kDscp;
  for (TableReader m : r->array_of_tables("dscp")) {
    const int64_t d = m.required<int64_t>("dscp", {.min = 0, .max = 63});
    c.dscp_to_tc[d] = static_cast<uint8_t>(m.required<int64_t>("class", {.min = 0, .max = 7}));
  }
  if (r->has("host_trust")) {
    c.host_trust = r->choice("host_trust", {"dscp", "pcp"}) == "pcp"
                       ? models::ClassificationConfig::Trust::kPcp
                       : models::ClassificationConfig::Trust::kDscp;
  }
  c.host_lossless_roce_only =
      r->choice("host_lossless", {"any", "roce_only"}, "any") == "roce_only";
  c.host_remark_dscp =
      static_cast<uint8_t>(r->optional<int64_t>("host_remark_dscp", 0, {.min = 0, .max = 63}));
}

// The largest frame on any link: a RoCE data packet or a full TCP segment
// (what every headroom bound is computed for).
sim::Bytes largest_frame(const ScenarioConfig& s) {
  return std::max(s.roce.mtu + models::kRoceDataHeaderBytes, s.tcp.mss + s.tcp.header_bytes);
}

// The headroom a switch port's buffer profile gives, or -1 (none: buffer.headroom).
int64_t profile_headroom(const ScenarioConfig& s, uint32_t node, uint16_t port) {
  if (s.port_headroom.empty() || s.port_headroom[node].empty()) return -1;
  return s.port_headroom[node][port];
}

// A [buffer] problem, at `key` when the table exists.
void buffer_error(TableReader& root, std::string_view key, const std::string& msg) {
  if (auto buffer = root.optional_table("buffer")) {
    buffer->error_at(key, msg);
  } else {
    root.error_here(msg);
  }
}

void read_scheduler(std::optional<TableReader> r, models::SchedulerConfig& sc) {
  if (!r) return;
  const uint8_t strict = class_mask(*r, "strict", 0);
  for (int tc = 0; tc < models::kNumClasses; ++tc) sc.strict[tc] = (strict >> tc) & 1;
  const auto w = r->array<int64_t>("weights", {.min = 1, .max = 1000});
  if (!w.empty() && w.size() != models::kNumClasses) {
    r->error_at("weights", "expected 8 weights (one per class), got " + std::to_string(w.size()));
  }
  for (size_t i = 0; i < w.size() && i < models::kNumClasses; ++i)
    sc.weight[i] = static_cast<uint32_t>(w[i]);
  sc.quantum_unit = r->optional<sim::Bytes>("quantum", sc.quantum_unit,
                                            {.min = sim::Bytes(64), .max = sim::Bytes(1 << 20)});
}

}  // namespace

void read_watchdog(std::optional<TableReader> r, models::WatchdogConfig& w) {
  if (!r) return;
  w.enabled = r->optional<bool>("enabled", true);
  const std::string a = r->choice("action", {"drop", "forward", "alert"}, "drop");
  w.action = a == "drop"      ? models::WatchdogAction::kDrop
             : a == "forward" ? models::WatchdogAction::kForward
                              : models::WatchdogAction::kAlert;
  const config::Bounds<sim::Duration> pos{.min = sim::Duration::ns(100)};
  w.poll_interval = r->optional<sim::Duration>("poll_interval", w.poll_interval, pos);
  w.detection_time = r->optional<sim::Duration>("detection_time", w.detection_time, pos);
  w.restoration_time = r->optional<sim::Duration>("restoration_time", w.restoration_time, pos);
  // Real pfcwd timers run per switch, unaligned: each switch its own seeded
  // phase unless "aligned" is asked for.
  w.random_phase = r->choice("phase", {"random", "aligned"}, "random") == "random";
}

// One set of classes: `base` for every class in `classes` (all: kNumClasses
// bits), then [[<table>.class]] entries override single classes (the keys
// they leave out keep the table's values).
struct EcnDefaults {
  models::EcnClassConfig c;
  bool enabled = true;
  uint8_t classes = 0xFF;
};
EcnDefaults read_ecn_classes(TableReader& r, const EcnDefaults& d,
                             std::array<models::EcnClassConfig, models::kNumClasses>& out) {
  models::EcnClassConfig c = d.c;
  const bool enabled = r.optional<bool>("enabled", d.enabled);
  const uint8_t classes = class_mask(r, "classes", d.classes);
  c.kmin = r.optional<sim::Bytes>("kmin", c.kmin, {.min = sim::Bytes(0)});
  c.kmax = r.optional<sim::Bytes>("kmax", c.kmax, {.min = sim::Bytes(0)});
  c.pmax = r.optional<double>("pmax", c.pmax, {.min = 0.0, .max = 1.0});
  if (c.kmin > c.kmax) {
    r.error_at("kmin", r.path_of("kmin") + " (" + config::show(c.kmin) + ") must not exceed " +
                           r.path_of("kmax") + " (" + config::show(c.kmax) + ")");
  }
  for (int tc = 0; tc < models::kNumClasses; ++tc) {
    out[tc] = c;
    out[tc].enabled = enabled && ((classes >> tc) & 1);
  }
  uint8_t seen = 0;
  for (TableReader k : r.array_of_tables("class")) {
    const auto tc = static_cast<int>(k.required<int64_t>("class", {.min = 0, .max = 7}));
    if ((seen >> tc) & 1) {
      k.error_at("class", k.path_of("class") + ": class " + std::to_string(tc) + " has another [[" +
                              r.path() + ".class]] already");
      continue;
    }
    seen |= static_cast<uint8_t>(1 << tc);
    models::EcnClassConfig& o = out[tc];
    o.enabled = k.optional<bool>("enabled", true);
    o.kmin = k.optional<sim::Bytes>("kmin", c.kmin, {.min = sim::Bytes(0)});
    o.kmax = k.optional<sim::Bytes>("kmax", c.kmax, {.min = sim::Bytes(0)});
    o.pmax = k.optional<double>("pmax", c.pmax, {.min = 0.0, .max = 1.0});
    if (o.kmin > o.kmax) {
      k.error_at("kmin", k.path_of("kmin") + " (" + config::show(o.kmin) +
                             ") must not exceed kmax (" + config::show(o.kmax) + ")");
    }
  }
  return {c, enabled, classes};
}

void read_ecn(std::optional<TableReader> r, models::EcnConfig& e) {
  if (!r) {
    e.tc.fill(models::EcnClassConfig{});
    return;
  }
  const EcnDefaults fabric = read_ecn_classes(*r, EcnDefaults{}, e.tc);
  e.mark_at_dequeue = r->choice("at", {"enqueue", "dequeue"}, "enqueue") == "dequeue";
  // [ecn.host_ports]: the egress ports facing hosts, from the table's own
  // values (the keys it leaves out keep them; per-class entries of [ecn] do
  // not carry over).
  if (auto h = r->optional_table("host_ports")) {
    e.host_ports = true;
    read_ecn_classes(*h, fabric, e.host_tc);
  }
}

// [tagger]: classes and DSCP marks per tag; every class lossless, each
// marking classifying into its class, and a fabric with tiers to bounce in.
namespace {
void read_tagger(std::optional<TableReader> r, ScenarioConfig& s) {
  if (!r) return;
  models::TaggerConfig& t = s.switch_config.tagger;
  if (!r->has("classes") || !r->has("dscp")) {
    r->error_here(r->path() + ": needs `classes` and `dscp` (one per tag, tag 0 first)");
    return;
  }
  const std::vector<int64_t> classes = r->array<int64_t>("classes", {.min = 0, .max = 7});
  const std::vector<int64_t> dscp = r->array<int64_t>("dscp", {.min = 0, .max = 63});
  if (classes.size() < 2 || classes.size() != dscp.size()) {
    r->error_at("dscp", r->path_of("classes") + " and " + r->path_of("dscp") +
                            " need the same number of tags, at least 2 (got " +
                            std::to_string(classes.size()) + " and " + std::to_string(dscp.size()) +
                            ")");
    return;
  }
  const models::SwitchConfig& c = s.switch_config;
  const models::ClassificationConfig& cl = c.classification;
  uint8_t seen = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    const auto tc = static_cast<uint8_t>(classes[i]);
    const auto d = static_cast<uint8_t>(dscp[i]);
    if ((seen >> tc) & 1) {
      r->error_at("classes", r->path_of("classes") + ": class " + std::to_string(tc) +
                                 " is listed twice (each tag needs its own class)");
      return;
    }
    seen |= static_cast<uint8_t>(1 << tc);
    if (!c.mmu.pg[cl.tc_to_pg[tc]].lossless) {
      r->error_at("classes", r->path_of("classes") + ": class " + std::to_string(tc) +
                                 " is not lossless (add it to buffer.lossless): a tag's "
                                 "queue must be paused, not dropped");
      return;
    }
    if (cl.class_of(cl.trust, d, static_cast<uint8_t>(d >> 3)) != tc) {
      r->error_at("dscp",
                  r->path_of("dscp") + ": DSCP " + std::to_string(d) + " (tag " +
                      std::to_string(i) + ") is classified into class " +
                      std::to_string(cl.class_of(cl.trust, d, static_cast<uint8_t>(d >> 3))) +
                      ", not " + std::to_string(tc) +
                      " (map it with [[classification.dscp]] or choose another)");
      return;
    }
  }
  int top = 0;
  for (const models::NodeSpec& n : s.topology.nodes)
    if (n.kind == models::NodeKind::kSwitch) top = std::max(top, n.tier);
  if (top < 2) {
    r->error_here(r->path() +
                  ": needs a fabric with tiers (spine_leaf, fat_tree, rail, or "
                  "explicit switches with `tier`): a bounce is a turn from down to "
                  "up, and every switch here is on one tier");
    return;
  }
  for (size_t i = 0; i < classes.size(); ++i) {
    t.classes.push_back(static_cast<uint8_t>(classes[i]));
    t.dscp.push_back(static_cast<uint8_t>(dscp[i]));
  }
}
}  // namespace

void read_switch(TableReader& root, ScenarioConfig& s) {
  models::SwitchConfig& c = s.switch_config;
  c.seed = s.seed;
  auto pfc = root.optional_table("pfc");
  if (pfc) {
    s.pfc_enabled = pfc->optional<bool>("enabled", true);
    c.pfc.quanta =
        static_cast<uint16_t>(pfc->optional<int64_t>("quanta", 0xFFFF, {.min = 1, .max = 0xFFFF}));
    c.pfc.response_delay = pfc->optional<sim::Duration>("response_delay", sim::Duration::us(1),
                                                        {.min = sim::Duration::zero()});
    c.pfc.drop_host_pauses = pfc->choice("host_pauses", {"honour", "drop"}, "honour") == "drop";
  } else {
    c.pfc.response_delay = sim::Duration::us(1);
  }
  read_buffer(root.optional_table("buffer"), c.mmu, s.pfc_enabled, s.allow_small_headroom);
  read_ecn(root.optional_table("ecn"), c.ecn);
  read_classification(root.optional_table("classification"), c.classification);
  read_tagger(root.optional_table("tagger"), s);
  read_scheduler(root.optional_table("scheduler"), c.scheduler);
  read_watchdog(root.optional_table("watchdog"), c.watchdog);
}

// The switch model's own consistency rules (e.g. reserves and headroom must
// leave a shared pool), checked for the switch with the most ports.
void check_switch_config(TableReader& root, const ScenarioConfig& s) {
  uint16_t ports = 0;
  const models::PortMap pm(s.topology);
  for (uint32_t n = 0; n < s.topology.nodes.size(); ++n) {
    if (s.topology.nodes[n].kind == models::NodeKind::kSwitch)
      ports = std::max(ports, pm.num_ports(n));
  }
  auto buffer = root.optional_table("buffer");
  // The model names its fields (mmu.total); the user wrote buffer.size.
  const std::pair<const char*, const char*> names[] = {
      {"mmu.total", "buffer.size"},
      {"mmu.headroom_oversubscription", "buffer.headroom_oversubscription"},
      {"mmu.pg", "buffer (priority group)"},
      {"mmu.egress", "buffer (egress queue)"},
      {"ecn.tc", "ecn (class)"}};
  models::SwitchConfig cfg = s.switch_config;
  if (!s.port_headroom.empty()) {
    // Per-port headroom: the pool is checked per switch below, as the MMU
    // partitions it (models/switch/mmu.cc); validate the rest.
    const models::MmuConfig& m = s.switch_config.mmu;
    for (auto& pg : cfg.mmu.pg) pg.headroom = sim::Bytes(0);
    int lossless = 0;
    for (const auto& pg : m.pg) lossless += pg.lossless ? 1 : 0;
    for (uint32_t n = 0; n < s.topology.nodes.size(); ++n) {
      if (s.port_headroom[n].empty()) continue;
      int64_t sum = 0;
      for (int64_t h : s.port_headroom[n]) {
        sum += h >= 0 ? lossless * h : models::lossless_headroom_per_port(m);
      }
      const int64_t partition = models::headroom_partition_of(m, sum);
      const int64_t pool =
          m.total.count() - models::reserved_bytes(m, s.port_headroom[n].size()) - partition;
      if (pool <= 0) {
        buffer_error(root, "size",
                     "buffer.size (" + config::show(m.total) + ") leaves no shared pool on " +
                         s.topology.nodes[n].name + " after its buffer profiles' headroom (" +
                         config::show(sim::Bytes(partition)) + ") and reserves");
        return;
      }
    }
  }
  for (std::string problem : models::validate(cfg, ports)) {
    for (const auto& [model, user] : names) {
      for (size_t at = problem.find(model); at != std::string::npos;
           at = problem.find(model, at + std::strlen(user))) {
        problem.replace(at, std::strlen(model), user);
      }
    }
    const std::string msg =
        "switch configuration (" + std::to_string(ports) + " ports): " + problem;
    if (buffer)
      buffer->error_here(msg);
    else
      root.error_here(msg);
  }
}

// Refuses headroom below what a lossless PG needs on the most demanding switch
// link (models/topology/headroom.h), unless the scenario says it studies that.
void read_buffer_profiles(TableReader& root, ScenarioConfig& s) {
  auto buffer = root.optional_table("buffer");
  if (!buffer) return;
  struct Profile {
    sim::BitsPerSecond rate;
    int64_t cable_mm = 0;
    sim::Bytes headroom;
    sim::Bytes xon_offset;
  };
  const models::PgConfig& base = s.switch_config.mmu.pg[3];
  std::vector<Profile> profiles;
  for (TableReader p : buffer->array_of_tables("profile")) {
    Profile pr;
    pr.rate = p.required<sim::BitsPerSecond>("rate");
    pr.cable_mm = p.required<config::LengthMm>("cable", {.min = config::LengthMm{0}}).mm;
    pr.headroom = p.required<sim::Bytes>(
        "headroom", {.min = sim::Bytes(0), .max = sim::Bytes(int64_t{1} << 40)});
    pr.xon_offset = p.optional<sim::Bytes>("xon_offset", base.xon_offset,
                                           {.min = sim::Bytes(0), .max = sim::Bytes(1 << 30)});
    profiles.push_back(pr);
  }
  const bool automatic = buffer->choice("headroom_profile", {"fixed", "auto"}, "fixed") == "auto";
  if (profiles.empty() && !automatic) return;
  // A link's cable length from its delay at 5 ns/m (as `xoff headroom`).
  const models::Topology& t = s.topology;
  const sim::Bytes frame = largest_frame(s);
  s.port_headroom.assign(t.nodes.size(), {});
  s.port_xon_offset.assign(t.nodes.size(), {});
  const models::PortMap pm(t);  // Topology::peer scans every link: O(1) here
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    if (t.nodes[n].kind != models::NodeKind::kSwitch) continue;
    s.port_headroom[n].assign(pm.num_ports(n), -1);
    s.port_xon_offset[n].assign(pm.num_ports(n), -1);
    for (uint16_t p = 0; p < pm.num_ports(n); ++p) {
      const models::LinkSpec& l = t.links[pm.peer(n, p).link];
      const int64_t length_mm = l.delay.count_ps() / 5;  // 5000 ps per m = 5 ps per mm
      // SONiC's lookup: the profile for this speed with the shortest cable
      // that is at least as long as this link.
      const Profile* best = nullptr;
      for (const Profile& pr : profiles) {
        if (pr.rate != l.rate || pr.cable_mm < length_mm) continue;
        if (best == nullptr || pr.cable_mm < best->cable_mm) best = &pr;
      }
      if (best != nullptr) {
        s.port_headroom[n][p] = best->headroom.count();
        s.port_xon_offset[n][p] = best->xon_offset.count();
      } else if (automatic) {
        // The bound of this port's own link, rounded up to a KiB.
        const auto need = models::pfc_headroom_for_delay(l.rate, l.delay, frame,
                                                         s.switch_config.pfc.response_delay);
        s.port_headroom[n][p] = (need.total.count() + 1023) / 1024 * 1024;
        s.port_xon_offset[n][p] = base.xon_offset.count();
      }
    }
  }
}

void check_headroom(TableReader& root, const ScenarioConfig& s) {
  if (!s.pfc_enabled || s.allow_small_headroom) return;
  const sim::Bytes frame = largest_frame(s);
  const models::Topology& t = s.topology;
  // An end that buffer.headroom does not apply to: a host, or a profiled port.
  auto own = [&](uint32_t node, uint16_t port) {
    return t.nodes[node].kind != models::NodeKind::kSwitch || profile_headroom(s, node, port) >= 0;
  };
  for (const models::LinkSpec& l : t.links) {
    const auto need =
        models::pfc_headroom_for_delay(l.rate, l.delay, frame, s.switch_config.pfc.response_delay);
    // A switch end with a buffer profile is checked against its own headroom.
    for (const auto& [node, port] : {std::pair{l.a, l.a_port}, std::pair{l.b, l.b_port}}) {
      const int64_t h = profile_headroom(s, node, port);
      if (h < 0 || h >= need.total.count()) continue;
      const std::string msg = "the buffer profile of " + t.nodes[node].name + ":p" +
                              std::to_string(port) + " gives " + config::show(sim::Bytes(h)) +
                              " of headroom, below the " + config::show(need.total) +
                              " that link " + t.nodes[l.a].name + "-" + t.nodes[l.b].name +
                              " needs (" + config::show(l.rate) + ", " + config::show(l.delay) +
                              " cable; see `xoff headroom`); set buffer.allow_small_headroom = "
                              "true to study it anyway";
      buffer_error(root, "profile", msg);
      return;
    }
    for (int tc = 0; tc < models::kNumClasses; ++tc) {
      const models::PgConfig& pg = s.switch_config.mmu.pg[tc];
      if (!pg.lossless || pg.headroom >= need.total) continue;
      if (own(l.a, l.a_port) && own(l.b, l.b_port)) continue;
      const std::string msg = "buffer.headroom (" + config::show(pg.headroom) + ") is below the " +
                              config::show(need.total) + " that link " + t.nodes[l.a].name + "-" +
                              t.nodes[l.b].name + " needs (" + config::show(l.rate) + ", " +
                              config::show(l.delay) + " cable, " + config::show(frame) +
                              " frames, " + config::show(s.switch_config.pfc.response_delay) +
                              " response; see `xoff headroom`); set buffer.allow_small_headroom = "
                              "true to study it anyway";
      buffer_error(root, "headroom", msg);
      return;
    }
  }
}

}  // namespace xoff::app
