#include "models/switch/ecn.h"

#include <string>

namespace xoff::models {

EcnMarker::EcnMarker(const EcnConfig& cfg, uint64_t seed, std::string_view switch_name)
    : cfg_(cfg), rng_(seed, std::string(switch_name) + "/ecn") {}

double EcnMarker::probability(int tc, int64_t queue_bytes, bool host) const {
  const EcnClassConfig& c = host && cfg_.host_ports ? cfg_.host_tc[tc] : cfg_.tc[tc];
  if (!c.enabled) return 0;
  const int64_t kmin = c.kmin.count();
  const int64_t kmax = c.kmax.count();
  if (queue_bytes <= kmin) return 0;
  if (queue_bytes > kmax) return 1;
  return c.pmax * static_cast<double>(queue_bytes - kmin) / static_cast<double>(kmax - kmin);
}

bool EcnMarker::decide(int tc, int64_t queue_bytes, bool host) {
  const double p = probability(tc, queue_bytes, host);
  if (p <= 0) return false;
  if (p >= 1) return true;
  return rng_.bernoulli(p);
}

}  // namespace xoff::models
