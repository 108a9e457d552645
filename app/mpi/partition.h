#pragma once
// How a partitioned run (xoff-mpi) splits a fabric over processes, and what
// the split allows: a pure function of the topology and the number of parts,
// so every process computes the same one.
//
// A switch and the hosts on it are never split (their links are the shortest
// and busiest). Groups (a switch with its hosts) go to parts in topology
// order, contiguous, balanced by weight (hosts + 1 per switch): on a
// spine-leaf each part gets whole leaves and a share of the spines; on a
// generated fat-tree, whole pods. Or, for explicit topologies whose order
// means nothing, METIS (Karypis and Kumar; libmetis from Debian) splits the
// graph of groups (vertex weight: hosts + 1; edge weight: the links' Gb/s)
// into balanced parts cutting the least bandwidth, with a fixed seed so every
// process gets the same answer. The
// lookahead is the smallest delay of a link whose ends are in different
// parts: an event in one part reaches another no sooner than that, which is
// how long the parts may run between exchanges (conservative synchronisation,
// as ns-3's distributed simulator and SST do).
#include <cstdint>
#include <string>
#include <vector>

#include "app/scenario/scenario.h"
#include "models/topology/topology.h"
#include "models/traffic/traffic_manager.h"
#include "sim/units.h"

namespace xoff::app {

struct Partition {
  int parts = 1;
  const char* method = "leaf";  // "leaf" | "metis"
  std::vector<int> owner;       // by topology node: the part that simulates it
  sim::Duration lookahead;      // Duration::infinite() when no link crosses parts
  uint64_t crossing_links = 0;
  std::vector<bool> local_nodes(int part) const;
  // Hosts per part (for the summary).
  std::vector<uint32_t> hosts_per_part(const models::Topology& t) const;
};

enum class PartitionMethod { kContiguous, kMetis };
// Throws std::runtime_error for kMetis when xoff was built without METIS.
Partition partition_fabric(const models::Topology& t, int parts,
                           PartitionMethod method = PartitionMethod::kContiguous);
bool metis_available();

// What a partitioned run cannot do yet, as one message per feature ("" =
// nothing): dependencies between flows (collectives, workloads, `after`)
// release a flow on one host when a flow of another finishes, with no
// delay to look ahead by; TCP RPC probes and the NVLink fabric reach across
// hosts the same way; packet captures write per-process files.
std::vector<std::string> partition_unsupported(const ScenarioConfig& cfg);
// The same for what the built world plans: TCP opens both ends of a
// connection at once (TcpStack::connect), a host reaching into its peer's
// stack with no delay; "" when no planned flow is TCP.
std::string partition_unsupported(const models::TrafficManager& traffic);

}  // namespace xoff::app
