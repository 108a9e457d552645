#include "app/scenario/parse_util.h"

#include "app/config/suggest.h"

namespace xoff::app {

std::string Names::unknown(const std::string& name, bool want_host) const {
  std::vector<std::string> candidates;
  for (const auto& n : topo_.nodes) {
    if (!want_host || n.kind == models::NodeKind::kHost) candidates.push_back(n.name);
  }
  std::string msg = "unknown " + std::string(want_host ? "host" : "node") + " \"" + name + "\"";
  if (auto s = config::nearest(name, candidates)) msg += " (did you mean \"" + *s + "\"?)";
  if (want_host && !candidates.empty()) {
    msg += "; hosts are " + candidates.front() + ".." + candidates.back();
  }
  return msg;
}

std::optional<uint32_t> Names::host_name(config::TableReader& r, std::string_view key,
                                         const std::string& name) {
  const auto id = topo_.find(name);
  if (!id || topo_.nodes[*id].kind != models::NodeKind::kHost) {
    r.error_at(key, unknown(name, true));
    return std::nullopt;
  }
  return topo_.host_ordinal(*id);
}

std::optional<uint32_t> Names::host(config::TableReader& r, std::string_view key) {
  const std::string name = r.required<std::string>(key);
  if (name.empty()) {  // missing (already reported) or written as ""
    if (r.has(key)) r.error_at(key, "must name a host, got \"\"");
    return std::nullopt;
  }
  return host_name(r, key, name);
}

std::optional<uint32_t> Names::node_name(config::TableReader& r, std::string_view key,
                                         const std::string& name) {
  const auto id = topo_.find(name);
  if (!id) {
    r.error_at(key, unknown(name, false));
    return std::nullopt;
  }
  return *id;
}

std::optional<uint32_t> Names::node(config::TableReader& r, std::string_view key) {
  const std::string name = r.required<std::string>(key);
  if (name.empty()) {  // missing (already reported) or written as ""
    if (r.has(key)) r.error_at(key, "must name a node, got \"\"");
    return std::nullopt;
  }
  return node_name(r, key, name);
}

std::vector<uint32_t> Names::hosts(config::TableReader& r, std::string_view key, bool required) {
  std::vector<uint32_t> out = listed_hosts(r, key, required);
  if (out.empty() && !required) {
    for (uint32_t h = 0; h < topo_.num_hosts(); ++h) out.push_back(h);
  }
  return out;
}

std::vector<uint32_t> Names::listed_hosts(config::TableReader& r, std::string_view key,
                                          bool required) {
  std::vector<uint32_t> out;
  if (!r.has(key)) {
    if (required) r.required<std::string>(key);  // reports the missing key
    return out;
  }
  // "first..last": the hosts with ordinals first..last (in topology order).
  const auto range = [&](const std::string& text) {
    const size_t dots = text.find("..");
    const auto a = host_name(r, key, text.substr(0, dots));
    const auto b = host_name(r, key, text.substr(dots + 2));
    if (!a || !b) return;
    if (*b < *a) {
      r.error_at(key, r.path_of(key) + ": range \"" + text + "\" runs backwards");
      return;
    }
    for (uint32_t h = *a; h <= *b; ++h) out.push_back(h);
  };
  if (r.raw()[key].is_string()) {
    const std::string text = r.required<std::string>(key);
    if (text.find("..") != std::string::npos) {
      range(text);
      return out;
    }
    if (text != "all") {
      r.error_at(key, "expected \"all\", a range \"h0..h7\" or an array of host names");
      return out;
    }
    for (uint32_t h = 0; h < topo_.num_hosts(); ++h) out.push_back(h);
    return out;
  }
  for (const std::string& name : r.array<std::string>(key)) {
    if (name.find("..") != std::string::npos) {
      range(name);
    } else if (auto h = host_name(r, key, name)) {
      out.push_back(*h);
    }
  }
  return out;
}

models::FlowClass read_flow_class(config::TableReader& r, const std::string& default_protocol) {
  models::FlowClass c;
  const std::string proto = r.choice("protocol", {"roce", "tcp"}, default_protocol);
  c.protocol = proto == "tcp" ? models::Protocol::kTcp : models::Protocol::kRoce;
  const int64_t cls = r.optional<int64_t>("class", proto == "tcp" ? 0 : 3, {.min = 0, .max = 7});
  c.tc = static_cast<uint8_t>(cls);
  c.pcp = static_cast<uint8_t>(cls);
  c.dscp = static_cast<uint8_t>(r.optional<int64_t>("dscp", cls * 8, {.min = 0, .max = 63}));
  return c;
}

}  // namespace xoff::app
