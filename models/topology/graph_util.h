#pragma once
// Internal to models/topology: the Boost.Graph view of a Topology. Nothing outside
// this folder sees Boost; results are flattened into vectors before they leave.
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <vector>

#include "models/topology/topology.h"

namespace xoff::models::detail {

// Undirected, one vertex per node, one edge per link that is up (parallel links
// stay parallel edges).
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

inline constexpr int kUnreachable = -1;

// link_up == nullptr: every link is up.
Graph make_graph(const Topology& topo, const std::vector<bool>* link_up);

// Hop count from `source` to every node (breadth-first search); kUnreachable if none.
std::vector<int> hop_distances(const Graph& g, uint32_t source);

}  // namespace xoff::models::detail
