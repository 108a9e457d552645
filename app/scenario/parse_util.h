#pragma once
// Shared helpers of the scenario schema: resolving node names against the
// topology with positioned errors, and reading traffic class markings.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config/reader.h"
#include "models/topology/topology.h"
#include "models/traffic/flow_plan.h"

namespace xoff::app {

class Names {
 public:
  explicit Names(const models::Topology& topo) : topo_(topo) {}
  // Host ordinal named by r[key]; an error (with a suggestion) if not a host.
  std::optional<uint32_t> host(config::TableReader& r, std::string_view key);
  std::optional<uint32_t> host_name(config::TableReader& r, std::string_view key,
                                    const std::string& name);
  // Topology node index named by r[key] (host or switch).
  std::optional<uint32_t> node(config::TableReader& r, std::string_view key);
  std::optional<uint32_t> node_name(config::TableReader& r, std::string_view key,
                                    const std::string& name);
  // r[key] is "all" (every host) or an array of host names. Without `required`,
  // an absent key (or an empty list) means every host.
  std::vector<uint32_t> hosts(config::TableReader& r, std::string_view key, bool required);
  const models::Topology& topology() const { return topo_; }

 private:
  std::string unknown(const std::string& name, bool want_host) const;
  std::vector<uint32_t> listed_hosts(config::TableReader& r, std::string_view key, bool required);
  const models::Topology& topo_;
};

// protocol ("roce" | "tcp"), class (0..7: dscp = 8 x class, tc = class), or an
// explicit dscp (the switch map decides its class; a mis-marked flow is lossy).
models::FlowClass read_flow_class(config::TableReader& r, const std::string& default_protocol);

}  // namespace xoff::app
