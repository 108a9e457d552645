#include "models/traffic/collective.h"

#include <algorithm>
#include <bit>

#include "sim/check.h"

namespace xoff::models {
namespace {

// A critical path as plain numbers (it crosses processes as bytes):
// bandwidth, overhead, congestion, wait (ps), flows, finish (ps).
constexpr size_t kPathWords = 6;
void path_to(const CriticalPath& b, int64_t* out) {
  out[0] = b.bandwidth.count_ps();
  out[1] = b.overhead.count_ps();
  out[2] = b.congestion.count_ps();
  out[3] = b.wait.count_ps();
  out[4] = b.flows;
  out[5] = b.finish.count_ps();
}
CriticalPath path_from(const int64_t* in) {
  CriticalPath b;
  b.bandwidth = sim::Duration::ps(in[0]);
  b.overhead = sim::Duration::ps(in[1]);
  b.congestion = sim::Duration::ps(in[2]);
  b.wait = sim::Duration::ps(in[3]);
  b.flows = static_cast<uint32_t>(in[4]);
  b.finish = sim::Time::from_ps(in[5]);
  return b;
}

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

// Chunks of one channel's bytes for a tree: chunk_size each at most, and at
// least one byte each.
uint32_t tree_chunks(int64_t channel_bytes, int64_t chunk_size) {
  const int64_t k = (channel_bytes + chunk_size - 1) / std::max<int64_t>(1, chunk_size);
  return static_cast<uint32_t>(std::clamp<int64_t>(k, 1, std::max<int64_t>(1, channel_bytes)));
}

}  // namespace

TreeLinks binary_tree(uint32_t n, uint32_t rank) {
  TreeLinks t;
  const auto r = static_cast<int64_t>(rank);
  const auto nn = static_cast<int64_t>(n);
  int64_t bit = 1;
  while (bit < nn && (bit & r) == 0) bit <<= 1;
  if (r == 0) {  // the root: one child, the largest power of two below n
    if (n > 1) t.child[1] = static_cast<int32_t>(bit >> 1);
    return t;
  }
  int64_t up = (r ^ bit) | (bit << 1);
  if (up >= nn) up = r ^ bit;
  t.parent = static_cast<int32_t>(up);
  int64_t low = bit >> 1;
  if (low == 0) return t;
  t.child[0] = static_cast<int32_t>(r - low);
  int64_t down = r + low;
  while (down >= nn && low > 0) {
    low >>= 1;
    down = r + low;
  }
  if (low > 0) t.child[1] = static_cast<int32_t>(down);
  return t;
}

TreeLinks double_tree(uint32_t n, uint32_t rank, uint32_t tree) {
  if (tree % 2 == 0) return binary_tree(n, rank);
  const auto nn = static_cast<int32_t>(n);
  // Odd n: shift by one; even n: mirror.
  const bool shift = n % 2 == 1;
  const auto to = [&](int32_t x) { return shift ? (x + nn - 1) % nn : nn - 1 - x; };
  const auto back = [&](int32_t x) { return x < 0 ? -1 : shift ? (x + 1) % nn : nn - 1 - x; };
  const TreeLinks b = binary_tree(n, static_cast<uint32_t>(to(static_cast<int32_t>(rank))));
  TreeLinks t;
  t.parent = back(b.parent);
  t.child[0] = back(b.child[0]);
  t.child[1] = back(b.child[1]);
  return t;
}

// The engine's schedules, shared with collective_flows().
namespace collective_detail {

uint32_t schedule_steps(Schedule sc, uint32_t n) {
  switch (sc) {
    case Schedule::kRing:
      return 2 * (n - 1);
    case Schedule::kHalvingDoubling:
      return 2 * static_cast<uint32_t>(std::countr_zero(n));
    case Schedule::kReduceScatter:
    case Schedule::kAllGather:
    case Schedule::kAllToAll:
    case Schedule::kTree:  // chunks: set by the part
      break;
  }
  return n - 1;
}

StepFlow schedule_step(Schedule sc, uint32_t n, int64_t s, uint32_t r, uint32_t k) {
  switch (sc) {
    case Schedule::kRing:
    case Schedule::kReduceScatter:
      return ring_step(n, s, r, k);
    case Schedule::kAllGather:
      return ring_step(n, s, r, k + (n - 1));
    case Schedule::kHalvingDoubling:
      return halving_doubling_step(n, s, r, k);
    case Schedule::kAllToAll:
    case Schedule::kTree:  // not a step schedule (tree_advance)
      break;
  }
  const uint32_t dst = (r + k + 1) % n;
  return {dst, (r + n - k - 1) % n, chunk_bytes(s, n, dst, 1)};
}

// The schedule of a one-phase collective.
Schedule flat_schedule(const CollectiveSpec& spec) {
  switch (spec.op) {
    case CollectiveOp::kAllReduce:
      return spec.algorithm == CollectiveAlgorithm::kHalvingDoubling ? Schedule::kHalvingDoubling
             : spec.algorithm == CollectiveAlgorithm::kTree          ? Schedule::kTree
                                                                     : Schedule::kRing;
    case CollectiveOp::kReduceScatter:
      return Schedule::kReduceScatter;
    case CollectiveOp::kAllGather:
      return Schedule::kAllGather;
    case CollectiveOp::kAllToAll:
      break;
  }
  return Schedule::kAllToAll;
}

bool hierarchical(const CollectiveSpec& spec) {
  return spec.algorithm == CollectiveAlgorithm::kHierarchical;
}

// "<name>[/p<phase>][/c<channel>]/s<step>/r<rank>".
std::string flow_name(const CollectiveSpec& spec, uint32_t phase, uint32_t channel, uint32_t step,
                      uint32_t rank) {
  std::string n = spec.name;
  if (hierarchical(spec)) {
    n += "/p";
    n += std::to_string(phase);
  }
  if (spec.channels > 1) {
    n += "/c";
    n += std::to_string(channel);
  }
  n += "/s";
  n += std::to_string(step);
  n += "/r";
  n += std::to_string(rank);
  return n;
}

}  // namespace collective_detail

namespace {
using collective_detail::Schedule;

sim::Duration ceil_ps(sim::Int128 num, sim::Int128 den) {
  return sim::Duration::ps(static_cast<int64_t>((num + den - 1) / den));
}

// A tree's chunk: chunk_size, or NCCL's 512 KB when unset.
int64_t tree_chunk_size(const CollectiveSpec& spec) {
  return spec.chunk_size.count() > 0 ? spec.chunk_size.count() : 512'000;
}

// Flows of one tree allreduce over n ranks: per channel, every rank but the
// root sends each chunk up, and every rank but the root receives it back.
uint64_t tree_flows(int64_t size, uint32_t n, uint32_t channels, int64_t chunk_size) {
  uint64_t total = 0;
  for (uint32_t c = 0; c < channels; ++c) {
    total += uint64_t{2} * (n - 1) * tree_chunks(chunk_bytes(size, channels, c, 1), chunk_size);
  }
  return total;
}

// Slices per step of a ring-type schedule (ring, reduce-scatter, all-gather)
// over n ranks whose channels hold `largest` and `smallest` bytes: each
// step's S/(C N) moves in slices of at most chunk_size, every slice at least
// one byte; 1 when chunk_size is unset or the schedule is another.
uint32_t ring_slices(Schedule sc, int64_t largest, int64_t smallest, uint32_t n,
                     int64_t chunk_size) {
  if (chunk_size <= 0 ||
      (sc != Schedule::kRing && sc != Schedule::kReduceScatter && sc != Schedule::kAllGather))
    return 1;
  const int64_t step = (largest + n - 1) / n;
  const int64_t k = (step + chunk_size - 1) / chunk_size;
  return static_cast<uint32_t>(std::clamp<int64_t>(k, 1, std::max<int64_t>(1, smallest / n)));
}

}  // namespace

void validate_collective(const CollectiveSpec& spec) {
  const auto fail = [&](const std::string& what) { throw TrafficError(spec.name + ": " + what); };
  const auto n = spec.ranks.size();
  if (n < 2) fail("a collective needs at least 2 ranks");
  if (spec.iterations < 1) fail("iterations must be at least 1");
  if (spec.compute < sim::Duration::zero()) fail("compute time must not be negative");
  if (spec.channels < 1 || spec.channels > 64) fail("channels must be 1..64");
  std::vector<uint32_t> sorted = spec.ranks;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    fail("a host is listed twice in ranks");
  if (spec.link_rate.count() <= 0) fail("link rate must be > 0");
  if (spec.workload.empty()) {
    if (spec.size.count() < static_cast<int64_t>(n) * spec.channels)
      fail("size must be at least 1 byte per rank and channel");
    const bool allreduce = spec.op == CollectiveOp::kAllReduce;
    switch (spec.algorithm) {
      case CollectiveAlgorithm::kRing:
        if (spec.op == CollectiveOp::kAllToAll) fail("all_to_all runs direct, not as a ring");
        break;
      case CollectiveAlgorithm::kHalvingDoubling:
        if (!allreduce) fail("halving_doubling is an allreduce algorithm");
        if (!std::has_single_bit(n))
          fail("halving-doubling needs a power-of-two number of ranks, got " + std::to_string(n));
        break;
      case CollectiveAlgorithm::kHierarchical:
        if (!allreduce) fail("hierarchical is an allreduce algorithm");
        if (spec.local_size < 2 || n % spec.local_size != 0 || n / spec.local_size < 2) {
          fail("hierarchical needs at least 2 servers of local_size >= 2 ranks each (" +
               std::to_string(n) + " ranks, local_size " + std::to_string(spec.local_size) + ")");
        }
        if (spec.local_rate.count() <= 0) fail("the intra-server rate must be > 0");
        break;
      case CollectiveAlgorithm::kDirect:
        if (spec.op != CollectiveOp::kAllToAll) fail("direct is the all_to_all algorithm");
        break;
      case CollectiveAlgorithm::kTree:
        if (!allreduce) fail("tree is an allreduce algorithm");
        break;
    }
  }
  if (spec.chunk_size.count() < 0) fail("chunk_size must not be negative");
  // Chunks or slices per channel must stay countable (uint32 steps).
  constexpr int64_t kMaxChunks = 1 << 20;
  std::vector<WorkloadStep> lines = spec.workload;
  if (lines.empty()) {
    WorkloadStep one;
    one.op = spec.op;
    one.algorithm = spec.algorithm;
    one.size = spec.size;
    lines.push_back(one);
  }
  for (const WorkloadStep& w : lines) {
    const int64_t per_channel = w.size.count() / std::max<uint32_t>(1, spec.channels);
    const int64_t chunk = w.algorithm == CollectiveAlgorithm::kTree
                              ? (spec.chunk_size.count() > 0 ? spec.chunk_size.count() : 512'000)
                              : spec.chunk_size.count();
    if (chunk > 0 && per_channel / chunk > kMaxChunks)
      fail("chunk_size " + std::to_string(chunk) + " B cuts " + std::to_string(per_channel) +
           " B per channel into more than " + std::to_string(kMaxChunks) +
           " chunks: choose a larger chunk_size");
  }
  if (!spec.workload.empty() &&
      std::none_of(spec.workload.begin(), spec.workload.end(),
                   [](const WorkloadStep& w) { return w.size.count() > 0; })) {
    fail("a workload needs at least one collective step");
  }
  const bool servers_ok =
      spec.local_size >= 2 && n % spec.local_size == 0 && n / spec.local_size >= 2;
  for (size_t i = 0; i < spec.workload.size(); ++i) {
    const WorkloadStep& w = spec.workload[i];
    const std::string at = "workload step " + std::to_string(i + 1) + ": ";
    if (w.compute < sim::Duration::zero()) fail(at + "compute time must not be negative");
    if (w.size.count() == 0) continue;
    CollectiveSpec one = spec;
    one.workload.clear();
    one.op = w.op;
    one.algorithm = w.algorithm;
    one.size = w.size;
    const bool local =
        w.group != WorkloadGroup::kAll || w.algorithm == CollectiveAlgorithm::kHierarchical;
    if (local && !servers_ok) {
      fail(at + "group " + group_name(w.group) + " / " + algorithm_name(w.algorithm) +
           " needs at least 2 servers of local_size >= 2 ranks");
    }
    const uint64_t group_n = w.group == WorkloadGroup::kServer ? spec.local_size
                             : w.group == WorkloadGroup::kRail ? n / std::max(1u, spec.local_size)
                                                               : n;
    if (w.algorithm == CollectiveAlgorithm::kHierarchical && w.group != WorkloadGroup::kAll)
      fail(at + "hierarchical runs over group all");
    if (w.algorithm == CollectiveAlgorithm::kTree && w.group != WorkloadGroup::kAll)
      fail(at + "tree runs over group all");
    if (w.algorithm == CollectiveAlgorithm::kHalvingDoubling && !std::has_single_bit(group_n))
      fail(at + "halving-doubling needs a power-of-two group, got " + std::to_string(group_n));
    if (w.size.count() < static_cast<int64_t>(group_n * spec.channels))
      fail(at + "size must be at least 1 byte per rank and channel");
    one.ranks.resize(2);  // the op/algorithm pairing only
    one.local_size = 0;
    if (w.algorithm != CollectiveAlgorithm::kHierarchical &&
        w.algorithm != CollectiveAlgorithm::kHalvingDoubling &&
        w.algorithm != CollectiveAlgorithm::kTree) {
      try {
        validate_collective(one);
      } catch (const TrafficError& e) {
        fail(at + e.what());
      }
    }
  }
}

namespace {

// Ranks in one collective of a workload step.
uint32_t group_size(const CollectiveSpec& spec, const WorkloadStep& w) {
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  if (w.group == WorkloadGroup::kServer) return spec.local_size;
  if (w.group == WorkloadGroup::kRail) return n / spec.local_size;
  return n;
}

// The steps of `spec` as a workload (a plain collective is one step).
std::vector<WorkloadStep> steps_of(const CollectiveSpec& spec) {
  if (!spec.workload.empty()) return spec.workload;
  WorkloadStep one;
  one.op = spec.op;
  one.algorithm = spec.algorithm;
  one.size = spec.size;
  return {one};
}

}  // namespace

const char* group_name(WorkloadGroup g) {
  switch (g) {
    case WorkloadGroup::kAll:
      return "all";
    case WorkloadGroup::kServer:
      return "server";
    case WorkloadGroup::kRail:
      break;
  }
  return "rail";
}

const char* op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllReduce:
      return "allreduce";
    case CollectiveOp::kReduceScatter:
      return "reduce_scatter";
    case CollectiveOp::kAllGather:
      return "all_gather";
    case CollectiveOp::kAllToAll:
      break;
  }
  return "all_to_all";
}

