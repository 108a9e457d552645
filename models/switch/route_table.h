#pragma once
// A switch's forwarding table: for each destination host ordinal, the egress
// ports a packet may take (an ECMP group). Flat: one entry per destination
// indexing into a single port vector, so a lookup is two array reads and
// allocates nothing. An empty group means no route (the packet is dropped).
//
// Built from the topology layer's tables (models/topology/routing.h) by the
// network builder: set(h, tables.next_hops(node, h)) for every host h.
#include <cstdint>
#include <span>
#include <vector>

#include "models/core/ids.h"

namespace xoff::models {

class RouteTable {
 public:
  // Replaces the group of `dst`. Reuses the old slot when the new group fits in
  // it, else appends (build time and route installs only, never per packet).
  void set(uint32_t dst, std::span<const PortIndex> ports);
  std::span<const PortIndex> lookup(uint32_t dst) const {
    if (dst >= entries_.size()) return {};
    const Entry& e = entries_[dst];
    return {ports_.data() + e.offset, e.count};
  }
  uint32_t num_destinations() const { return static_cast<uint32_t>(entries_.size()); }
  // Largest port index used plus one (0 when empty), for validation.
  uint32_t port_bound() const { return port_bound_; }

 private:
  struct Entry {
    uint32_t offset = 0;
    uint32_t count = 0;
    uint32_t capacity = 0;
  };
  std::vector<Entry> entries_;
  std::vector<PortIndex> ports_;
  uint32_t port_bound_ = 0;
};

// ECMP choice: splitmix64's finalizer over (salt ^ flow hash), modulo the group
// size; the same function as models/topology ecmp_select, so both layers agree.
// Per-switch salts decorrelate consecutive stages (no hash polarisation).
PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt);

}  // namespace xoff::models
