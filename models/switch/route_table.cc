#include "models/switch/route_table.h"

#include <algorithm>

#include "sim/rng.h"

namespace xoff::models {

uint32_t RouteTable::intern(std::span<const PortIndex> ports) {
  if (ports.empty()) return 0;
  std::string key(reinterpret_cast<const char*>(ports.data()), ports.size_bytes());
  const auto [it, added] = index_.try_emplace(std::move(key), 0);
  if (added) {
    it->second = static_cast<uint32_t>(groups_.size());
    groups_.push_back(
        Group{static_cast<uint32_t>(ports_.size()), static_cast<uint32_t>(ports.size())});
    ports_.insert(ports_.end(), ports.begin(), ports.end());
  }
  return it->second;
}

void RouteTable::set(uint32_t dst, std::span<const PortIndex> ports) {
  if (dst >= group_of_.size()) group_of_.resize(dst + 1, 0);
  group_of_[dst] = intern(ports);
  for (PortIndex p : ports) port_bound_ = std::max<uint32_t>(port_bound_, p.value() + 1u);
}

PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt) {
  if (group.size() == 1) return group[0];
  uint64_t state = salt ^ flow_hash;
  return group[sim::splitmix64_next(state) % group.size()];
}

}  // namespace xoff::models
