// Parts and windows (Simulator::set_parts): a run whose streams are grouped
// into parts, run part by part through windows of the lookahead, executes
// every stream's events in the same order and at the same times as the plain
// run, and a global stream's events see the same state of every node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/simulator.h"

namespace xoff::sim {
namespace {

constexpr int kNodes = 9;
constexpr int64_t kLookaheadPs = 1'000'000;  // 1 us: the shortest delay between parts

struct World;

// A node whose next action depends on everything it saw, in order: a
// different order of its events changes its state, its log and what it sends.
// Within its part it sends with any delay, zero included; to another part
// never sooner than the lookahead.
struct ToyNode final : EventHandler {
  World* w = nullptr;
  int id = 0;
  uint64_t state = 0;
  int budget = 300;
  std::vector<std::tuple<int64_t, uint64_t, uint64_t>> log;  // (time, tag, state)
  void handle_event(uint64_t tag) override;
};

// A global driver on the set-up stream: at its instants it reads every node
// (what it logs depends on the order of everything before it) and kicks one.
struct Watcher final : EventHandler {
  World* w = nullptr;
  std::vector<std::tuple<int64_t, uint64_t>> log;  // (time, sum of the states)
  void handle_event(uint64_t tag) override;
};

uint64_t mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

struct World {
  Simulator sim;
  std::vector<std::unique_ptr<ToyNode>> nodes;
  std::vector<int> part;  // by node
  Watcher watcher;
  int64_t cross_ps = kLookaheadPs;           // the delay of a message to another part
  std::vector<std::pair<int, int64_t>> ran;  // every event run: (its part, -1 global; time)