const char* algorithm_name(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::kRing:
      return "ring";
    case CollectiveAlgorithm::kHalvingDoubling:
      return "halving_doubling";
    case CollectiveAlgorithm::kHierarchical:
      return "hierarchical";
    case CollectiveAlgorithm::kTree:
      return "tree";
    case CollectiveAlgorithm::kDirect:
      break;
  }
  return "direct";
}

uint32_t collective_steps(const CollectiveSpec& spec) {
  uint32_t total = 0;
  for (const WorkloadStep& w : steps_of(spec)) {
    if (w.size.count() == 0) continue;
    if (w.algorithm == CollectiveAlgorithm::kHierarchical) {
      const uint32_t l = spec.local_size;
      total += 2 * (l - 1) + 2 * (static_cast<uint32_t>(spec.ranks.size()) / l - 1);
      continue;
    }
    if (w.algorithm == CollectiveAlgorithm::kTree) {
      total += tree_chunks(chunk_bytes(w.size.count(), spec.channels, 0, 1), tree_chunk_size(spec));
      continue;
    }
    CollectiveSpec one = spec;
    one.op = w.op;
    one.algorithm = w.algorithm;
    const Schedule sc = collective_detail::flat_schedule(one);
    const uint32_t g = group_size(spec, w);
    total += collective_detail::schedule_steps(sc, g) *
             ring_slices(sc, chunk_bytes(w.size.count(), spec.channels, 0, 1),
                         chunk_bytes(w.size.count(), spec.channels, spec.channels - 1, 1), g,
                         spec.chunk_size.count());
  }
  return total;
}

