#include "models/switch/route_table.h"

#include <algorithm>
#include <array>

#include "sim/check.h"
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
  const Group group = groups_[intern(ports)];
  const uint32_t b = dst >> kBlockBits;
  if (b >= top_.size()) {
    top_.resize(b + 1, 0);  // uniform, the empty group
    owned_.resize(b + 1, false);
  }
  num_dst_ = std::max(num_dst_, dst + 1);
  if (!owned_[b]) {  // a block of its own, holding what the block held
    XOFF_CHECK(entries_.size() + kBlock < (size_t{1} << 31), "route table of 2^31 entries");
    const auto offset = static_cast<uint32_t>(entries_.size());
    const uint32_t base = b << kBlockBits;
    for (uint32_t i = 0; i < kBlock; ++i) entries_.push_back(group_of(base + i));
    top_[b] = offset << 1 | 1u;
    owned_[b] = true;
  }
  entries_[(top_[b] >> 1) + (dst & (kBlock - 1))] = group;
  for (PortIndex p : ports) port_bound_ = std::max<uint32_t>(port_bound_, p.value() + 1u);
}

void RouteTable::swap(RouteTable& o) noexcept {
  top_.swap(o.top_);
  entries_.swap(o.entries_);
  groups_.swap(o.groups_);
  ports_.swap(o.ports_);
  std::swap(num_dst_, o.num_dst_);
  std::swap(port_bound_, o.port_bound_);
  owned_.swap(o.owned_);
  index_.swap(o.index_);
}

void RouteTable::compact() {
  std::vector<Group> entries{Group{}};
  std::unordered_map<uint64_t, uint32_t> uniform{{Group{}.key(), 0u}};  // group -> its entry
  std::unordered_map<std::string, uint32_t> mixed;  // a block's 32 groups -> first entry
  std::array<Group, kBlock> block{};
  for (uint32_t b = 0; b < top_.size(); ++b) {
    for (uint32_t i = 0; i < kBlock; ++i) block[i] = group_of((b << kBlockBits) + i);
    if (std::all_of(block.begin(), block.end(), [&](const Group& g) { return g == block[0]; })) {
      const auto [it, added] =
          uniform.try_emplace(block[0].key(), static_cast<uint32_t>(entries.size()));
      if (added) entries.push_back(block[0]);
      top_[b] = it->second << 1;
    } else {
      std::string key(reinterpret_cast<const char*>(block.data()), sizeof block);
      const auto [it, added] =
          mixed.try_emplace(std::move(key), static_cast<uint32_t>(entries.size()));
      if (added) entries.insert(entries.end(), block.begin(), block.end());
      top_[b] = it->second << 1 | 1u;
    }
    owned_[b] = false;  // shared now: the next set() of this block copies it
  }
  entries_ = std::move(entries);
}

PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt) {
  if (group.size() == 1) return group[0];
  uint64_t state = salt ^ flow_hash;
  return group[sim::splitmix64_next(state) % group.size()];
}

}  // namespace xoff::models
