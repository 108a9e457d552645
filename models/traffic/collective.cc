#include "models/traffic/collective.h"

#include <algorithm>
#include <bit>

#include "sim/check.h"

namespace xoff::models {
namespace {

// Bytes in chunks [lo, lo + len) of S split into n chunks, the first S mod n
// chunks one byte larger.
int64_t chunk_bytes(int64_t s, uint32_t n, uint32_t lo, uint32_t len) {
  const int64_t q = s / n;
  const int64_t rem = s % n;
  const int64_t extra = std::max<int64_t>(0, std::min<int64_t>(lo + len, rem) - lo);
  return q * len + extra;
}

// What rank r sends in step k: to whom, how much, and whose step-k flow
// arrives at r.
struct StepFlow {
  uint32_t dst = 0;
  uint32_t from = 0;
  int64_t bytes = 0;
};

StepFlow ring_step(uint32_t n, int64_t s, uint32_t r, uint32_t k) {
  // Reduce-scatter sends chunk r - k; all-gather step j sends chunk r + 1 - j.
  const uint32_t chunk = k < n - 1 ? (r + n - k) % n : (r + 1 + n - (k - (n - 1))) % n;
  return {(r + 1) % n, (r + n - 1) % n, chunk_bytes(s, n, chunk, 1)};
}

StepFlow halving_doubling_step(uint32_t n, int64_t s, uint32_t r, uint32_t k) {
  const auto m = static_cast<uint32_t>(std::countr_zero(n));  // log2 n
  uint32_t lo = 0;
  uint32_t len = n;  // chunks [lo, lo + len) that rank r is responsible for
  for (uint32_t j = 0;; ++j) {
    const bool halving = j < m;
    const uint32_t d = halving ? n >> (j + 1) : 1u << (j - m);
    int64_t bytes = 0;
    if (halving) {
      len /= 2;
      const bool keep_upper = (r & d) != 0;
      bytes = chunk_bytes(s, n, keep_upper ? lo : lo + len, len);
      if (keep_upper) lo += len;
    } else {
      bytes = chunk_bytes(s, n, lo, len);
      lo &= ~d;
      len *= 2;
    }
    if (j == k) return {r ^ d, r ^ d, bytes};
  }
}

StepFlow step_flow(const CollectiveSpec& spec, uint32_t r, uint32_t k) {
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  return spec.algorithm == CollectiveAlgorithm::kRing
             ? ring_step(n, spec.size.count(), r, k)
             : halving_doubling_step(n, spec.size.count(), r, k);
}

FlowSpec step_spec(const CollectiveSpec& spec, uint32_t r, uint32_t k, const StepFlow& sf) {
  FlowSpec f;
  f.name = spec.name;
  f.name += "/s";
  f.name += std::to_string(k);
  f.name += "/r";
  f.name += std::to_string(r);
  f.src = spec.ranks[r];
  f.dst = spec.ranks[sf.dst];
  f.size = sim::Bytes(sf.bytes);
  f.start = spec.start;
  apply_class(f, spec.cls);
  return f;
}

void validate(const CollectiveSpec& spec) {
  const auto fail = [&](const std::string& what) { throw TrafficError(spec.name + ": " + what); };
  const auto n = spec.ranks.size();
  if (n < 2) fail("a collective needs at least 2 ranks");
  if (spec.iterations < 1) fail("iterations must be at least 1");
  if (spec.compute < sim::Duration::zero()) fail("compute time must not be negative");
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
  const uint32_t steps = collective_steps(spec);
  std::vector<FlowPlan> out(static_cast<size_t>(steps) * n);
  for (uint32_t k = 0; k < steps; ++k) {
    for (uint32_t r = 0; r < n; ++r) {
      FlowPlan& p = out[static_cast<size_t>(k) * n + r];
      p.spec = step_spec(spec, r, k, step_flow(spec, r, k));
      if (k > 0) p.after = {(k - 1) * n + r, (k - 1) * n + step_flow(spec, r, k - 1).from};
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
  validate(spec);
  const auto item = static_cast<uint32_t>(items_.size());
  Item& it = items_.emplace_back();
  it.spec = spec;
  it.ranks = static_cast<uint32_t>(spec.ranks.size());
  it.steps = collective_steps(spec);
  it.total = static_cast<uint64_t>(it.steps) * it.ranks;
  it.record.algorithm = algorithm_name(spec.algorithm);
  it.record.ranks = it.ranks;
  it.record.size_bytes = spec.size.count();
  it.record.ideal = collective_ideal(spec);
  // Step 0 names every rank as a source and every rank as a destination, so
  // the manager validates all hosts and the class here; later steps reuse them.
  try {
    begin_iteration(item, spec.start + spec.compute);
    items_[item].first_flow = items_[item].first_of_iteration;
  } catch (const TrafficError&) {
    items_.pop_back();
    throw;
  }
  return item;
}

void CollectiveEngine::begin_iteration(uint32_t item, sim::Time start) {
  Item& it = items_[item];
  it.remaining = it.total;
  it.step.assign(it.ranks, 0);
  it.sent.assign(it.ranks, false);
  it.received.assign(it.total, false);
  it.step_finish.assign(it.steps, start);
  it.step_unloaded.assign(it.steps, sim::Duration::zero());
  it.step_max_fct.assign(it.steps, sim::Duration::zero());
  it.step_sum_fct.assign(it.steps, sim::Duration::zero());
  CriticalPath origin;
  origin.finish = start;
  it.own.assign(it.ranks, origin);
  it.last = origin;
  it.incoming.clear();
  it.record.name =
      it.spec.iterations > 1 ? it.spec.name + "/iter" + std::to_string(it.iteration) : it.spec.name;
  it.record.start = start;
  for (uint32_t r = 0; r < it.ranks; ++r) {
    const uint32_t id = launch(item, r, 0, start, origin);
    if (r == 0) items_[item].first_of_iteration = id;
  }
}

uint32_t CollectiveEngine::launch(uint32_t item, uint32_t rank, uint32_t step, sim::Time start,
                                  const CriticalPath& base) {
  Item& it = items_[item];
  FlowSpec f = step_spec(it.spec, rank, step, step_flow(it.spec, rank, step));
  f.start = start;
  const uint32_t id = tm_.add_flow(std::move(f));
  running_.get(id) = FlowTag{item, rank, step, base};
  it.step[rank] = step;
  it.sent[rank] = false;
  ++it.generated;
  return id;
}

void CollectiveEngine::advance(uint32_t item, uint32_t rank, sim::Time now) {
  Item& it = items_[item];
  const uint32_t k = it.step[rank];
  const uint64_t key = static_cast<uint64_t>(rank) * it.steps + k;
  if (k + 1 < it.steps && it.sent[rank] && it.received[key]) {
    // Released by the later of the two: that one is on this flow's path.
    const auto in = it.incoming.find(key);
    const CriticalPath base = in == it.incoming.end() || it.own[rank].finish >= in->second.finish
                                  ? it.own[rank]
                                  : in->second;
    if (in != it.incoming.end()) it.incoming.erase(in);
    launch(item, rank, k + 1, now, base);
  }
}

void CollectiveEngine::on_flow_finished(const FlowRecord& r) {
  const FlowTag* found = running_.find(r.flow_id);
  if (found == nullptr) return;  // not a collective's flow
  const FlowTag tag = *found;
  running_.erase(r.flow_id);
  Item& it = items_[tag.item];
  XOFF_CHECK(it.remaining > 0, "collective flow finished after its collective completed");
  it.step_finish[tag.step] = std::max(it.step_finish[tag.step], r.finish);
  const sim::Duration fct = r.finish - r.start;
  it.step_unloaded[tag.step] = std::max(it.step_unloaded[tag.step], r.ideal_fct);
  it.step_max_fct[tag.step] = std::max(it.step_max_fct[tag.step], fct);
  it.step_sum_fct[tag.step] += fct;
  CriticalPath path = tag.base;
  const sim::Duration bw = sim::tx_time(sim::Bytes(r.size_bytes), it.spec.link_rate);
  const sim::Duration unloaded = std::max(r.ideal_fct, bw);
  path.wait += r.start - tag.base.finish;
  path.bandwidth += bw;
  path.overhead += unloaded - bw;
  path.congestion += fct - unloaded;
  ++path.flows;
  path.finish = r.finish;
  if (path.finish >= it.last.finish) it.last = path;
  const uint32_t dst = step_flow(it.spec, tag.rank, tag.step).dst;
  it.sent[tag.rank] = true;
  it.own[tag.rank] = path;
  it.received[static_cast<size_t>(dst) * it.steps + tag.step] = true;
  it.incoming[static_cast<uint64_t>(dst) * it.steps + tag.step] = path;
  advance(tag.item, tag.rank, r.finish);
  advance(tag.item, dst, r.finish);
  if (--items_[tag.item].remaining == 0) complete(tag.item);
}

uint64_t CollectiveEngine::ungenerated_flows() const {
  uint64_t n = 0;
  for (const Item& it : items_) n += it.total * it.spec.iterations - it.generated;
  return n;
}

void CollectiveEngine::complete(uint32_t item) {
  Item& it = items_[item];
  CollectiveRecord& rec = it.record;
  rec.step_times.clear();
  sim::Time prev = rec.start;
  for (sim::Time t : it.step_finish) {
    rec.step_times.push_back(t - prev);
    prev = t;
  }
  rec.finish = prev;
  rec.path_bandwidth = it.last.bandwidth;
  rec.path_overhead = it.last.overhead;
  rec.path_congestion = it.last.congestion;
  rec.path_wait = it.last.wait;
  rec.path_flows = it.last.flows;
  it.incoming.clear();
  rec.step_unloaded = it.step_unloaded;
  rec.step_max_fct = it.step_max_fct;
  rec.step_mean_fct.clear();
  for (sim::Duration d : it.step_sum_fct) {
    rec.step_mean_fct.push_back(sim::Duration::ps(d.count_ps() / static_cast<int64_t>(it.ranks)));
  }
  recorder_.collective_finished(rec);
  if (++it.iteration < it.spec.iterations) {  // the next training iteration
    begin_iteration(item, rec.finish + it.spec.compute);
    return;
  }
  it.done = true;
  ++finished_;
}

}  // namespace xoff::models
