#pragma once
// Shared helpers for the topology tests.
#include <gtest/gtest.h>

#include <string>

#include "models/topology/topology.h"

namespace xoff::models::topo_test {

using namespace sim::literals;

// Runs f, expects a TopologyError whose message contains `needle`.
template <class F>
void expect_topology_error(F f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected TopologyError containing \"" << needle << "\"";
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message \"" << e.what() << "\" lacks \"" << needle << "\"";
  }
}

inline SpineLeafConfig spine_leaf_cfg(int leaves, int spines, int hosts_per_leaf) {
  return {leaves, spines, hosts_per_leaf, 100_Gbps, 100_Gbps, 1_us, 1_us};
}

inline RingConfig ring_cfg(int switches, int hosts_per_switch) {
  return {switches, hosts_per_switch, 100_Gbps, 100_Gbps, 1_us, 1_us};
}

inline uint32_t node(const Topology& t, const std::string& name) {
  const auto n = t.find(name);
  EXPECT_TRUE(n.has_value()) << name;
  return n.value_or(0);
}

}  // namespace xoff::models::topo_test
