#pragma once
// The HPCC ns-3 simulator's topology.txt as an xoff topology
// (`topology.kind = "hpcc"`, `file = ...`):
//
//   N S L                  node count, switch count, link count
//   s_1 s_2 ... s_S        the switch node ids (the other ids 0..N-1 are hosts)
//   a b rate delay err     L lines: a link between node ids, "100Gbps", "0.001ms",
//                          and an error rate (must be 0: xoff models no bit errors)
//
// Hosts are named h<k> by their ordinal k (hosts in id order; in HPCC's own
// topologies the hosts are ids 0..H-1, so h<k> is node id k and the host
// ordinals of its flow.txt match); switches are named sw<id>. Tiers: a switch
// linked to a host is tier 1; any other, one more than its lowest neighbour
// (at most 3). Errors are config::ScenarioError at file:line:col.
#include <string>

#include "models/topology/topology.h"

namespace xoff::app {

models::Topology read_hpcc_topology(const std::string& path);

}  // namespace xoff::app
