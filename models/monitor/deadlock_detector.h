#pragma once
// PFC deadlock detector: finds cycles in the wait-for graph of paused queues.
//
// A vertex is an egress queue (node, port, class) that is paused by PFC, holds
// bytes, and has not dequeued for `window`. Queue (A, p, c) waits on the peer
// B = peer(A, p): B paused it because B's ingress buffer for class c is full,
// and those bytes sit in B's egress queues of class c; so there is an edge from
// (A, p, c) to every stuck vertex (B, q, c). A strongly connected component
// (Boost.Graph, Tarjan) with a cycle is a deadlock: a set of queues each waiting
// on another, none draining. Each cycle is reported once while it stands (again
// if it breaks and re-forms), with the time
// it formed (the last member's last dequeue), its members in cycle order and
// the bytes stuck in them.
//
// Cost: a scan looks only at ports that received an XOFF since the last scan
// or were still paused at it (Network::note_paused), so it does not grow with
// the fabric; edges are found by binary search, O(V log V) for V stuck queues.
//
// Approximation (documented): without per-(ingress, egress) byte accounting,
// the edge goes to every stuck queue of class c at B, not only the ones holding
// bytes from port q's ingress. A reported cycle is still a cycle of queues that
// are all paused and not draining, which is what an operator must break.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "models/core/network.h"
#include "sim/timer.h"

namespace xoff::models {

struct DeadlockDetectorConfig {
  sim::Duration poll_interval = sim::Duration::us(10);
  sim::Duration window = sim::Duration::us(100);  // no progress for this long
  uint8_t class_mask = 0xFF;                      // classes to watch
};

// A queue that is paused, holds bytes and has not dequeued for the window: a
// vertex of the wait-for graph, with what the graph and the record need.
struct StuckQueue {
  uint32_t node = 0;  // NodeId value
  uint16_t port = 0;
  uint8_t tc = 0;
  uint32_t peer = 0;  // NodeId value of the port's peer
  int64_t queued_bytes = 0;
  sim::Time last_dequeue;
};

// The stuck queues of the parts of a partitioned run that are simulated
// elsewhere: exchange() is given this part's and returns every part's
// (app/mpi; every part calls it at the same scan). Default: none.
class StuckQueueExchange {
 public:
  virtual ~StuckQueueExchange() = default;
  virtual std::vector<StuckQueue> exchange(std::vector<StuckQueue> local) = 0;
};

class DeadlockDetector final : public sim::EventHandler {
 public:
  DeadlockDetector(Network& net, DeadlockDetectorConfig cfg);
  void start();
  void set_exchange(StuckQueueExchange* e) { exchange_ = e; }
  // Runs one scan now (tests); returns the cycles newly reported.
  std::vector<DeadlockRecord> scan();
  const std::vector<DeadlockRecord>& reported() const { return reported_; }
  void handle_event(uint64_t) override;
  const char* event_kind(uint64_t) const override { return "monitor: deadlock scan"; }

 private:
  using Vertex = StuckQueue;
  std::vector<Vertex> stuck_queues();
  std::vector<std::vector<int>> find_cycles(const std::vector<Vertex>& v) const;
  DeadlockRecord make_record(const std::vector<Vertex>& v, const std::vector<int>& cycle);

  Network& net_;
  DeadlockDetectorConfig cfg_;
  sim::Timer timer_;
  std::vector<EgressPort*> watched_;  // ports paused at the last scan or XOFFed since
  std::set<std::string> seen_;        // member keys of the cycles standing at the last scan
  std::vector<DeadlockRecord> reported_;
  StuckQueueExchange* exchange_ = nullptr;
};

}  // namespace xoff::models