uint64_t collective_flow_count(const CollectiveSpec& spec) {
  uint64_t total = 0;
  const uint64_t n = spec.ranks.size();
  for (const WorkloadStep& w : steps_of(spec)) {
    if (w.size.count() == 0) continue;
    if (w.algorithm != CollectiveAlgorithm::kTree) {
      // This step alone, with its group: n / g groups of g ranks each run
      // the group's steps, n ranks in all.
      CollectiveSpec one = spec;
      WorkloadStep only = w;
      only.compute = sim::Duration::zero();
      one.workload = {only};
      total += uint64_t{collective_steps(one)} * n * spec.channels;
      continue;
    }
    total +=
        tree_flows(w.size.count(), static_cast<uint32_t>(n), spec.channels, tree_chunk_size(spec));
  }
  return total;
}

std::vector<FlowPlan> collective_flows(const CollectiveSpec& spec) {
  validate_collective(spec);
  if (collective_detail::hierarchical(spec) || !spec.workload.empty() ||
      spec.algorithm == CollectiveAlgorithm::kTree || spec.chunk_size.count() > 0)
    throw TrafficError(
        spec.name +
        ": a hierarchical, tree or chunked collective or a workload is not planned up front");
  const Schedule sc = collective_detail::flat_schedule(spec);
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  const uint32_t steps = collective_steps(spec);
  std::vector<FlowPlan> out(static_cast<size_t>(steps) * n * spec.channels);
  for (uint32_t c = 0; c < spec.channels; ++c) {
    const int64_t size = chunk_bytes(spec.size.count(), spec.channels, c, 1);
    const uint32_t base = c * steps * n;
    for (uint32_t k = 0; k < steps; ++k) {
      for (uint32_t r = 0; r < n; ++r) {
        FlowPlan& p = out[base + static_cast<size_t>(k) * n + r];
        const StepFlow sf = collective_detail::schedule_step(sc, n, size, r, k);
        p.spec.name = collective_detail::flow_name(spec, 0, c, k, r);
        p.spec.src = spec.ranks[r];
        p.spec.dst = spec.ranks[sf.dst];
        p.spec.size = sim::Bytes(sf.bytes);
        p.spec.start = spec.start;
        apply_class(p.spec, spec.cls);
        if (k > 0 && sc != Schedule::kAllToAll) {
          const uint32_t prev = base + (k - 1) * n;
          p.after = {prev + r, prev + collective_detail::schedule_step(sc, n, size, r, k - 1).from};
        }
      }
    }
  }
  return out;
}

