#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/rng.h"
#include "sim/timer.h"

namespace xoff::sim {
namespace {
using namespace literals;

struct Recorder final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> seen;
  void handle_event(uint64_t tag) override { seen.emplace_back(sim->now().count_ps(), tag); }
};

TEST(Simulator, RunsEventsInTimeOrder) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.schedule_at(Time::zero() + 30_ns, r, 3);
  sim.schedule_at(Time::zero() + 10_ns, r, 1);
  sim.schedule_at(Time::zero() + 20_ns, r, 2);
  EXPECT_EQ(sim.run(), 3u);
  ASSERT_EQ(r.seen.size(), 3u);
  EXPECT_EQ(r.seen[0], (std::pair<int64_t, uint64_t>{10'000, 1}));
  EXPECT_EQ(r.seen[1], (std::pair<int64_t, uint64_t>{20'000, 2}));
  EXPECT_EQ(r.seen[2], (std::pair<int64_t, uint64_t>{30'000, 3}));
}

TEST(Simulator, EqualTimesRunInScheduleOrder) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  for (uint64_t i = 0; i < 100; ++i) sim.schedule_at(Time::zero() + 5_ns, r, i);
  sim.run();
  ASSERT_EQ(r.seen.size(), 100u);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(r.seen[i].second, i);
}

TEST(Simulator, HeapOrderMatchesSortUnderRandomLoad) {
  // 10^4 random times with many duplicates; the output must be sorted by
  // (time, schedule order), which we compute independently with stable_sort.
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  Rng rng(7);
  std::vector<std::pair<int64_t, uint64_t>> expect;
  for (uint64_t i = 0; i < 10'000; ++i) {
    const int64_t t = static_cast<int64_t>(rng.uniform_int(500));
    sim.schedule_at(Time::from_ps(t), r, i);
    expect.emplace_back(t, i);
  }
  std::stable_sort(expect.begin(), expect.end(),
                   [](auto& a, auto& b) { return a.first < b.first; });
  sim.run();
  EXPECT_EQ(r.seen, expect);
}

// The calendar queue against the definition of the order, under a load that
// takes every path: 5,000 events at one instant (one long sorted run), events
// scheduled for now (into the run being served), within a few microseconds
// (the calendar), up to 10 ms ahead (the far heap), and 300,000 events in
// all (the width adapts every 2^16 pushes), run in slices of 7 us (the clock
// moves between events). All events are of one stream, so the order is (time,
// schedule order): the executed (time, tag) pairs, tags numbered in schedule
// order, must strictly increase (each event was the least pending one when it
// ran) and every scheduled event must run.
struct Spawner final : EventHandler {
  Simulator* sim = nullptr;
  Rng rng{11, "spawner"};
  uint64_t scheduled = 0;
  uint64_t budget = 300'000;
  std::vector<std::pair<int64_t, uint64_t>> seen;
  void spawn() {
    const double u = rng.uniform01();
    int64_t d = 0;
    if (u < 0.1) {
      d = 0;
    } else if (u < 0.4) {
      d = 1 + static_cast<int64_t>(rng.uniform_int(1000));
    } else if (u < 0.8) {
      d = static_cast<int64_t>(rng.uniform_int(5'000'000));
    } else if (u < 0.95) {
      d = static_cast<int64_t>(rng.uniform_int(200'000'000));
    } else {
      d = static_cast<int64_t>(rng.uniform_int(10'000'000'000));
    }
    sim->schedule_in(Duration::ps(d), *this, scheduled++);
  }
  void handle_event(uint64_t tag) override {
    seen.emplace_back(sim->now().count_ps(), tag);
    if (scheduled >= budget) return;
    const double u = rng.uniform01();
    if (u < 0.01) return;  // no successor: the population shrinks...
    spawn();
    if (u > 0.98) spawn();  // ...or grows
  }
};

TEST(Simulator, CalendarRunsInKeyOrderUnderEveryKindOfLoad) {
  Simulator sim;
  Spawner s;
  s.sim = &sim;
  for (int i = 0; i < 5'000; ++i) sim.schedule_at(Time::zero(), s, s.scheduled++);
  for (int i = 0; i < 20'000; ++i) s.spawn();
  while (sim.pending() > 0) sim.run_until(sim.now() + 7_us);
  EXPECT_EQ(s.seen.size(), s.scheduled);
  EXPECT_GE(s.scheduled, 300'000u);
  size_t out_of_order = 0;
  for (size_t i = 1; i < s.seen.size(); ++i) out_of_order += !(s.seen[i - 1] < s.seen[i]);
  EXPECT_EQ(out_of_order, 0u);
}

// Thousands of events of one instant (a fabric started in lockstep) share a
// bucket: whether they were scheduled nearly in key order (merged as
// stretches), in random order (sorted) or in reverse, and with more of that
// instant scheduled while it runs (beside the run), they run in key order.
struct InstantSink final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<uint64_t>* seen = nullptr;
  void handle_event(uint64_t tag) override {
    seen->push_back(tag);
    if (tag % 2 == 0) sim->schedule_in(Duration::zero(), *this, tag + 1);  // the same instant
  }
};
struct InstantEmitter final : EventHandler {
  Simulator* sim = nullptr;
  InstantSink* sink = nullptr;
  void handle_event(uint64_t tag) override { sim->schedule_at(Time::zero() + 1_us, *sink, tag); }
};

TEST(Simulator, LongRunsOfOneInstantRunInKeyOrder) {
  constexpr uint32_t kStreams = 3000;
  Rng rng(7);
  for (int pattern = 0; pattern < 3; ++pattern) {
    // The order the emitters run in (all at 1 ns, from the set-up stream).
    std::vector<uint32_t> order(kStreams);
    for (uint32_t i = 0; i < kStreams; ++i) order[i] = i;
    if (pattern == 0) {  // nearly in order: one in 100 swapped with a neighbour
      for (uint32_t i = 0; i + 1 < kStreams; i += 100) std::swap(order[i], order[i + 1]);
    } else if (pattern == 1) {
      for (uint32_t i = kStreams - 1; i > 0; --i)
        std::swap(order[i], order[rng.uniform_int(uint64_t{i} + 1)]);
    } else {
      std::reverse(order.begin(), order.end());
    }
    Simulator sim;
    std::vector<uint64_t> seen;
    std::vector<InstantSink> sinks(kStreams);
    std::vector<InstantEmitter> emitters(kStreams);
    for (uint32_t i = 0; i < kStreams; ++i) {
      sinks[i].sim = emitters[i].sim = &sim;
      sinks[i].seen = &seen;
      emitters[i].sink = &sinks[i];
      sinks[i].set_stream(i + 1);
      emitters[i].set_stream(i + 1);
    }
    for (uint32_t i : order) sim.schedule_at(Time::zero() + 1_ns, emitters[i], 2 * uint64_t{i});
    sim.run();
    // Stream by stream: its event, then the one it scheduled for the same instant.
    ASSERT_EQ(seen.size(), 2 * size_t{kStreams}) << "pattern " << pattern;
    for (uint64_t k = 0; k < seen.size(); ++k) ASSERT_EQ(seen[k], k) << "pattern " << pattern;
  }
}

// Random load with bursts of hundreds of events at one instant (long runs,
// keys beside them, the width adapting both ways between near and far
// phases): every event is the least pending key when it runs.
struct BurstLoad final : EventHandler {
  Simulator* sim = nullptr;
  Rng* rng = nullptr;
  std::vector<BurstLoad>* all = nullptr;
  std::set<Simulator::EventId>* pending = nullptr;
  uint64_t* budget = nullptr;
  uint64_t* wrong = nullptr;
  int* phase = nullptr;
  void schedule(Time t) {
    BurstLoad& to = (*all)[rng->uniform_int(all->size())];
    pending->insert(sim->schedule_at(t, to, 0));
    --*budget;
  }
  int64_t delay_ps() {
    const uint64_t r = rng->uniform_int(100);
    if (*phase == 0) {  // near: the same instant or within a few ns
      return r < 50 ? 0 : r < 90 ? static_cast<int64_t>(rng->uniform_int(5000)) : 10'000'000;
    }
    return r < 10 ? 0 : static_cast<int64_t>(rng->uniform_int(r < 60 ? 1'000'000'000 : 100'000));
  }
  void handle_event(uint64_t) override {
    const Simulator::EventId id = sim->current_event_id();
    if (pending->empty() || *pending->begin() != id) ++*wrong;
    pending->erase(id);
    if (*budget == 0) return;
    const uint64_t kids = rng->uniform_int(4);  // 1.5 on average: the load grows
    for (uint64_t k = 0; k<kids&& * budget> 0; ++k) schedule(sim->now() + Duration::ps(delay_ps()));
    if (rng->uniform_int(1000) == 0) {  // a burst at one instant, now or soon
      const Time at = sim->now() + Duration::ps(static_cast<int64_t>(rng->uniform_int(2) * 300));
      for (int k = 0; k < 400 && *budget > 0; ++k) schedule(at);
    }
    if (rng->uniform_int(20'000) == 0) *phase = 1 - *phase;
  }
};

TEST(Simulator, BurstsOfOneInstantRunInKeyOrderUnderRandomLoad) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Simulator sim;
    Rng rng(seed);
    std::vector<BurstLoad> all(1 + seed * 300);
    std::set<Simulator::EventId> pending;
    uint64_t budget = 150'000, wrong = 0;
    int phase = 0;
    for (size_t i = 0; i < all.size(); ++i) all[i].set_stream(static_cast<StreamId>(i + 1));
    for (BurstLoad& b : all) {
      b.sim = &sim;
      b.rng = &rng;
      b.all = &all;
      b.pending = &pending;
      b.budget = &budget;
      b.wrong = &wrong;
      b.phase = &phase;
    }
    for (int k = 0; k < 2000; ++k) all[0].schedule(Time::zero() + Duration::ps(k % 3));
    const uint64_t ran = sim.run();
    EXPECT_EQ(ran, 150'000u) << "seed " << seed;
    EXPECT_EQ(wrong, 0u) << "seed " << seed;
    EXPECT_TRUE(pending.empty());
  }
}

// The queue keeps the top it found until an earlier key is pushed. Here the
// top is a far-heap event (scheduled when it was beyond the calendar's
// window, 4.2 us wide from 0) and a later event lands in the calendar, which
// has no bucket loaded: the top must still come from the far heap, then the
// calendar's event.
struct LateScheduler final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> seen;
  void handle_event(uint64_t tag) override {
    seen.emplace_back(sim->now().count_ps(), tag);
    if (tag == 0) sim->schedule_at(Time::zero() + 100500_ns, *this, 2);
  }
};

TEST(Simulator, KeptTopFromTheFarHeapRunsBeforeALaterCalendarEvent) {
  Simulator sim;
  LateScheduler s;
  s.sim = &sim;
  sim.schedule_at(Time::zero() + 99_us, s, 0);   // far when scheduled
  sim.schedule_at(Time::zero() + 100_us, s, 1);  // far when scheduled
  EXPECT_EQ(sim.run(), 3u);
  const std::vector<std::pair<int64_t, uint64_t>> expect = {
      {99'000'000, 0}, {100'000'000, 1}, {100'500'000, 2}};
  EXPECT_EQ(s.seen, expect);
}

TEST(Simulator, RunUntilStopsAtBoundaryAndAdvancesClock) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.schedule_at(Time::zero() + 1_us, r, 1);
  sim.schedule_at(Time::zero() + 3_us, r, 2);
  EXPECT_EQ(sim.run_until(Time::zero() + 2_us), 1u);
  EXPECT_EQ(sim.now(), Time::zero() + 2_us);
  EXPECT_EQ(sim.pending(), 1u);
  EXPECT_EQ(sim.next_event_time(), Time::zero() + 3_us);
  sim.run();
  EXPECT_EQ(sim.events_executed(), 2u);
}

// A chain that reschedules itself: each event at t schedules the next at
// t + (tag % 7 + 1) ns and a second one at the same instant every third tag
// (ties), so the order depends on (time, schedule order).
struct Chain final : EventHandler {
  Simulator* sim = nullptr;
  uint64_t next = 0;
  void handle_event(uint64_t tag) override {
    if (next >= 2'000) return;
    sim->schedule_in(Duration::ns(static_cast<int64_t>(tag % 7 + 1)), *this, ++next);
    if (tag % 3 == 0) sim->schedule_in(Duration::zero(), *this, ++next);
  }
};

TEST(Simulator, RunCutByMaxEventsGoesOnExactlyWhereItStopped) {
  auto run = [](uint64_t piece) {
    Simulator sim;
    Chain c;
    c.sim = &sim;
    sim.schedule_at(Time::zero(), c, 0);
    const Time until = Time::zero() + 1_us;
    uint64_t calls = 0;
    while (sim.run_until(until, piece) == piece) {
      ++calls;
      EXPECT_LE(sim.now(), until);  // a cut leaves the clock at the last event
    }
    EXPECT_EQ(sim.now(), until);  // the last call reached `until`
    return std::tuple{sim.fingerprint(), sim.events_executed(), calls};
  };
  const auto [whole, events, none] = run(UINT64_MAX);
  EXPECT_EQ(none, 0u);
  for (uint64_t piece : {1u, 7u, 100u}) {
    const auto [fp, n, calls] = run(piece);
    EXPECT_EQ(fp, whole) << piece;
    EXPECT_EQ(n, events) << piece;
    EXPECT_GE(calls, events / piece - 1) << piece;
  }
}

struct Stopper final : EventHandler {
  Simulator* sim = nullptr;
  int count = 0;
  void handle_event(uint64_t) override {
    if (++count == 2) sim->stop();
  }
};

TEST(Simulator, StopReturnsAfterCurrentEvent) {
  Simulator sim;
  Stopper s;
  s.sim = &sim;
  for (int i = 0; i < 5; ++i) sim.schedule_at(Time::zero() + 1_ns * (i + 1), s);
  sim.run();
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(sim.pending(), 3u);
}

struct PastScheduler final : EventHandler {
  Simulator* sim = nullptr;
  void handle_event(uint64_t) override { sim->schedule_at(Time::zero(), *this); }
};

TEST(SimulatorDeathTest, SchedulingInThePastAborts) {
  Simulator sim;
  PastScheduler p;
  p.sim = &sim;
  sim.schedule_at(Time::zero() + 1_us, p);
  EXPECT_DEATH(sim.run(), "event scheduled in the past.*sim time 1000000 ps");
}

// A small self-scheduling workload whose fingerprint must be a pure function of
// its inputs.
struct Chatter final : EventHandler {
  Simulator* sim = nullptr;
  Rng rng{42, "chatter"};
  int left = 1000;
  void handle_event(uint64_t) override {
    if (--left > 0)
      sim->schedule_in(Duration::ps(static_cast<int64_t>(rng.uniform_int(1000))), *this,
                       rng.next_u64() & 7);
  }
};

uint64_t chatter_fingerprint(uint64_t delay_of_second) {
  Simulator sim;
  Chatter a, b;
  a.sim = b.sim = &sim;
  sim.schedule_at(Time::zero(), a);
  sim.schedule_at(Time::from_ps(static_cast<int64_t>(delay_of_second)), b);
  sim.run();
  return sim.fingerprint();
}

TEST(Simulator, FingerprintEqualForEqualRunsAndDiffersOtherwise) {
  EXPECT_EQ(chatter_fingerprint(3), chatter_fingerprint(3));
  EXPECT_NE(chatter_fingerprint(3), chatter_fingerprint(4));
}

// Event profile: a handler that names its tags; a timer re-armed twice
// leaves two stale entries, counted apart.
struct Named final : EventHandler {
  void handle_event(uint64_t) override {}
  const char* event_kind(uint64_t tag) const override { return tag == 0 ? "even" : "odd"; }
};

TEST(Simulator, EventProfileCountsKindsAndStaleTimers) {
  Simulator sim;
  sim.set_profiling(true);
  Named n;
  for (int i = 0; i < 10; ++i)
    sim.schedule_at(Time::from_ps(i), n, static_cast<uint64_t>(i % 3 == 0 ? 0 : 1));
  Timer t(sim, n, 1);
  t.arm_at(Time::from_ps(5));
  t.arm_at(Time::from_ps(6));
  t.arm_at(Time::from_ps(7));  // the first two entries are stale
  sim.run();
  // i = 0, 3, 6, 9 are "even" (4); the other 6 plus the live timer are "odd" (7).
  const auto prof = sim.event_profile();
  ASSERT_EQ(prof.size(), 3u);
  EXPECT_EQ(prof[0].kind, "odd");
  EXPECT_EQ(prof[0].events, 7u);
  EXPECT_EQ(prof[1].kind, "even");
  EXPECT_EQ(prof[1].events, 4u);
  EXPECT_EQ(prof[2].events, 2u);
  EXPECT_NE(prof[2].kind.find("stale"), std::string::npos);
  EXPECT_EQ(sim.events_executed(), 13u);
}

// More kinds than the profile's first table holds (64 entries, half full at
// most): it grows and keeps every count. Kind k runs k + 1 times, so the
// profile lists k = 99 first with 100 events, and 1 + 2 + ... + 100 = 5050.
struct ManyKinds final : EventHandler {
  std::vector<std::string> names;
  ManyKinds() {
    for (int k = 0; k < 100; ++k) names.push_back("kind " + std::to_string(k));
  }
  void handle_event(uint64_t) override {}
  const char* event_kind(uint64_t tag) const override { return names[tag].c_str(); }
};

TEST(Simulator, EventProfileGrowsPastItsFirstTable) {
  Simulator sim;
  sim.set_profiling(true);
  ManyKinds h;
  int64_t t = 0;
  for (uint64_t k = 0; k < 100; ++k) {
    for (uint64_t i = 0; i <= k; ++i) sim.schedule_at(Time::from_ps(t++), h, k);
  }
  sim.run();
  const auto prof = sim.event_profile();
  ASSERT_EQ(prof.size(), 100u);
  uint64_t total = 0;
  for (size_t r = 0; r < prof.size(); ++r) {
    const uint64_t k = 99 - r;  // most events first
    EXPECT_EQ(prof[r].kind, "kind " + std::to_string(k));
    EXPECT_EQ(prof[r].events, k + 1);
    total += prof[r].events;
  }
  EXPECT_EQ(total, 5050u);
}

TEST(Simulator, ProfilingDoesNotChangeTheFingerprint) {
  const auto run = [](bool profile) {
    Simulator sim;
    sim.set_profiling(profile);
    Chatter a;
    a.sim = &sim;
    sim.schedule_at(Time::zero(), a);
    sim.run();
    return sim.fingerprint();
  };
  EXPECT_EQ(run(true), run(false));
}

}  // namespace
}  // namespace xoff::sim
