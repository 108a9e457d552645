#include "models/monitor/deadlock_detector.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace xoff::models {
namespace {
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// From `start`, follows edges that stay in component `c` until a vertex repeats;
// returns the loop part of the walk in wait-for order (empty: no cycle).
std::vector<int> walk_cycle(const Graph& g, const std::vector<int>& comp, int c, int start) {
  std::vector<int> path{start};
  std::vector<bool> on_path(comp.size(), false);
  on_path[start] = true;
  for (;;) {
    int next = -1;
    for (auto [e, end] = boost::out_edges(path.back(), g); e != end; ++e) {
      const int t = static_cast<int>(boost::target(*e, g));
      if (comp[t] == c) {
        next = t;
        break;
      }
    }
    if (next < 0) return {};  // a lone vertex without a self-loop
    if (on_path[next]) {
      path.erase(path.begin(), std::find(path.begin(), path.end(), next));
      return path;
    }
    on_path[next] = true;
    path.push_back(next);
  }
}
}  // namespace

DeadlockDetector::DeadlockDetector(Network& net, DeadlockDetectorConfig cfg)
    : net_(net), cfg_(cfg), timer_(net.sim(), *this, 0) {
  mark_observer();  // detection reads the fabric: not part of the fingerprint
}

void DeadlockDetector::start() { timer_.arm_in(cfg_.poll_interval); }

void DeadlockDetector::handle_event(uint64_t) {
  scan();
  timer_.arm_in(cfg_.poll_interval);
}

// Only ports that received an XOFF are looked at (Network::note_paused): a
// port is kept while any class is still paused, then dropped until its next
// XOFF, so a scan costs the number of paused ports, not the fabric's size.
// Vertices are sorted by (node, port, class), the order a full scan gives.
std::vector<DeadlockDetector::Vertex> DeadlockDetector::stuck_queues() {
  for (EgressPort* p : net_.take_paused_ports()) watched_.push_back(p);
  std::vector<Vertex> out;
  const sim::Time now = net_.sim().now();
  size_t keep = 0;
  for (EgressPort* p : watched_) {
    bool any_paused = false;
    for (int tc = 0; tc < kNumClasses; ++tc) {
      if (p->paused_until(tc) > now) any_paused = true;
      if (!((cfg_.class_mask >> tc) & 1) || !p->paused(tc) || p->queued_bytes(tc) == 0) continue;
      if (now - p->last_dequeue(tc) < cfg_.window) continue;
      out.push_back(Vertex{p->owner().id().value(), p->index().value(), static_cast<uint8_t>(tc),
                           p->peer().id().value(), p->queued_bytes(tc), p->last_dequeue(tc)});
    }
    if (any_paused) {
      watched_[keep++] = p;
    } else {
      p->set_pause_watched(false);
    }
  }
  watched_.resize(keep);
  if (exchange_ != nullptr) out = exchange_->exchange(std::move(out));
  std::sort(out.begin(), out.end(), [](const Vertex& a, const Vertex& b) {
    if (a.node != b.node) return a.node < b.node;
    if (a.port != b.port) return a.port < b.port;
    return a.tc < b.tc;
  });
  return out;
}

// Cycles, one per strongly connected component that has one, each listed in
// wait-for order by walking edges inside the component from its first vertex.
std::vector<std::vector<int>> DeadlockDetector::find_cycles(const std::vector<Vertex>& v) const {
  // Edges a -> every vertex of class tc(a) at a's peer, in ascending index:
  // vertices grouped by (node, class), found by binary search.
  Graph g(v.size());
  const auto key = [&](size_t i) { return std::pair(v[i].node, v[i].tc); };
  std::vector<size_t> by_key(v.size());
  for (size_t i = 0; i < v.size(); ++i) by_key[i] = i;
  std::stable_sort(by_key.begin(), by_key.end(),
                   [&](size_t x, size_t y) { return key(x) < key(y); });
  for (size_t a = 0; a < v.size(); ++a) {
    const auto want = std::pair(v[a].peer, v[a].tc);
    auto it = std::lower_bound(by_key.begin(), by_key.end(), want,
                               [&](size_t i, const auto& w) { return key(i) < w; });
    for (; it != by_key.end() && key(*it) == want; ++it) boost::add_edge(a, *it, g);
  }
  std::vector<int> comp(v.size());
  const int ncomp = boost::strong_components(g, comp.data());
  std::vector<std::vector<int>> cycles;
  for (int c = 0; c < ncomp; ++c) {
    std::vector<int> members;
    for (size_t i = 0; i < v.size(); ++i) {
      if (comp[i] == c) members.push_back(static_cast<int>(i));
    }
    if (members.empty()) continue;
    std::vector<int> cycle = walk_cycle(g, comp, c, members.front());
    if (!cycle.empty()) cycles.push_back(std::move(cycle));
  }
  return cycles;
}

DeadlockRecord DeadlockDetector::make_record(const std::vector<Vertex>& v,
                                             const std::vector<int>& cycle) {
  DeadlockRecord r;
  r.detected = net_.sim().now();
  r.formed = sim::Time::zero();
  for (int i : cycle) {
    DeadlockMember m{net_.node(NodeId(v[i].node)).name(), v[i].port, v[i].tc, v[i].queued_bytes};
    r.formed = std::max(r.formed, v[i].last_dequeue);
    r.stuck_bytes += m.queued_bytes;
    r.members.push_back(std::move(m));
  }
  return r;
}

// A cycle is reported when first found; a cycle that breaks (a watchdog, a
// link failure) is forgotten, so that it is reported again if it re-forms.
std::vector<DeadlockRecord> DeadlockDetector::scan() {
  const std::vector<Vertex> v = stuck_queues();
  std::vector<DeadlockRecord> fresh;
  std::set<std::string> present;
  for (const auto& cycle : v.size() < 2 ? std::vector<std::vector<int>>{} : find_cycles(v)) {
    std::vector<std::string> keys;
    for (int i : cycle) {
      keys.push_back(net_.node(NodeId(v[i].node)).name() + ":" + std::to_string(v[i].port) + ":" +
                     std::to_string(v[i].tc));
    }
    std::sort(keys.begin(), keys.end());
    std::string key;
    for (auto& k : keys) key += k + " ";
    present.insert(key);
    if (seen_.count(key) > 0) continue;
    DeadlockRecord r = make_record(v, cycle);
    net_.recorder().deadlock(r);
    reported_.push_back(r);
    fresh.push_back(std::move(r));
  }
  seen_ = std::move(present);
  return fresh;
}

}  // namespace xoff::models