sim::Duration collective_ideal(const CollectiveSpec& spec) {
  sim::Duration total;
  for (const WorkloadStep& w : steps_of(spec)) {
    total += w.compute;
    if (w.size.count() == 0) continue;
    const sim::Int128 bits_ps = sim::Int128{w.size.count()} * 8 * 1'000'000'000'000;
    if (w.algorithm == CollectiveAlgorithm::kHierarchical) {
      const auto n = static_cast<sim::Int128>(spec.ranks.size());
      const sim::Int128 l = spec.local_size;
      const sim::Int128 m = n / l;
      total += ceil_ps(2 * (l - 1) * bits_ps, l * spec.local_rate.count()) +
               ceil_ps(2 * (m - 1) * bits_ps, n * spec.link_rate.count());
      continue;
    }
    if (w.algorithm == CollectiveAlgorithm::kTree) {
      // The busiest rank: per channel, its bytes up (not the root) and down
      // to each child.
      const auto n = static_cast<uint32_t>(spec.ranks.size());
      sim::Int128 most = 0;
      for (uint32_t r = 0; r < n; ++r) {
        sim::Int128 sent = 0;
        for (uint32_t c = 0; c < spec.channels; ++c) {
          const TreeLinks t = double_tree(n, r, c);
          const int links = (t.parent >= 0) + (t.child[0] >= 0) + (t.child[1] >= 0);
          sent += sim::Int128{links} * chunk_bytes(w.size.count(), spec.channels, c, 1);
        }
        most = std::max(most, sent);
      }
      total += ceil_ps(most * 8 * 1'000'000'000'000, spec.link_rate.count());
      continue;
    }
    const sim::Int128 g = group_size(spec, w);
    if (w.op == CollectiveOp::kAllToAll && w.group == WorkloadGroup::kAll && spec.local_size >= 2) {
      // S/g to each of the g - L peers in other servers over the link, and to
      // the L - 1 in its own server over the local path, both at once.
      const sim::Int128 l = spec.local_size;
      total += std::max(ceil_ps((g - l) * bits_ps, g * spec.link_rate.count()),
                        ceil_ps((l - 1) * bits_ps, g * spec.local_rate.count()));
      continue;
    }
    const sim::Int128 b =
        w.group == WorkloadGroup::kServer ? spec.local_rate.count() : spec.link_rate.count();
    const sim::Int128 factor = w.op == CollectiveOp::kAllReduce ? 2 : 1;
    total += ceil_ps(factor * (g - 1) * bits_ps, g * b);
  }
  return total;
}

CollectiveEngine::CollectiveEngine(TrafficManager& tm, Recorder& recorder)
    : tm_(tm), recorder_(recorder) {
  tm_.add_observer(*this);
}

uint32_t CollectiveEngine::add(const CollectiveSpec& spec) {
  validate_collective(spec);
  const auto job = static_cast<uint32_t>(jobs_.size());
  const size_t parts_before = parts_.size();
  Job& j = jobs_.emplace_back();
  j.spec = spec;
  const bool workload = !spec.workload.empty();
  j.record.op = workload ? "workload" : op_name(spec.op);
  j.record.algorithm = workload ? "workload" : algorithm_name(spec.algorithm);
  j.record.ranks = static_cast<uint32_t>(spec.ranks.size());
  j.record.size_bytes = 0;
  for (const WorkloadStep& w : steps_of(spec)) j.record.size_bytes += w.size.count();
  j.record.ideal = collective_ideal(spec);
  plan_parts(job);
  j.first_flow = tm_.reserve_ids(j.total * spec.iterations);
  // Phase 0 names every rank as a source and a destination, so the manager
  // validates the hosts and the class here; later flows reuse them.
  try {
    begin_iteration(job, spec.start + spec.compute);
  } catch (const TrafficError&) {
    jobs_.pop_back();
    parts_.resize(parts_before);
    throw;
  }
  return job;
}

void CollectiveEngine::plan_parts(uint32_t job) {
  Job& j = jobs_[job];
  if (j.spec.workload.empty()) {
    WorkloadStep one;
    one.op = j.spec.op;
    one.algorithm = j.spec.algorithm;
    one.size = j.spec.size;
    plan_step(job, one);
  } else {
    sim::Duration pending;
    const std::vector<WorkloadStep> steps = j.spec.workload;
    for (WorkloadStep w : steps) {
      pending += w.compute;
      if (w.size.count() == 0) continue;
      w.compute = pending;
      pending = sim::Duration::zero();
      Job::Segment seg;
      seg.record.op = op_name(w.op);
      seg.record.algorithm = algorithm_name(w.algorithm);
      seg.record.group = group_name(w.group);
      seg.record.size_bytes = w.size.count();
      seg.first_phase = static_cast<uint32_t>(jobs_[job].phases.size());
      plan_step(job, w);
      seg.end_phase = static_cast<uint32_t>(jobs_[job].phases.size());
      jobs_[job].segments.push_back(std::move(seg));
    }
    jobs_[job].trailing_compute = pending;
  }
  Job& jj = jobs_[job];
  uint32_t offset = 0;
  uint64_t ids = 0;
  for (const auto& phase : jj.phases) {
    for (uint32_t id : phase) {
      Part& p = parts_[id];
      p.step_offset = offset;
      p.id_offset = ids;
      ids += p.flows;
      if (p.schedule != Schedule::kTree) continue;
      // A tree lane sends each of its channel's chunks up (not the root) and
      // down to each child.
      const uint32_t lanes = p.n * p.channels;
      p.lane_first.assign(size_t{lanes} + 1, 0);
      for (uint32_t lane = 0; lane < lanes; ++lane) {
        const uint32_t c = lane / p.n;
        const TreeLinks t = double_tree(p.n, lane % p.n, c);
        const uint32_t links =
            (t.parent >= 0 ? 1 : 0) + (t.child[0] >= 0 ? 1 : 0) + (t.child[1] >= 0 ? 1 : 0);
        const uint32_t k =
            tree_chunks(chunk_bytes(p.size, p.channels, c, 1), tree_chunk_size(jj.spec));
        p.lane_first[lane + 1] = p.lane_first[lane] + uint64_t{links} * k;
      }
      XOFF_CHECK(p.lane_first.back() == p.flows, "tree flow count");
    }
    offset += parts_[phase.front()].steps;
  }
  XOFF_CHECK(ids == jj.total, "collective flow count");
  jj.steps = offset;
}

uint32_t CollectiveEngine::flow_id(const Part& p, uint32_t lane, uint32_t step,
                                   uint8_t kind) const {
  const uint64_t at = jobs_[p.job].first_of_iteration + p.id_offset;
  if (p.schedule != Schedule::kTree) {
    // As collective_flows(): channel-major, then step-major, then rank.
    const uint32_t c = lane / p.n;
    return static_cast<uint32_t>(at + (uint64_t{c} * p.steps + step) * p.n + lane % p.n);
  }
  const TreeLinks t = double_tree(p.n, lane % p.n, lane / p.n);
  const uint32_t links =
      (t.parent >= 0 ? 1 : 0) + (t.child[0] >= 0 ? 1 : 0) + (t.child[1] >= 0 ? 1 : 0);
  const uint64_t k = (p.lane_first[lane + 1] - p.lane_first[lane]) / links;
  uint32_t slot = 0;
  if (kind >= 1) slot += t.parent >= 0 ? 1 : 0;
  if (kind == 2) slot += t.child[0] >= 0 ? 1 : 0;
  return static_cast<uint32_t>(at + p.lane_first[lane] + slot * k + step);
}

