#include "models/traffic/collective.h"

#include <algorithm>
#include <bit>

#include "sim/check.h"

namespace xoff::models {
namespace {

// Who sends what in every step: entries indexed [step * n + rank].
struct Schedule {
  uint32_t n = 0;
  uint32_t steps = 0;
  std::vector<uint32_t> dst;   // destination rank
  std::vector<uint32_t> from;  // rank whose flow arrives at this rank
  std::vector<int64_t> bytes;
};

// Bytes in chunks [lo, lo + len) of S split into n chunks, the first S mod n
// chunks one byte larger.
int64_t chunk_bytes(int64_t s, uint32_t n, uint32_t lo, uint32_t len) {
  const int64_t q = s / n;
  const int64_t rem = s % n;
  const int64_t extra = std::max<int64_t>(0, std::min<int64_t>(lo + len, rem) - lo);
  return q * len + extra;
}

Schedule ring_schedule(uint32_t n, int64_t s) {
  Schedule sc{n, 2 * (n - 1), {}, {}, {}};
  for (uint32_t k = 0; k < sc.steps; ++k) {
    for (uint32_t r = 0; r < n; ++r) {
      // Reduce-scatter sends chunk r - k; all-gather step j sends chunk r + 1 - j.
      const uint32_t chunk = k < n - 1 ? (r + n - k) % n : (r + 1 + n - (k - (n - 1))) % n;
      sc.dst.push_back((r + 1) % n);
      sc.from.push_back((r + n - 1) % n);
      sc.bytes.push_back(chunk_bytes(s, n, chunk, 1));
    }
  }
  return sc;
}

Schedule halving_doubling_schedule(uint32_t n, int64_t s) {
  const auto m = static_cast<uint32_t>(std::countr_zero(n));  // log2 n
  Schedule sc{n, 2 * m, {}, {}, {}};
  sc.dst.resize(static_cast<size_t>(sc.steps) * n);
  sc.from.resize(sc.dst.size());
  sc.bytes.resize(sc.dst.size());
  for (uint32_t r = 0; r < n; ++r) {
    uint32_t lo = 0;
    uint32_t len = n;  // chunks [lo, lo + len) that rank r is responsible for
    for (uint32_t k = 0; k < sc.steps; ++k) {
      const bool halving = k < m;
      const uint32_t d = halving ? n >> (k + 1) : 1u << (k - m);
      const size_t i = static_cast<size_t>(k) * n + r;
      sc.dst[i] = sc.from[i] = r ^ d;
      if (halving) {
        len /= 2;
        const bool keep_upper = (r & d) != 0;
        sc.bytes[i] = chunk_bytes(s, n, keep_upper ? lo : lo + len, len);
        if (keep_upper) lo += len;
      } else {
        sc.bytes[i] = chunk_bytes(s, n, lo, len);
        lo &= ~d;
        len *= 2;
      }
    }
  }
  return sc;
}

void validate(const CollectiveSpec& spec) {
  const auto fail = [&](const std::string& what) { throw TrafficError(spec.name + ": " + what); };
  const auto n = spec.ranks.size();
  if (n < 2) fail("a collective needs at least 2 ranks");
  std::vector<uint32_t> sorted = spec.ranks;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    fail("a host is listed twice in ranks");
  if (spec.size.count() < static_cast<int64_t>(n)) fail("size must be at least 1 byte per rank");
  if (spec.link_rate.count() <= 0) fail("link rate must be > 0");
  if (spec.algorithm == CollectiveAlgorithm::kHalvingDoubling && !std::has_single_bit(n)) {
    fail("halving-doubling needs a power-of-two number of ranks, got " + std::to_string(n));
  }
}

}  // namespace

const char* algorithm_name(CollectiveAlgorithm a) {
  return a == CollectiveAlgorithm::kRing ? "ring" : "halving_doubling";
}

uint32_t collective_steps(const CollectiveSpec& spec) {
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  if (spec.algorithm == CollectiveAlgorithm::kRing) return 2 * (n - 1);
  return 2 * static_cast<uint32_t>(std::countr_zero(n));
}

std::vector<FlowPlan> collective_flows(const CollectiveSpec& spec) {
  validate(spec);
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  const Schedule sc = spec.algorithm == CollectiveAlgorithm::kRing
                          ? ring_schedule(n, spec.size.count())
                          : halving_doubling_schedule(n, spec.size.count());
  std::vector<FlowPlan> out(sc.dst.size());
  for (uint32_t k = 0; k < sc.steps; ++k) {
    for (uint32_t r = 0; r < n; ++r) {
      const size_t i = static_cast<size_t>(k) * n + r;
      FlowPlan& p = out[i];
      p.spec.name = spec.name + "/s" + std::to_string(k) + "/r" + std::to_string(r);
      p.spec.src = spec.ranks[r];
      p.spec.dst = spec.ranks[sc.dst[i]];
      p.spec.size = sim::Bytes(sc.bytes[i]);
      p.spec.start = spec.start;
      apply_class(p.spec, spec.cls);
      if (k > 0) p.after = {(k - 1) * n + r, (k - 1) * n + sc.from[i - n]};
    }
  }
  return out;
}

sim::Duration collective_ideal(const CollectiveSpec& spec) {
  const auto n = static_cast<sim::Int128>(spec.ranks.size());
  const sim::Int128 num = 2 * (n - 1) * spec.size.count() * 8 * 1'000'000'000'000;
  const sim::Int128 den = n * spec.link_rate.count();
  return sim::Duration::ps(static_cast<int64_t>((num + den - 1) / den));
}

CollectiveEngine::CollectiveEngine(TrafficManager& tm, Recorder& recorder)
    : tm_(tm), recorder_(recorder) {
  tm_.add_observer(*this);
}

uint32_t CollectiveEngine::add(const CollectiveSpec& spec) {
  const std::vector<FlowPlan> flows = collective_flows(spec);
  Item it;
  it.first_flow = tm_.add_batch(flows);
  it.num_flows = static_cast<uint32_t>(flows.size());
  it.ranks = static_cast<uint32_t>(spec.ranks.size());
  it.remaining = it.num_flows;
  it.step_finish.assign(collective_steps(spec), spec.start);
  it.record.name = spec.name;
  it.record.algorithm = algorithm_name(spec.algorithm);
  it.record.ranks = it.ranks;
  it.record.size_bytes = spec.size.count();
  it.record.start = spec.start;
  it.record.ideal = collective_ideal(spec);
  items_.push_back(std::move(it));
  return static_cast<uint32_t>(items_.size() - 1);
}

void CollectiveEngine::on_flow_finished(const FlowRecord& r) {
  const auto after =
      std::upper_bound(items_.begin(), items_.end(), r.flow_id,
                       [](uint32_t id, const Item& it) { return id < it.first_flow; });
  if (after == items_.begin()) return;
  Item& it = *(after - 1);
  if (r.flow_id >= it.first_flow + it.num_flows) return;  // not a collective's flow
  XOFF_CHECK(it.remaining > 0, "collective flow finished after its collective completed");
  const uint32_t step = (r.flow_id - it.first_flow) / it.ranks;
  it.step_finish[step] = std::max(it.step_finish[step], r.finish);
  if (--it.remaining == 0) complete(it);
}

void CollectiveEngine::complete(Item& it) {
  CollectiveRecord& rec = it.record;
  rec.step_times.clear();
  sim::Time prev = rec.start;
  for (sim::Time t : it.step_finish) {
    rec.step_times.push_back(t - prev);
    prev = t;
  }
  rec.finish = prev;
  ++finished_;
  recorder_.collective_finished(rec);
}

}  // namespace xoff::models
