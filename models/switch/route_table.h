#pragma once
// A switch's forwarding table: for each destination host ordinal, the egress
// ports a packet may take (an ECMP group). One 4-byte group id per
// destination; groups are interned, so the leaf's uplink group is stored once
// and shared by every remote destination (a lookup touches the same few cache
// lines however many hosts the fabric has). A lookup is two array reads and
// allocates nothing. An empty group means no route (the packet is dropped).
//
// Built from the topology layer's tables (models/topology/routing.h) by the
// network builder: set(h, tables.next_hops(node, h)) for every host h.
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/core/ids.h"

namespace xoff::models {

class RouteTable {
 public:
  // Replaces the group of `dst` (build time and route installs only, never
  // per packet): interns the port list, appending it only if it is new.
  void set(uint32_t dst, std::span<const PortIndex> ports);
  std::span<const PortIndex> lookup(uint32_t dst) const {
    if (dst >= group_of_.size()) return {};
    const Group& g = groups_[group_of_[dst]];
    return {ports_.data() + g.offset, g.count};
  }
  uint32_t num_destinations() const { return static_cast<uint32_t>(group_of_.size()); }
  uint32_t num_groups() const { return static_cast<uint32_t>(groups_.size()); }
  // Largest port index used plus one (0 when empty), for validation.
  uint32_t port_bound() const { return port_bound_; }

 private:
  struct Group {
    uint32_t offset = 0;
    uint32_t count = 0;
  };
  uint32_t intern(std::span<const PortIndex> ports);
  std::vector<uint32_t> group_of_;      // destination -> group (0: empty)
  std::vector<Group> groups_{Group{}};  // group 0 is the empty group
  std::vector<PortIndex> ports_;
  std::unordered_map<std::string, uint32_t> index_;  // group bytes -> id
  uint32_t port_bound_ = 0;
};

// ECMP choice: splitmix64's finalizer over (salt ^ flow hash), modulo the group
// size; the same function as models/topology ecmp_select, so both layers agree.
// Per-switch salts decorrelate consecutive stages (no hash polarisation).
PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt);

}  // namespace xoff::models