void CollectiveEngine::plan_step(uint32_t job, const WorkloadStep& step) {
  const CollectiveSpec& spec = jobs_[job].spec;
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  const uint32_t l = spec.local_size;
  bool first_phase = true;
  bool sliceable = true;
  const auto new_phase = [&] {
    Job& j = jobs_[job];
    j.phases.emplace_back();
    j.phase_delay.push_back(first_phase ? step.compute : sim::Duration::zero());
    first_phase = false;
  };
  const auto add_part = [&](Schedule sc, std::vector<uint32_t> members, int64_t size,
                            const FlowClass& cls, sim::BitsPerSecond rate) {
    Job& j = jobs_[job];
    Part& p = parts_.emplace_back();
    p.schedule = sc;
    p.job = job;
    p.phase = static_cast<uint32_t>(j.phases.size() - 1);
    p.n = static_cast<uint32_t>(members.size());
    p.members = std::move(members);
    p.size = size;
    p.cls = cls;
    // The channels share the path, so each flow's bandwidth term is at rate / C.
    p.rate = sim::BitsPerSecond(std::max<int64_t>(1, rate.count() / spec.channels));
    p.channels = spec.channels;
    p.steps = collective_detail::schedule_steps(sc, p.n);
    if (sliceable) {
      p.slices = ring_slices(sc, chunk_bytes(size, p.channels, 0, 1),
                             chunk_bytes(size, p.channels, p.channels - 1, 1), p.n,
                             spec.chunk_size.count());
      p.steps *= p.slices;
    }
    p.flows = uint64_t{p.steps} * p.n * p.channels;
    if (sc == Schedule::kTree) {
      // Steps are chunks (the first channel's count: channels differ by at
      // most one byte, so by at most one chunk when S/C is a multiple).
      p.chunks = tree_chunks(chunk_bytes(size, p.channels, 0, 1), tree_chunk_size(spec));
      p.steps = p.chunks;
      p.flows = tree_flows(size, p.n, p.channels, tree_chunk_size(spec));
    }
    j.phases.back().push_back(static_cast<uint32_t>(parts_.size() - 1));
    j.total += p.flows;
  };
  const auto server = [&](uint32_t s) {
    std::vector<uint32_t> v(l);
    for (uint32_t i = 0; i < l; ++i) v[i] = s * l + i;
    return v;
  };
  const auto rail = [&](uint32_t i) {
    std::vector<uint32_t> v(n / l);
    for (uint32_t s = 0; s < n / l; ++s) v[s] = s * l + i;
    return v;
  };
  CollectiveSpec as_one = spec;
  as_one.op = step.op;
  as_one.algorithm = step.algorithm;
  const int64_t size = step.size.count();
  if (step.algorithm == CollectiveAlgorithm::kHierarchical) {
    sliceable = false;  // its phases move whole steps
    new_phase();
    for (uint32_t s = 0; s < n / l; ++s) {
      add_part(Schedule::kReduceScatter, server(s), size, spec.local_cls, spec.local_rate);
    }
    // After a ring reduce-scatter, local rank i holds reduced chunk (i + 1) mod L.
    new_phase();
    for (uint32_t i = 0; i < l; ++i) {
      add_part(Schedule::kRing, rail(i), chunk_bytes(size, l, (i + 1) % l, 1), spec.cls,
               spec.link_rate);
    }
    new_phase();
    for (uint32_t s = 0; s < n / l; ++s) {
      add_part(Schedule::kAllGather, server(s), size, spec.local_cls, spec.local_rate);
    }
    return;
  }
  const Schedule sc = collective_detail::flat_schedule(as_one);
  new_phase();
  switch (step.group) {
    case WorkloadGroup::kAll: {
      std::vector<uint32_t> all(n);
      for (uint32_t r = 0; r < n; ++r) all[r] = r;
      add_part(sc, std::move(all), size, spec.cls, spec.link_rate);
      break;
    }
    case WorkloadGroup::kServer:
      for (uint32_t s = 0; s < n / l; ++s) {
        add_part(sc, server(s), size, spec.local_cls, spec.local_rate);
      }
      break;
    case WorkloadGroup::kRail:
      for (uint32_t i = 0; i < l; ++i) add_part(sc, rail(i), size, spec.cls, spec.link_rate);
      break;
  }
}

void CollectiveEngine::begin_iteration(uint32_t job, sim::Time start) {
  Job& j = jobs_[job];
  j.step_finish.assign(j.steps, start);
  j.step_flows.assign(j.steps, 0);
  j.step_unloaded.assign(j.steps, sim::Duration::zero());
  j.step_max_fct.assign(j.steps, sim::Duration::zero());
  j.step_sum_fct.assign(j.steps, sim::Duration::zero());
  j.phase_start.assign(j.phases.size(), start);
  j.phase_finish.assign(j.phases.size(), start);
  CriticalPath origin;
  origin.finish = start;
  j.last = origin;
  j.record.name =
      j.spec.iterations > 1 ? j.spec.name + "/iter" + std::to_string(j.iteration) : j.spec.name;
  j.record.start = start;
  j.first_of_iteration = j.first_flow + static_cast<uint32_t>(j.iteration * j.total);
  j.finished_flows = 0;
  j.last_flow = 0;
  j.phase = 0;
  begin_phase(job, origin);
}

void CollectiveEngine::begin_phase(uint32_t job, const CriticalPath& origin) {
  Job& j = jobs_[job];
  j.parts_left = static_cast<uint32_t>(j.phases[j.phase].size());
  const std::vector<uint32_t> ids = j.phases[j.phase];
  // Compute before the phase: its flows start that much after the barrier
  // (on the critical path it counts as waiting).
  const sim::Time start = origin.finish + j.phase_delay[j.phase];
  j.phase_start[j.phase] = start;
  for (uint32_t id : ids) begin_part(id, origin, start);
}

void CollectiveEngine::begin_part(uint32_t part, const CriticalPath& origin, sim::Time start) {
  Part& p = parts_[part];
  const uint32_t lanes = p.n * p.channels;
  p.remaining = p.flows;
  if (p.schedule == Schedule::kTree) {
    p.up_next.assign(lanes, 0);
    p.from_parent.assign(lanes, 0);
    for (int s = 0; s < 2; ++s) {
      p.down_next[s].assign(lanes, 0);
      p.from_child[s].assign(lanes, 0);
    }
    p.busy.assign(lanes, 0);
    for (uint32_t lane = 0; lane < lanes; ++lane) tree_advance(part, lane, start, origin);
    return;
  }
  p.launched.assign(lanes, 0);
  p.inflight.assign(lanes, 0);
  p.own.assign(lanes, origin);
  p.incoming.clear();
  const bool all_at_once = p.schedule == Schedule::kAllToAll;
  p.received.assign(all_at_once ? 0 : size_t{lanes} * p.steps, false);
  const Job& j = jobs_[p.job];
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    if (all_at_once) {
      if (!local(j.spec.ranks[p.members[lane % p.n]])) continue;
      for (uint32_t k = 0; k < p.steps; ++k) launch(part, lane, k, start, origin);
    } else {
      advance(part, lane, start);
    }
  }
}

