#include "models/nic/nvlink.h"

#include <algorithm>
#include <string>

#include "sim/check.h"

namespace xoff::models {

NvlinkFabric::NvlinkFabric(sim::Simulator& sim, const NvlinkConfig& cfg, uint32_t hosts,
                           FlowListener& listener)
    : sim_(sim),
      cfg_(cfg),
      listener_(listener),
      tx_free_(hosts, sim::Time::zero()),
      rx_free_(hosts, sim::Time::zero()) {
  XOFF_CHECK(cfg_.gpus_per_server >= 1 && cfg_.rate.count() > 0, "bad NVLink configuration");
  endpoints_.reserve(hosts);
  for (uint32_t h = 0; h < hosts; ++h) endpoints_.push_back(std::make_unique<Endpoint>(*this, h));
}

sim::Duration NvlinkFabric::ideal_fct(sim::Bytes size) const {
  return sim::tx_time(size, cfg_.rate) + cfg_.latency;
}

void NvlinkFabric::start(const FlowSpec& spec) {
  XOFF_CHECK(spec.src < tx_free_.size() && spec.dst < rx_free_.size() &&
                 spec.src / cfg_.gpus_per_server == spec.dst / cfg_.gpus_per_server &&
                 spec.src != spec.dst,
             "NVLink flow " + spec.name + " between hosts " + std::to_string(spec.src) + " and " +
                 std::to_string(spec.dst) + " that are not two GPUs of one server");
  const sim::Time t0 = std::max({sim_.now(), tx_free_[spec.src], rx_free_[spec.dst]});
  const sim::Time last_byte = t0 + sim::tx_time(spec.size, cfg_.rate);
  tx_free_[spec.src] = last_byte;
  rx_free_[spec.dst] = last_byte;
  ++transfers_;
  bytes_ += spec.size.count();
  sim_.schedule_at(last_byte + cfg_.latency, *this, spec.id);
}

void NvlinkFabric::handle_event(uint64_t tag) {
  listener_.flow_finished(static_cast<uint32_t>(tag), sim_.now(), 0);
}

}  // namespace xoff::models
