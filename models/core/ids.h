#pragma once
// Distinct id types for the network model: a NodeId is not a PortIndex is not a
// FlowId, and mixing them does not compile.
#include <compare>
#include <cstdint>
#include <functional>

namespace xoff::models {

template <class Tag, class Rep>
class Id {
 public:
  constexpr Id() = default;
  constexpr explicit Id(Rep v) : v_(v) {}
  constexpr Rep value() const { return v_; }
  constexpr auto operator<=>(const Id&) const = default;

 private:
  Rep v_ = 0;
};

using NodeId = Id<struct NodeTag, uint32_t>;       // index into Network::nodes
using PortIndex = Id<struct PortTag, uint16_t>;    // port number on its node
using FlowId = Id<struct FlowTag, uint32_t>;       // index into the flow table
using Priority = Id<struct PriorityTag, uint8_t>;  // traffic class / priority 0..7

inline constexpr int kNumClasses = 8;  // IEEE 802.1Q priorities / traffic classes

}  // namespace xoff::models

template <class Tag, class Rep>
struct std::hash<xoff::models::Id<Tag, Rep>> {
  size_t operator()(const xoff::models::Id<Tag, Rep>& id) const noexcept {
    return std::hash<Rep>{}(id.value());
  }
};