uint32_t CollectiveEngine::launch(uint32_t part, uint32_t lane, uint32_t step, sim::Time start,
                                  const CriticalPath& base) {
  Part& p = parts_[part];
  Job& j = jobs_[p.job];
  const uint32_t c = lane / p.n;
  const uint32_t r = lane % p.n;
  const int64_t size = chunk_bytes(p.size, p.channels, c, 1);
  const StepFlow sf = collective_detail::schedule_step(p.schedule, p.n, size, r, step / p.slices);
  FlowSpec f;
  f.name = collective_detail::flow_name(j.spec, p.phase, c, step / p.slices, p.members[r]);
  if (p.slices > 1) f.name += "/k" + std::to_string(step % p.slices);
  f.src = j.spec.ranks[p.members[r]];
  f.dst = j.spec.ranks[p.members[sf.dst]];
  f.size =
      sim::Bytes(p.slices > 1 ? chunk_bytes(sf.bytes, p.slices, step % p.slices, 1) : sf.bytes);
  f.start = start;
  // An all-to-all over more than one server reaches its server's peers over
  // the intra-server class (rank i is GPU i mod L of server i / L).
  const uint32_t l = j.spec.local_size;
  const bool local = p.schedule == Schedule::kAllToAll && l >= 2 &&
                     p.cls.protocol != j.spec.local_cls.protocol &&
                     p.members[r] / l == p.members[sf.dst] / l;
  apply_class(f, local ? j.spec.local_cls : p.cls);
  ++p.launched[lane];
  ++p.inflight[lane];
  return register_flow(std::move(f), part, lane, step, 0, local, base);
}

uint32_t CollectiveEngine::register_flow(FlowSpec f, uint32_t part, uint32_t lane, uint32_t step,
                                         uint8_t kind, bool local_class, const CriticalPath& base) {
  const Part& p = parts_[part];
  Job& j = jobs_[p.job];
  const uint32_t id = flow_id(p, lane, step, kind);
  FlowTag tag;
  tag.part = part;
  tag.lane = lane;
  tag.step = step;
  tag.kind = kind;
  tag.local = local_class;
  tag.base = base;
  tag.src = f.src;
  tag.dst = f.dst;
  tag.bytes = f.size.count();
  tag.start = f.start;
  tag.ideal = tm_.ideal_of(f);
  tm_.add_reserved(id, std::move(f));
  running_.get(id) = tag;
  ++j.generated;
  if (!local(tag.dst)) {
    CollectiveLaunch l;
    l.flow = id;
    l.part = tag.part;
    l.lane = tag.lane;
    l.step = tag.step;
    l.src = tag.src;
    l.dst = tag.dst;
    l.kind = tag.kind;
    l.local = tag.local ? 1 : 0;
    l.bytes = tag.bytes;
    l.start_ps = tag.start.count_ps();
    l.ideal_ps = tag.ideal.count_ps();
    path_to(tag.base, l.base);
    launches_.push_back(l);
  }
  return id;
}

void CollectiveEngine::tree_advance(uint32_t part, uint32_t lane, sim::Time now,
                                    const CriticalPath& base) {
  Part& p = parts_[part];
  const Job& j = jobs_[p.job];
  const uint32_t c = lane / p.n;
  const uint32_t v = lane % p.n;
  if (!local(j.spec.ranks[p.members[v]])) return;
  const TreeLinks t = double_tree(p.n, v, c);
  const int64_t channel_bytes = chunk_bytes(p.size, p.channels, c, 1);
  const uint32_t k = tree_chunks(channel_bytes, tree_chunk_size(j.spec));
  // Chunk i is reduced here once every child has sent it up.
  uint32_t reduced = k;
  for (int s = 0; s < 2; ++s) {
    if (t.child[s] >= 0) reduced = std::min(reduced, p.from_child[s][lane]);
  }
  const auto send = [&](int32_t to, uint32_t chunk, uint8_t kind) {
    FlowSpec f;
    f.name = collective_detail::flow_name(j.spec, p.phase, c, chunk, p.members[v]) +
             (kind == 0   ? "/up"
              : kind == 1 ? "/down0"
                          : "/down1");
    f.src = j.spec.ranks[p.members[v]];
    f.dst = j.spec.ranks[p.members[static_cast<uint32_t>(to)]];
    f.size = sim::Bytes(chunk_bytes(channel_bytes, k, chunk, 1));
    f.start = now;
    apply_class(f, p.cls);
    p.busy[lane] |= static_cast<uint8_t>(1u << kind);
    register_flow(std::move(f), part, lane, chunk, kind, false, base);
  };
  if (t.parent >= 0 && (p.busy[lane] & 1u) == 0 && p.up_next[lane] < reduced) {
    send(t.parent, p.up_next[lane]++, 0);
  }
  // Down: the root sends what it reduced, the others what came from above.
  const uint32_t have = t.parent < 0 ? reduced : p.from_parent[lane];
  for (int s = 0; s < 2; ++s) {
    const auto bit = static_cast<uint8_t>(2u << s);
    if (t.child[s] >= 0 && (p.busy[lane] & bit) == 0 && p.down_next[s][lane] < have) {
      send(t.child[s], p.down_next[s][lane]++, static_cast<uint8_t>(1 + s));
    }
  }
}

// A lane's flow i waits for the flow into the lane one step earlier,
// i - slices (the same slice of the previous step; none in step 0), and for
// room on its connection: one flow at a time without slices (the step
// before must have finished), up to kSliceWindow slices in flight with them
// (NCCL_STEPS = 8 slots of its FIFO). Flows launch in index order.
void CollectiveEngine::advance(uint32_t part, uint32_t lane, sim::Time now) {
  constexpr uint32_t kSliceWindow = 8;
  Part& p = parts_[part];
  if (!local(jobs_[p.job].spec.ranks[p.members[lane % p.n]])) return;
  const uint32_t window = p.slices > 1 ? kSliceWindow : 1;
  while (p.launched[lane] < p.steps && p.inflight[lane] < window) {
    const uint32_t i = p.launched[lane];
    CriticalPath base = p.own[lane];
    if (i >= p.slices) {
      const uint64_t key = static_cast<uint64_t>(lane) * p.steps + (i - p.slices);
      if (!p.received[key]) return;
      // Released by the later of the two: that one is on this flow's path.
      const auto in = p.incoming.find(key);
      if (in != p.incoming.end()) {
        if (in->second.finish > base.finish) base = in->second;
        p.incoming.erase(in);
      }
    }
    launch(part, lane, i, now, base);
  }
}

