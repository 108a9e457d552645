#pragma once
// A switch's forwarding table: for each destination host ordinal, the egress
// ports a packet may take (an ECMP group). Groups are interned, so the leaf's
// uplink group is stored once and shared by every remote destination. An
// empty group means no route (the packet is dropped).
//
// Destinations map to groups in blocks of 32 consecutive ordinals, as a
// two-level page table: a block whose destinations share one group (all of
// a spine's blocks, a leaf's remote ones: hosts are numbered leaf by leaf)
// is one entry, shared by every such block of that group; a mixed block (a
// leaf's own hosts) is 32 entries, shared by blocks of equal content. So a
// 4,096-host spine or leaf keeps about 1 KB (the block index, 512 B, and
// 65 entries of 8 B) instead of 16 KB of one id per destination, and a
// packet to a random host reads lines that stay in cache instead of one
// cold line of a per-destination array (the first miss of every hop on a
// large fabric, bench/README.md). The entries hold the group itself (where
// its ports start, how many), not its id: a lookup is a bound check and two
// dependent reads of small arrays before the ports, allocating nothing.
//
// Built from the topology layer's tables (models/topology/routing.h) by the
// network builder: set(h, tables.next_hops(node, h)) for every host h, then
// compact() (correct without it, only larger: every block written is mixed
// and its own until then).
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/core/ids.h"

namespace xoff::models {

class RouteTable {
 public:
  RouteTable() = default;
  RouteTable(const RouteTable&) = default;
  RouteTable& operator=(const RouteTable&) = default;
  // The source is left an empty table (its entry 0 kept), usable again.
  RouteTable(RouteTable&& o) noexcept { swap(o); }
  RouteTable& operator=(RouteTable&& o) noexcept {
    RouteTable t(std::move(o));
    swap(t);
    return *this;
  }
  void swap(RouteTable& o) noexcept;

  // Replaces the group of `dst` (build time and route installs only, never
  // per packet): interns the port list, appending it only if it is new.
  void set(uint32_t dst, std::span<const PortIndex> ports);
  std::span<const PortIndex> lookup(uint32_t dst) const {
    if (dst >= num_dst_) return {};
    const Group g = group_of(dst);
    return {ports_.data() + g.offset, g.count};
  }
  // Shares equal blocks and turns uniform ones into one entry; drops the
  // blocks set() left behind (groups no destination uses any more stay).
  // Lookups are the same before and after.
  void compact();
  uint32_t num_destinations() const { return num_dst_; }
  uint32_t num_groups() const { return static_cast<uint32_t>(groups_.size()); }
  // Groups stored for the destination blocks (memory, for tests).
  size_t stored_entries() const { return entries_.size(); }
  // Largest port index used plus one (0 when empty), for validation.
  uint32_t port_bound() const { return port_bound_; }

 private:
  struct Group {  // ports_[offset, offset + count); interned, so equal lists are equal groups
    uint32_t offset = 0;
    uint32_t count = 0;
    bool operator==(const Group&) const = default;
    uint64_t key() const { return uint64_t{offset} << 32 | count; }
  };
  static constexpr uint32_t kBlockBits = 5;
  static constexpr uint32_t kBlock = 1u << kBlockBits;
  uint32_t intern(std::span<const PortIndex> ports);
  // top_[dst >> 5] is (offset << 1) | mixed: a mixed block's 32 groups start
  // at entries_[offset]; a uniform block's one group is entries_[offset].
  Group group_of(uint32_t dst) const {
    const uint32_t e = top_[dst >> kBlockBits];
    const uint32_t in_block = dst & (kBlock - 1) & (0u - (e & 1u));
    return entries_[(e >> 1) + in_block];
  }
  std::vector<uint32_t> top_;
  std::vector<Group> entries_{Group{}};  // entries_[0]: the empty group, uniform
  std::vector<bool> owned_;              // per block: its mixed entries are its own (writable)
  uint32_t num_dst_ = 0;
  std::vector<Group> groups_{Group{}};  // by id (intern's); id 0 is the empty group
  std::vector<PortIndex> ports_;
  std::unordered_map<std::string, uint32_t> index_;  // group bytes -> id
  uint32_t port_bound_ = 0;
};

// ECMP choice: splitmix64's finalizer over (salt ^ flow hash), modulo the group
// size; the same function as models/topology ecmp_select, so both layers agree.
// Per-switch salts decorrelate consecutive stages (no hash polarisation).
PortIndex ecmp_pick(std::span<const PortIndex> group, uint32_t flow_hash, uint64_t salt);

}  // namespace xoff::models
