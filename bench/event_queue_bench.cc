// Hold model of the event queue (Vaucher & Duval): keep N events pending; each
// executed event schedules one successor at now + exp(mean), so the queue size
// stays N. Reports events/s at N = 10^3 .. 10^6.
#include <benchmark/benchmark.h>

#include "sim/rng.h"
#include "sim/simulator.h"

namespace {
using namespace xoff::sim;

struct HoldEvent final : EventHandler {
  Simulator* sim = nullptr;
  Rng rng{1, "hold"};
  void handle_event(uint64_t tag) override {
    sim->schedule_in(Duration::ps(1 + static_cast<int64_t>(rng.exponential(1e6))), *this, tag);
  }
};

void Hold(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  Simulator sim;
  HoldEvent h;
  h.sim = &sim;
  Rng init(2, "init");
  for (uint64_t i = 0; i < n; ++i) {
    sim.schedule_at(Time::from_ps(static_cast<int64_t>(init.exponential(1e6))), h, i);
  }
  sim.run_until(sim.now() + Duration::ps(2'000'000));  // warm up
  constexpr uint64_t kBatch = 10'000;
  uint64_t done = 0;
  for (auto _ : state) {
    uint64_t ran = 0;
    while (ran < kBatch) {
      ran += sim.run_until(sim.next_event_time());
    }
    done += ran;
  }
  state.SetItemsProcessed(static_cast<int64_t>(done));
  state.counters["pending"] = static_cast<double>(sim.pending());
}
BENCHMARK(Hold)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Arg(1024);

}  // namespace

BENCHMARK_MAIN();