CriticalPath CollectiveEngine::extend(const FlowTag& tag, int64_t bytes, sim::Time start,
                                      sim::Duration ideal, sim::Time at) const {
  const Part& p = parts_[tag.part];
  const Job& j = jobs_[p.job];
  CriticalPath path = tag.base;
  const sim::Duration fct = at - start;
  // Bandwidth: the bytes at the path's share per channel (rate / C); overhead:
  // the flow's unloaded FCT beyond its bytes at the full rate (headers,
  // latency; up to `at`); congestion: the rest, so the three add up to the
  // time from its start to `at`.
  const sim::BitsPerSecond share =
      tag.local ? sim::BitsPerSecond(std::max<int64_t>(1, j.spec.local_rate.count() / p.channels))
                : p.rate;
  const sim::Duration bw = sim::tx_time(sim::Bytes(bytes), share);
  const sim::Duration bw_alone =
      sim::tx_time(sim::Bytes(bytes), sim::BitsPerSecond(share.count() * p.channels));
  const sim::Duration overhead =
      std::clamp(ideal - bw_alone, sim::Duration::zero(), std::max(fct, sim::Duration::zero()));
  // A flow that outran its share (the other channels had finished) has no
  // congestion; its bandwidth part is what is left after the overhead.
  const sim::Duration used = std::clamp(fct - overhead, sim::Duration::zero(), bw);
  path.wait += start - tag.base.finish;
  path.bandwidth += used;
  path.overhead += overhead;
  path.congestion += fct - used - overhead;
  ++path.flows;
  path.finish = at;
  return path;
}

uint32_t CollectiveEngine::receive(const FlowTag& tag, const CriticalPath& path) {
  Part& p = parts_[tag.part];
  const uint32_t c = tag.lane / p.n;
  if (p.schedule == Schedule::kTree) {
    const uint32_t v = tag.lane % p.n;
    const TreeLinks t = double_tree(p.n, v, c);
    if (tag.kind == 0) {  // arrived at the parent: one more chunk from this child
      const uint32_t peer = c * p.n + static_cast<uint32_t>(t.parent);
      const TreeLinks up = double_tree(p.n, static_cast<uint32_t>(t.parent), c);
      ++p.from_child[up.child[0] == static_cast<int32_t>(v) ? 0 : 1][peer];
      return peer;
    }
    const uint32_t peer = c * p.n + static_cast<uint32_t>(t.child[tag.kind - 1]);
    ++p.from_parent[peer];
    return peer;
  }
  const int64_t size = chunk_bytes(p.size, p.channels, c, 1);
  const uint32_t dst = c * p.n + collective_detail::schedule_step(
                                     p.schedule, p.n, size, tag.lane % p.n, tag.step / p.slices)
                                     .dst;
  p.received[static_cast<size_t>(dst) * p.steps + tag.step] = true;
  p.incoming[static_cast<uint64_t>(dst) * p.steps + tag.step] = path;
  return dst;
}

void CollectiveEngine::on_flow_delivered(uint32_t flow_id, sim::Time at) {
  FlowTag* found = running_.find(flow_id);
  if (found == nullptr) return;  // not a collective's flow
  found->delivered = true;
  const FlowTag tag = *found;
  if (!local(tag.src)) running_.erase(flow_id);  // its finish is another part's
  if (parts_[tag.part].schedule == Schedule::kAllToAll) return;
  const CriticalPath path = extend(tag, tag.bytes, tag.start, tag.ideal, at);
  const uint32_t to = receive(tag, path);
  if (parts_[tag.part].schedule == Schedule::kTree) {
    tree_advance(tag.part, to, at, path);
  } else {
    advance(tag.part, to, at);
  }
}

void CollectiveEngine::on_flow_finished(const FlowRecord& r) {
  const FlowTag* found = running_.find(r.flow_id);
  if (found == nullptr) return;  // not a collective's flow
  const FlowTag tag = *found;
  running_.erase(r.flow_id);
  Part& p = parts_[tag.part];
  Job& j = jobs_[p.job];
  XOFF_CHECK(p.remaining > 0, "collective flow finished after its part completed");
  const uint32_t js = p.step_offset + tag.step;
  j.step_finish[js] = std::max(j.step_finish[js], r.finish);
  const sim::Duration fct = r.finish - r.start;
  ++j.step_flows[js];
  j.step_unloaded[js] = std::max(j.step_unloaded[js], r.ideal_fct);
  j.step_max_fct[js] = std::max(j.step_max_fct[js], fct);
  j.step_sum_fct[js] += fct;
  ++j.finished_flows;
  const CriticalPath path = extend(tag, r.size_bytes, r.start, r.ideal_fct, r.finish);
  // The latest finish; on a tie the higher id, so parts agree on it.
  if (path.finish > j.last.finish || (path.finish == j.last.finish && r.flow_id >= j.last_flow)) {
    j.last = path;
    j.last_flow = r.flow_id;
  }
  // Not delivered: the transport does not tell, so the data counts as there now.
  const bool receive_now = !tag.delivered && local(tag.dst);
  if (p.schedule == Schedule::kTree) {
    p.busy[tag.lane] &= static_cast<uint8_t>(~(1u << tag.kind));
    const uint32_t peer = receive_now ? receive(tag, path) : 0;
    // The flow that just finished is the later of each new send's dependencies.
    tree_advance(tag.part, tag.lane, r.finish, path);
    if (receive_now) tree_advance(tag.part, peer, r.finish, path);
  } else if (p.schedule != Schedule::kAllToAll) {
    --p.inflight[tag.lane];
    if (path.finish >= p.own[tag.lane].finish) p.own[tag.lane] = path;
    const uint32_t dst = receive_now ? receive(tag, path) : 0;
    advance(tag.part, tag.lane, r.finish);
    if (receive_now) advance(tag.part, dst, r.finish);
  }
  --p.remaining;
  if (local_.empty() && p.remaining == 0) part_done(tag.part);
}

void CollectiveEngine::part_done(uint32_t part) {
  Part& p = parts_[part];
  p.incoming.clear();
  const uint32_t job = p.job;
  Job& j = jobs_[job];
  if (--j.parts_left > 0) return;
  j.phase_finish[j.phase] = std::max(j.last.finish, j.phase_start[j.phase]);
  if (j.phase + 1 < j.phases.size()) {
    ++j.phase;
    const CriticalPath origin = j.last;  // the phase's last flow: the barrier
    begin_phase(job, origin);
    return;
  }
  complete(job);
}

uint64_t CollectiveEngine::planned_flows() const {
  uint64_t n = 0;
  for (const Job& j : jobs_) n += j.total * j.spec.iterations;
  return n;
}

