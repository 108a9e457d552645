// The event order does not depend on which streams share a queue: a run split
// across two simulators (each owning some streams, messages between them
// handed over at window ends, as xoff-mpi does between processes) executes
// every stream's events in the same order, at the same times, as one
// simulator running everything, and the two fingerprints add up to the one.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "sim/simulator.h"

namespace xoff::sim {
namespace {

constexpr int kNodes = 6;
constexpr int64_t kLinkPs = 1'000'000;  // 1 us between any two nodes: the lookahead

struct Message {
  Time at;
  int dst;
  uint64_t tag;
  EventKey key;
};

// A node whose next action depends on everything it saw, in order: a
// different order of its events changes its state, its log and what it sends.
struct ToyNode final : EventHandler {
  Simulator* sim = nullptr;
  int id = 0;
  std::vector<ToyNode*>* peers = nullptr;  // by node id (null where remote)
  std::vector<Message>* outbox = nullptr;  // messages to remote nodes
  uint64_t state = 0;
  int budget = 400;
  std::vector<std::tuple<int64_t, uint64_t, uint64_t>> log;  // (time, tag, state)

  static uint64_t mix(uint64_t h, uint64_t v) {
    h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  }
  void handle_event(uint64_t tag) override {
    state = mix(state, tag ^ static_cast<uint64_t>(sim->now().count_ps()));
    log.emplace_back(sim->now().count_ps(), tag, state);
    if (--budget <= 0) return;
    // Times on a 10 ns grid, so that many events tie.
    const int64_t step = 10'000 * static_cast<int64_t>(state % 4);
    if ((state >> 8) % 3 == 0) sim->schedule_in(Duration::ps(step), *this, state & 0xff);
    if ((state >> 16) % 2 == 0) sim->schedule_in(Duration::zero(), *this, (state >> 24) & 0xff);
    const int dst = static_cast<int>((state >> 32) % kNodes);
    const Message m{sim->now() + Duration::ps(kLinkPs + step), dst, (state >> 40) & 0xff,
                    sim->reserve_key()};
    if ((*peers)[dst] != nullptr) {
      sim->schedule_at(m.at, *(*peers)[dst], m.tag, m.key);
    } else {
      outbox->push_back(m);
    }
  }
};

struct Part {
  Simulator sim;
  std::vector<std::unique_ptr<ToyNode>> nodes;  // by id; null where remote
  std::vector<ToyNode*> peers;
  std::vector<Message> outbox;
};

// Nodes with owner[id] == part are simulated by that part. Every part runs the
// same set-up: a kick to every node at t = 0 and t = 5 us (taken from the
// set-up stream, dropped where the node is remote).
std::vector<std::unique_ptr<Part>> run(const std::vector<int>& owner, int parts) {
  std::vector<std::unique_ptr<Part>> ps;
  for (int k = 0; k < parts; ++k) {
    auto p = std::make_unique<Part>();
    std::vector<bool> local(kNodes + 1, false);
    local[kSetupStream] = true;
    p->peers.assign(kNodes, nullptr);
    p->nodes.resize(kNodes);
    for (int i = 0; i < kNodes; ++i) {
      if (owner[i] != k) continue;
      auto n = std::make_unique<ToyNode>();
      n->sim = &p->sim;
      n->id = i;
      n->set_stream(static_cast<StreamId>(i + 1));
      n->state = static_cast<uint64_t>(i) * 977;
      local[i + 1] = true;
      p->peers[i] = n.get();
      p->nodes[i] = std::move(n);
    }
    for (auto& n : p->nodes) {
      if (n) {
        n->peers = &p->peers;
        n->outbox = &p->outbox;
      }
    }
    if (parts > 1) p->sim.set_local_streams(local);
    ps.push_back(std::move(p));
  }
  // The set-up, identical in every part; a remote node's kick is dropped but
  // takes its key, as every process of xoff-mpi builds the whole run.
  ToyNode placeholder;
  for (auto& p : ps) {
    for (int i = 0; i < kNodes; ++i) {
      EventHandler& h = p->peers[i] ? static_cast<EventHandler&>(*p->peers[i]) : placeholder;
      placeholder.set_stream(static_cast<StreamId>(i + 1));
      p->sim.schedule_at(Time::zero(), h, 1000 + i);
      p->sim.schedule_at(Time::zero() + Duration::us(5), h, 2000 + i);
    }
  }
  // Windows of the lookahead: a message sent in [T, T + L) arrives at or after
  // T + L, so it is handed over before its window starts.
  for (Time t = Time::zero(); t < Time::zero() + Duration::ms(1); t += Duration::ps(kLinkPs)) {
    for (auto& p : ps) p->sim.run_until(t + Duration::ps(kLinkPs - 1));
    for (auto& from : ps) {
      for (const Message& m : from->outbox) {
        for (auto& to : ps) {
          if (to->peers[m.dst] != nullptr)
            to->sim.schedule_at(m.at, *to->peers[m.dst], m.tag, m.key);
        }
      }
      from->outbox.clear();
    }
  }
  return ps;
}

TEST(Partition, SplitRunsEveryStreamInTheSameOrderAsOneProcess) {
  const auto one = run(std::vector<int>(kNodes, 0), 1);
  uint64_t events = 0;
  for (const auto& n : one[0]->nodes) events += n->log.size();
  ASSERT_GT(events, 1000u);  // the workload is not trivial
  // Ties happened: some node ran two events at one instant.
  bool tie = false;
  for (const auto& n : one[0]->nodes) {
    for (size_t i = 1; i < n->log.size(); ++i)
      tie |= std::get<0>(n->log[i]) == std::get<0>(n->log[i - 1]);
  }
  ASSERT_TRUE(tie);

  for (const auto& owner : {std::vector<int>{0, 1, 0, 1, 0, 1}, std::vector<int>{0, 0, 0, 1, 1, 2},
                            std::vector<int>{2, 1, 0, 2, 1, 0}}) {
    const int parts = 1 + *std::max_element(owner.begin(), owner.end());
    const auto split = run(owner, parts);
    uint64_t fp = 0;
    for (const auto& p : split) fp += p->sim.fingerprint();
    EXPECT_EQ(fp, one[0]->sim.fingerprint());
    for (int i = 0; i < kNodes; ++i) {
      EXPECT_EQ(split[owner[i]]->nodes[i]->log, one[0]->nodes[i]->log) << "node " << i;
    }
  }
}

// At equal times: the scheduling stream first, then its own order.
TEST(Partition, EqualTimesRunByOriginStreamThenItsOrder) {
  Simulator sim;
  struct Emitter final : EventHandler {
    Simulator* sim = nullptr;
    EventHandler* target = nullptr;
    void handle_event(uint64_t tag) override {
      // Both schedule onto the target at 10 ns, tags tag*10 + 0/1.
      sim->schedule_at(Time::zero() + Duration::ns(10), *target, tag * 10);
      sim->schedule_at(Time::zero() + Duration::ns(10), *target, tag * 10 + 1);
    }
  };
  struct Sink final : EventHandler {
    std::vector<uint64_t> seen;
    void handle_event(uint64_t tag) override { seen.push_back(tag); }
  } sink;
  Emitter a, b;
  a.sim = b.sim = &sim;
  a.target = b.target = &sink;
  a.set_stream(7);
  b.set_stream(3);
  sim.schedule_at(Time::zero(), a, 1);  // stream 7 runs first (scheduled first)...
  sim.schedule_at(Time::zero() + Duration::ns(1), b, 2);
  sim.run();
  // ... but at 10 ns stream 3's events come before stream 7's.
  EXPECT_EQ(sink.seen, (std::vector<uint64_t>{20, 21, 10, 11}));
}

}  // namespace
}  // namespace xoff::sim