  // parts = 0: the plain run, whose model still sends as if node i were in
  // part i % 3. Otherwise node i is in part i % parts.
  explicit World(int parts) {
    watcher.w = this;
    for (int i = 0; i < kNodes; ++i) {
      auto n = std::make_unique<ToyNode>();
      n->w = this;
      n->id = i;
      n->set_stream(static_cast<StreamId>(i + 1));
      nodes.push_back(std::move(n));
      part.push_back(i % 3);
    }
    // Set-up: a kick to every node at t = 0 and t = 5 us; the watcher every 2.5 us.
    for (int i = 0; i < kNodes; ++i) {
      sim.schedule_at(Time::zero(), *nodes[i], 7 + i);
      sim.schedule_at(Time::from_ps(5'000'000), *nodes[i], 99);
    }
    for (int k = 1; k <= 8; ++k) sim.schedule_at(Time::from_ps(2'500'000 * k), watcher, k);
    if (parts > 0) {
      std::vector<uint16_t> of(kNodes + 1, Simulator::kNoPart);
      for (int i = 0; i < kNodes; ++i) of[i + 1] = static_cast<uint16_t>(i % parts);
      for (int i = 0; i < kNodes; ++i) part[i] = i % parts;
      sim.set_parts(std::move(of), Duration::ps(kLookaheadPs));
    }
  }
};

void ToyNode::handle_event(uint64_t tag) {
  Simulator& sim = w->sim;
  state = mix(state, tag ^ static_cast<uint64_t>(sim.now().count_ps()));
  log.emplace_back(sim.now().count_ps(), tag, state);
  w->ran.emplace_back(w->part[id], sim.now().count_ps());
  if (--budget <= 0) return;
  // Times on a 10 ns grid, so that many events tie.
  const int64_t step = 10'000 * static_cast<int64_t>(state % 4);
  if ((state >> 8) % 3 == 0) sim.schedule_in(Duration::ps(step), *this, state & 0xff);
  if ((state >> 16) % 2 == 0) sim.schedule_in(Duration::zero(), *this, (state >> 24) & 0xff);
  const int dst = static_cast<int>((state >> 32) % kNodes);
  const bool same = w->part[dst] == w->part[id];
  const int64_t delay = same ? step : w->cross_ps + step;
  sim.schedule_in(Duration::ps(delay), *w->nodes[dst], (state >> 40) & 0xff);
}

void Watcher::handle_event(uint64_t tag) {
  uint64_t sum = tag;
  for (const auto& n : w->nodes) sum = mix(sum, n->state);
  log.emplace_back(w->sim.now().count_ps(), sum);
  w->ran.emplace_back(-1, w->sim.now().count_ps());
  // Kicks a node at this very instant: a global event may reach any part now.
  w->sim.schedule_in(Duration::zero(), *w->nodes[sum % kNodes], 1000 + tag);
}

void expect_same(World& a, World& b) {
  for (int i = 0; i < kNodes; ++i) EXPECT_EQ(a.nodes[i]->log, b.nodes[i]->log) << "node " << i;
  EXPECT_EQ(a.watcher.log, b.watcher.log);
  EXPECT_EQ(a.sim.events_executed(), b.sim.events_executed());
  EXPECT_EQ(a.sim.fingerprint(), b.sim.fingerprint());
  EXPECT_EQ(a.sim.now(), b.sim.now());
}

TEST(Windows, EveryStreamSeesTheSameOrderAsThePlainRun) {
  // Node i is in part i % 3 in both: the model sends with the same delays.
  World plain(0);
  plain.sim.run_until(Time::from_ps(30'000'000));
  ASSERT_GT(plain.sim.events_executed(), 1000u);
  ASSERT_EQ(plain.watcher.log.size(), 8u);
  World parts(3);
  EXPECT_EQ(parts.sim.parts(), 3u);
  parts.sim.run_until(Time::from_ps(30'000'000));
  expect_same(plain, parts);
  // The nodes' events span more than 5 us (kicks at 0 and 5 us) and a window
  // spans at most the lookahead (1 us); windows group many events each.
  EXPECT_GE(parts.sim.windows_run(), 6u);
  EXPECT_LT(parts.sim.windows_run() * 20, parts.sim.events_executed());
}

// The hook (a prefetching hint in xoff) is told of each part's turn in a
// window, before the part's first event of it, with the window's end; it
// changes nothing.
TEST(Windows, ThePartTurnHookComesBeforeEachPartsEventsOfAWindow) {
  World plain(0);
  plain.sim.run_until(Time::from_ps(30'000'000));
  World parts(3);
  struct Call {
    size_t part;
    int64_t end_ps;
    uint64_t events_before;
  };
  struct Seen {
    Simulator* sim;
    std::vector<Call> calls;
  } seen{&parts.sim, {}};
  parts.sim.set_part_turn_hook(
      [](void* c, size_t part, Time end) {
        auto* s = static_cast<Seen*>(c);
        s->calls.push_back(Call{part, end.count_ps(), s->sim->events_executed()});
      },
      &seen);
  parts.sim.run_until(Time::from_ps(30'000'000));
  expect_same(plain, parts);
  ASSERT_EQ(parts.ran.size(), parts.sim.events_executed());
  // At least one part runs in every window, and each part at most once.
  EXPECT_GE(seen.calls.size(), parts.sim.windows_run());
  EXPECT_LE(seen.calls.size(), 3 * parts.sim.windows_run());
  uint64_t in_turns = 0;
  for (size_t i = 0; i < seen.calls.size(); ++i) {
    const Call& c = seen.calls[i];
    // The next event run is the part's own, inside the window: at most one
    // lookahead before its end.
    ASSERT_LT(c.events_before, parts.ran.size());
    const auto [part, t] = parts.ran[c.events_before];
    EXPECT_EQ(part, static_cast<int>(c.part)) << "call " << i;
    EXPECT_LT(t, c.end_ps) << "call " << i;
    EXPECT_GE(t, c.end_ps - kLookaheadPs) << "call " << i;
    // ... cut at the next global event (the watcher's, every 2.5 us up to
    // 20 us) and after the run's end.
    const int64_t next_global = (t / 2'500'000 + 1) * 2'500'000;
    if (next_global <= 20'000'000) {
      EXPECT_LE(c.end_ps, next_global) << "call " << i;
    }
    EXPECT_LE(c.end_ps, 30'000'001) << "call " << i;
    // Every event up to the next call (or the end) is that part's, in the window.
    const uint64_t next =
        i + 1 < seen.calls.size() ? seen.calls[i + 1].events_before : parts.ran.size();
    for (uint64_t e = c.events_before; e < next && parts.ran[e].first >= 0; ++e) {
      if (parts.ran[e].second >= c.end_ps) break;
      EXPECT_EQ(parts.ran[e].first, static_cast<int>(c.part));
      ++in_turns;
    }
  }
  // Nearly every node event runs in a part's turn (the rest: at a global
  // instant, one event at a time across the queues).
  uint64_t node_events = 0;
  for (const auto& [part, t] : parts.ran) node_events += part >= 0;
  EXPECT_GT(in_turns * 10, node_events * 9);
}

TEST(Windows, CutByBudgetsEndsTheSame) {
  World whole(3);
  whole.sim.run_until(Time::from_ps(30'000'000));
  World cut(3);
  // Budgets end a call at the next window's end: every call runs some events
  // and the cut run ends where the whole one does.
  uint64_t calls = 0;
  while (cut.sim.next_event_time() <= Time::from_ps(30'000'000)) {
    const uint64_t ran = cut.sim.run_until(Time::from_ps(30'000'000), 50);
    ASSERT_GE(ran, 1u);
    ++calls;
    // The clock after a cut is not behind any event that ran (parts run in
    // turn: the last part's last event is not the latest).
    int64_t latest = 0;
    for (const auto& n : cut.nodes)
      if (!n->log.empty()) latest = std::max(latest, std::get<0>(n->log.back()));
    ASSERT_GE(cut.sim.now().count_ps(), latest) << "after call " << calls;
  }
  cut.sim.run_until(Time::from_ps(30'000'000));
  EXPECT_GE(calls, 3u);
  expect_same(whole, cut);
}

// A part's calendar re-widths itself after 2^16 pushes. Here the push that
// triggers it comes from the other part's event, whose clock is past this
// part's pending events of the window: the calendar must restart from its
// own earliest bucket, not from the clock, or it files those events after
// the later ones (they come out of order).
struct Ticker final : EventHandler {
  Simulator* sim = nullptr;
  Ticker* to = nullptr;  // sends each tick there, one lookahead later
  int64_t period_ps = 0;
  std::vector<int64_t> times;
  void handle_event(uint64_t tag) override {
    times.push_back(sim->now().count_ps());
    if (tag == 1) return;  // a message
    if (to != nullptr)
      for (int i = 0; i < 3; ++i) sim->schedule_in(Duration::ps(kLookaheadPs + 1000 * i), *to, 1);
    sim->schedule_in(Duration::ps(period_ps), *this, 0);
  }
};

std::vector<int64_t> run_tickers(bool parts) {
  Simulator sim;
  Ticker a, b;
  a.sim = b.sim = &sim;
  a.set_stream(1);
  b.set_stream(2);
  a.to = &b;
  // A sends B three messages per tick: most pushes into B's queue (and the
  // ones that trigger its re-widths, from 262 ns wide to over 1 us as A's
  // messages land beyond it) come from A's turn, while B's own ticks of the
  // window are still pending in the windows where A runs first (every other
  // one: serpentine order). The parts' calendars start at 1,024 buckets of
  // 256 ps for that (by default they span 4.2 us, and would never re-width).
  a.period_ps = 10'000;
  b.period_ps = 50'000;
  sim.schedule_at(Time::zero(), a, 0);
  sim.schedule_at(Time::zero(), b, 0);
  if (parts) sim.set_parts({Simulator::kNoPart, 0, 1}, Duration::ps(kLookaheadPs), 8);
  sim.run_until(Time::from_ps(1'000'000'000));  // 1 ms: 320 k pushes into B's queue, 4 x 2^16
  return b.times;
}

TEST(Windows, ACalendarReWidthedFromAnotherPartKeepsItsOrder) {
  const std::vector<int64_t> plain = run_tickers(false);
  const std::vector<int64_t> parts = run_tickers(true);
  ASSERT_GT(plain.size(), 300'000u);  // 300 k messages and 20 k ticks
  EXPECT_TRUE(std::is_sorted(parts.begin(), parts.end()));
  EXPECT_EQ(plain, parts);
}

TEST(Windows, NextEventTimeAndPendingSeeEveryPart) {
  World w(3);
  // 9 kicks at 0, 9 at 5 us, 8 watcher events.
  EXPECT_EQ(w.sim.pending(), 26u);
  EXPECT_EQ(w.sim.next_event_time(), Time::zero());
}

TEST(WindowsDeathTest, AnEventForAnotherPartInsideTheWindowAborts) {
  World w(3);
  w.cross_ps = kLookaheadPs / 2;  // breaks the promise set_parts was given
  EXPECT_DEATH(w.sim.run_until(Time::from_ps(30'000'000)), "windows: an event of part");
}

}  // namespace
}  // namespace xoff::sim