uint64_t CollectiveEngine::generated_flows() const {
  uint64_t n = 0;
  for (const Job& j : jobs_) n += j.generated;
  return n;
}

void CollectiveEngine::set_local_hosts(std::vector<bool> local) {
  XOFF_CHECK(jobs_.empty(), "set_local_hosts after a collective was added");
  local_ = std::move(local);
}

std::string CollectiveEngine::why_not_partitionable(const CollectiveSpec& spec) {
  if (!spec.workload.empty()) return "a workload (its steps are phases)";
  if (spec.algorithm == CollectiveAlgorithm::kHierarchical)
    return "the hierarchical algorithm (three phases)";
  if (spec.iterations > 1) return "iterations > 1 (each iteration is a phase)";
  return "";
}

std::vector<CollectiveLaunch> CollectiveEngine::take_launches() {
  std::vector<CollectiveLaunch> out;
  out.swap(launches_);
  return out;
}

void CollectiveEngine::import_launch(const CollectiveLaunch& l) {
  if (!local(l.dst)) return;
  XOFF_CHECK(l.part < parts_.size(), "import_launch: unknown part");
  FlowTag tag;
  tag.part = l.part;
  tag.lane = l.lane;
  tag.step = l.step;
  tag.src = l.src;
  tag.dst = l.dst;
  tag.kind = l.kind;
  tag.local = l.local != 0;
  tag.bytes = l.bytes;
  tag.start = sim::Time::from_ps(l.start_ps);
  tag.ideal = sim::Duration::ps(l.ideal_ps);
  tag.base = path_from(l.base);
  running_.get(l.flow) = tag;
}

// Per collective: finished flows, the last flow's id and path (6 numbers),
// then per step its latest finish, flows, longest unloaded and measured FCT
// and the sum of FCTs.
std::vector<int64_t> CollectiveEngine::export_partials() const {
  std::vector<int64_t> out;
  for (const Job& j : jobs_) {
    out.push_back(static_cast<int64_t>(j.finished_flows));
    out.push_back(j.last_flow);
    out.resize(out.size() + kPathWords);
    path_to(j.last, out.data() + out.size() - kPathWords);
    for (uint32_t k = 0; k < j.steps; ++k) {
      out.push_back(j.step_finish[k].count_ps());
      out.push_back(j.step_flows[k]);
      out.push_back(j.step_unloaded[k].count_ps());
      out.push_back(j.step_max_fct[k].count_ps());
      out.push_back(j.step_sum_fct[k].count_ps());
    }
  }
  return out;
}

void CollectiveEngine::finish_from_partials(const std::vector<std::vector<int64_t>>& parts) {
  std::vector<size_t> at(parts.size(), 0);
  const auto next = [&](size_t k) {
    XOFF_CHECK(at[k] < parts[k].size(), "finish_from_partials: short part");
    return parts[k][at[k]++];
  };
  for (uint32_t job = 0; job < jobs_.size(); ++job) {
    Job& j = jobs_[job];
    if (j.done) {  // finished here already (every flow was local)
      for (size_t k = 0; k < parts.size(); ++k) at[k] += 2 + kPathWords + size_t{5} * j.steps;
      continue;
    }
    uint64_t finished = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      finished += static_cast<uint64_t>(next(k));
      const auto id = static_cast<uint32_t>(next(k));
      XOFF_CHECK(at[k] + kPathWords <= parts[k].size(), "finish_from_partials: short part");
      const CriticalPath b = path_from(parts[k].data() + at[k]);
      at[k] += kPathWords;
      if (k == 0 || b.finish > j.last.finish || (b.finish == j.last.finish && id >= j.last_flow)) {
        j.last = b;
        j.last_flow = id;
      }
      for (uint32_t s = 0; s < j.steps; ++s) {
        const sim::Time finish = sim::Time::from_ps(next(k));
        const auto flows = static_cast<uint32_t>(next(k));
        const sim::Duration unloaded = sim::Duration::ps(next(k));
        const sim::Duration max_fct = sim::Duration::ps(next(k));
        const sim::Duration sum_fct = sim::Duration::ps(next(k));
        if (k == 0) {
          j.step_finish[s] = finish;
          j.step_flows[s] = flows;
          j.step_unloaded[s] = unloaded;
          j.step_max_fct[s] = max_fct;
          j.step_sum_fct[s] = sum_fct;
          continue;
        }
        j.step_finish[s] = std::max(j.step_finish[s], finish);
        j.step_flows[s] += flows;
        j.step_unloaded[s] = std::max(j.step_unloaded[s], unloaded);
        j.step_max_fct[s] = std::max(j.step_max_fct[s], max_fct);
        j.step_sum_fct[s] += sum_fct;
      }
    }
    if (finished == j.total) complete(job);
  }
}

uint64_t CollectiveEngine::ungenerated_flows() const {
  uint64_t n = 0;
  for (const Job& j : jobs_) n += j.total * j.spec.iterations - j.generated;
  return n;
}

void CollectiveEngine::complete(uint32_t job) {
  Job& j = jobs_[job];
  CollectiveRecord& rec = j.record;
  rec.step_times.clear();
  // All-to-all steps overlap: a step's time is what it adds beyond the
  // latest finish of the steps before it, so the times still sum to the total.
  sim::Time prev = rec.start;
  for (sim::Time t : j.step_finish) {
    rec.step_times.push_back(std::max(t, prev) - prev);
    prev = std::max(t, prev);
  }
  rec.finish = prev;
  rec.path_bandwidth = j.last.bandwidth;
  rec.path_overhead = j.last.overhead;
  rec.path_congestion = j.last.congestion;
  rec.path_wait = j.last.wait;
  rec.path_flows = j.last.flows;
  rec.step_unloaded = j.step_unloaded;
  rec.step_max_fct = j.step_max_fct;
  rec.step_mean_fct.clear();
  for (size_t k = 0; k < j.step_sum_fct.size(); ++k) {
    const int64_t flows = std::max<int64_t>(1, j.step_flows[k]);
    rec.step_mean_fct.push_back(sim::Duration::ps(j.step_sum_fct[k].count_ps() / flows));
  }
  rec.segments.clear();
  for (const Job::Segment& s : j.segments) {
    CollectiveSegment seg = s.record;
    seg.start = j.phase_start[s.first_phase];
    seg.finish = j.phase_finish[s.end_phase - 1];
    rec.segments.push_back(std::move(seg));
  }
  recorder_.collective_finished(rec);
  if (++j.iteration < j.spec.iterations) {  // the next training iteration
    begin_iteration(job, rec.finish + j.spec.compute + j.trailing_compute);
    return;
  }
  j.done = true;
  ++finished_;
}

}  // namespace xoff::models
