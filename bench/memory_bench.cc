// What a cache line costs on this machine, by how much memory a run touches:
// the floor under the cost per event of a large fabric (bench/README.md,
// "Scale"). A random cyclic permutation of 64-byte lines over `mb` MiB (2 MiB
// pages asked for), walked by `chains` independent pointer chases: with one
// chain every load waits for the one before (latency); with eight, up to
// eight misses are in flight at once (what prefetching can reach at best).
// Counter ns_per_line: wall time per line loaded.
//
// BM_PageSpread: the same chase over lines that together fit in L2, but each
// on a page of its own (4 KiB apart, at a scattered offset within its page so
// that they do not crowd a few cache sets): what a first touch costs when the
// line is cached but its page is not in the TLB (a page walk). With 2 MiB
// pages asked for and given, 4,096 pages of 4 KiB span 32 huge pages, which a
// TLB holds; where the hypervisor backs guest memory with 4 KiB pages
// (thirteenth session's VM, bench/README.md) asking changes nothing.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct alignas(64) Line {
  Line* next;
  char pad[56];
};
static_assert(sizeof(Line) == 64);

void BM_RandomLines(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0)) << 20;
  const int chains = static_cast<int>(state.range(1));
  const size_t n = bytes / sizeof(Line);
  // aligned_alloc wants a multiple of the alignment (1 MiB is half a page).
  constexpr size_t kPage = size_t{2} << 20;
  const size_t room = (bytes + kPage - 1) / kPage * kPage;
  auto* lines = static_cast<Line*>(std::aligned_alloc(kPage, room));
  madvise(lines, room, MADV_HUGEPAGE);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(1));
  for (size_t i = 0; i < n; ++i) lines[order[i]].next = &lines[order[(i + 1) % n]];
  std::vector<Line*> at(static_cast<size_t>(chains));
  for (int c = 0; c < chains; ++c) at[static_cast<size_t>(c)] = &lines[order[n / chains * c]];
  // Warm: one pass, so that what fits in a cache is in it.
  Line* w = lines;
  for (size_t i = 0; i < n; ++i) w = w->next;
  benchmark::DoNotOptimize(w);
  constexpr int kSteps = 1 << 16;
  for (auto _ : state) {
    for (int s = 0; s < kSteps; ++s)
      for (Line*& p : at) p = p->next;
    benchmark::DoNotOptimize(at.data());
  }
  const double loads = static_cast<double>(state.iterations()) * kSteps * chains;
  state.counters["ns_per_line"] =
      benchmark::Counter(loads, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(loads));
  std::free(lines);
}
// 1 MiB (an L2), 4, 16, 64 and 320 MiB (the 4,096-host world); 1 and 8 chains.
BENCHMARK(BM_RandomLines)
    ->ArgNames({"MiB", "chains"})
    ->ArgsProduct({{1, 4, 16, 64, 320}, {1, 8}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_PageSpread(benchmark::State& state) {
  const size_t pages = static_cast<size_t>(state.range(0));
  const bool huge = state.range(1) != 0;
  constexpr size_t kSmall = 4096, kHuge = size_t{2} << 20;
  const size_t room = (pages * kSmall + kHuge - 1) / kHuge * kHuge;
  auto* base = static_cast<char*>(std::aligned_alloc(kHuge, room));
  madvise(base, room, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  for (size_t b = 0; b < room; b += kSmall) base[b] = 0;  // fault every page in
  // Page i's line at offset (i * 37 mod 64) lines: every cache set used alike.
  auto line = [&](size_t i) {
    return reinterpret_cast<Line*>(base + i * kSmall + (i * 37 % 64) * 64);
  };
  std::vector<size_t> order(pages);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(1));
  for (size_t i = 0; i < pages; ++i) line(order[i])->next = line(order[(i + 1) % pages]);
  Line* p = line(order[0]);
  for (size_t i = 0; i < pages; ++i) p = p->next;  // warm: the lines in cache
  constexpr int kSteps = 1 << 16;
  for (auto _ : state) {
    for (int s = 0; s < kSteps; ++s) p = p->next;
    benchmark::DoNotOptimize(p);
  }
  const double loads = static_cast<double>(state.iterations()) * kSteps;
  state.counters["ns_per_line"] =
      benchmark::Counter(loads, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["span_MiB"] = static_cast<double>(pages * kSmall) / (1 << 20);
  state.SetItemsProcessed(static_cast<int64_t>(loads));
  std::free(base);
}
// 1,024 to 16,384 pages (4 to 64 MiB of span; 64 KiB to 1 MiB of lines), 4 KiB
// pages asked for (0) or 2 MiB (1).
BENCHMARK(BM_PageSpread)
    ->ArgNames({"pages", "huge"})
    ->ArgsProduct({{1024, 4096, 8192, 16384}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
