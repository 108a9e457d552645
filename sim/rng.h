#pragma once
// Random streams: one per component, derived from (run seed, component name), so
// adding a component does not change the draws of the others.
//
// Generator: xoshiro256** (Blackman & Vigna, 2018), state seeded by four outputs
// of splitmix64 started at seed ^ FNV-1a-64(name). Distributions are our own
// (SimGrid's lesson): std::*_distribution differ between standard libraries,
// which would make results depend on the compiler.
#include <cstdint>
#include <string_view>

namespace xoff::sim {

uint64_t fnv1a64(std::string_view s);
uint64_t splitmix64_next(uint64_t& state);

class Rng {
 public:
  Rng(uint64_t seed, std::string_view stream_name);
  explicit Rng(uint64_t raw_seed);  // splitmix64-expanded raw seed (tests, benches)

  uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject).
  uint64_t uniform_int(uint64_t n);
  bool bernoulli(double p) { return uniform01() < p; }
  // Exponential with the given mean, by inversion: -mean * ln(1 - U).
  double exponential(double mean);

 private:
  uint64_t s_[4];
};

}  // namespace xoff::sim
