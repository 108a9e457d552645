#include "models/traffic/generators.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "sim/rng.h"

namespace xoff::models {
namespace {

FlowPlan plan(std::string name, uint32_t src, uint32_t dst, sim::Bytes size, sim::Time start,
              const FlowClass& cls) {
  FlowPlan p;
  p.spec.name = std::move(name);
  p.spec.src = src;
  p.spec.dst = dst;
  p.spec.size = size;
  p.spec.start = start;
  apply_class(p.spec, cls);
  return p;
}

void require(bool ok, const std::string& name, const std::string& what) {
  if (!ok) throw TrafficError(name + ": " + what);
}

void require_size(sim::Bytes size, const std::string& name) {
  require(size.count() > 0, name, "flow size must be at least 1 byte");
}

void require_distinct(std::vector<uint32_t> hosts, const std::string& name) {
  std::sort(hosts.begin(), hosts.end());
  const auto dup = std::adjacent_find(hosts.begin(), hosts.end());
  require(dup == hosts.end(), name,
          "host " + (dup == hosts.end() ? "" : std::to_string(*dup)) + " is listed twice");
}

std::string pair_name(const std::string& name, uint32_t src, uint32_t dst) {
  return name + "/" + std::to_string(src) + "-" + std::to_string(dst);
}

// A uniformly random permutation of 0..n-1 without fixed points (rejection).
std::vector<uint32_t> derangement(size_t n, sim::Rng& rng) {
  std::vector<uint32_t> p(n);
  for (;;) {
    std::iota(p.begin(), p.end(), 0u);
    for (size_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng.uniform_int(i + 1)]);
    bool fixed = false;
    for (size_t i = 0; i < n && !fixed; ++i) fixed = p[i] == i;
    if (!fixed) return p;
  }
}

}  // namespace

std::vector<FlowPlan> explicit_flows(const std::vector<FlowSpec>& specs) {
  std::vector<FlowPlan> out(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) out[i].spec = specs[i];
  return out;
}

std::vector<FlowPlan> permutation_flows(const PermutationSpec& spec, uint64_t seed) {
  require(spec.hosts.size() >= 2, spec.name, "a permutation needs at least 2 hosts");
  require_distinct(spec.hosts, spec.name);
  require_size(spec.size, spec.name);
  sim::Rng rng(seed, "traffic/" + spec.name);
  const std::vector<uint32_t> to = derangement(spec.hosts.size(), rng);
  std::vector<FlowPlan> out;
  out.reserve(spec.hosts.size());
  for (size_t i = 0; i < spec.hosts.size(); ++i) {
    const uint32_t src = spec.hosts[i];
    const uint32_t dst = spec.hosts[to[i]];
    out.push_back(plan(pair_name(spec.name, src, dst), src, dst, spec.size, spec.start, spec.cls));
  }
  return out;
}

std::vector<FlowPlan> incast_flows(const IncastSpec& spec) {
  require(!spec.senders.empty(), spec.name, "an incast needs at least one sender");
  require(spec.waves >= 1, spec.name, "waves must be at least 1");
  require(std::find(spec.senders.begin(), spec.senders.end(), spec.receiver) == spec.senders.end(),
          spec.name, "the receiver " + std::to_string(spec.receiver) + " is also a sender");
  require_distinct(spec.senders, spec.name);
  require_size(spec.size, spec.name);
  const auto n = static_cast<uint32_t>(spec.senders.size());
  std::vector<FlowPlan> out;
  out.reserve(static_cast<size_t>(n) * spec.waves);
  for (uint32_t w = 0; w < spec.waves; ++w) {
    for (uint32_t s : spec.senders) {
      FlowPlan p = plan(spec.name + "/w" + std::to_string(w) + "/s" + std::to_string(s), s,
                        spec.receiver, spec.size, spec.start, spec.cls);
      if (w > 0) {
        p.after.resize(n);
        std::iota(p.after.begin(), p.after.end(), (w - 1) * n);
        p.gap = spec.wave_gap;
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::vector<FlowPlan> all_to_all_flows(const AllToAllSpec& spec) {
  require(spec.hosts.size() >= 2, spec.name, "all-to-all needs at least 2 hosts");
  require_distinct(spec.hosts, spec.name);
  require_size(spec.size, spec.name);
  std::vector<FlowPlan> out;
  out.reserve(spec.hosts.size() * (spec.hosts.size() - 1));
  for (uint32_t a : spec.hosts) {
    for (uint32_t b : spec.hosts) {
      if (a != b)
        out.push_back(plan(pair_name(spec.name, a, b), a, b, spec.size, spec.start, spec.cls));
    }
  }
  return out;
}

std::vector<FlowPlan> poisson_flows(const PoissonSpec& spec, uint64_t seed) {
  require(spec.hosts.size() >= 2, spec.name, "Poisson traffic needs at least 2 hosts");
  require_distinct(spec.hosts, spec.name);
  require(spec.cdf != nullptr, spec.name, "no flow-size CDF given");
  require(spec.load > 0 && std::isfinite(spec.load), spec.name, "load must be > 0");
  require(spec.host_rate.count() > 0, spec.name, "host rate must be > 0");
  require(spec.stop != sim::Time::max() || spec.max_flows > 0, spec.name,
          "give a stop time or a flow count, or arrivals never end");
  sim::Rng rng(seed, "traffic/" + spec.name);
  const auto h = static_cast<double>(spec.hosts.size());
  // Per host: load * rate / (8 * mean) flows/s; all hosts: h times that.
  const double mean_gap_ps =
      8e12 * spec.cdf->mean_bytes() / (h * spec.load * static_cast<double>(spec.host_rate.count()));
  std::vector<FlowPlan> out;
  double t_ps = static_cast<double>(spec.start.count_ps());
  for (uint64_t i = 0; spec.max_flows == 0 || i < spec.max_flows; ++i) {
    t_ps += rng.exponential(mean_gap_ps);
    if (t_ps >= static_cast<double>(spec.stop.count_ps())) break;
    const sim::Time at = sim::Time::from_ps(std::llround(t_ps));
    if (at >= spec.stop) break;
    const uint64_t s = rng.uniform_int(spec.hosts.size());
    uint64_t d = rng.uniform_int(spec.hosts.size() - 1);
    if (d >= s) ++d;
    const sim::Bytes size = spec.cdf->sample(rng);
    out.push_back(plan(spec.name + "/" + std::to_string(i), spec.hosts[s], spec.hosts[d], size, at,
                       spec.cls));
  }
  return out;
}

std::vector<FlowPlan> tcp_background_flows(PoissonSpec spec, uint64_t seed) {
  spec.cls.protocol = Protocol::kTcp;
  return poisson_flows(spec, seed);
}

}  // namespace xoff::models
