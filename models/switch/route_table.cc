#include "models/switch/route_table.h"

#include <algorithm>

#include "sim/rng.h"

namespace xoff::models {

void RouteTable::set(uint32_t dst, std::span<const PortIndex> ports) {
  if (dst >= entries_.size()) entries_.resize(dst + 1);
  Entry& e = entries_[dst];
  const auto n = static_cast<uint32_t>(ports.size());
  if (n > e.capacity) {
    e.offset = static_cast<uint32_t>(ports_.size());
    e.capacity = n;
    ports_.resize(ports_.size() + n);
  }
  std::copy(ports.begin(), ports.end(), ports_.begin() + e.offset);
  e.count = n;
  for (PortIndex p : ports) port_bound_ = std::max<uint32_t>(port_bound_, p.value() + 1u);
}

PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt) {
  if (group.size() == 1) return group[0];
  uint64_t state = salt ^ flow_hash;
  return group[sim::splitmix64_next(state) % group.size()];
}

}  // namespace xoff::models
