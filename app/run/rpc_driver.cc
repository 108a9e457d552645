#include "app/run/rpc_driver.h"

namespace xoff::app {

RpcDriver::RpcDriver(sim::Simulator& sim, models::Recorder& rec,
                     const std::vector<RpcConfig>& probes, std::vector<models::TcpStack*> stacks)
    : sim_(sim), rec_(rec), probes_(probes), stacks_(std::move(stacks)) {
  issued_.assign(probes.size(), 0);
  lat_.resize(probes.size());
  for (const auto& p : probes) total_ += p.count;
}

void RpcDriver::start() {
  for (size_t i = 0; i < probes_.size(); ++i) {
    series_.push_back(rec_.declare_series("rpc_latency_us/" + probes_[i].name, "us"));
    sim_.schedule_at(probes_[i].start, *this, i);
  }
}

void RpcDriver::handle_event(uint64_t probe) {
  const RpcConfig& p = probes_[probe];
  models::RpcSpec spec;
  spec.id = static_cast<uint32_t>(probe_of_.size());
  spec.client = p.client;
  spec.server = p.server;
  spec.request = p.request;
  spec.response = p.response;
  spec.dscp = p.cls.dscp;
  spec.pcp = p.cls.pcp;
  spec.tc = p.cls.tc;
  probe_of_.push_back(static_cast<uint32_t>(probe));
  started_.push_back(sim_.now());
  stacks_[p.client]->start_rpc(spec);
  if (++issued_[probe] < p.count) sim_.schedule_in(p.interval, *this, probe);
}

void RpcDriver::rpc_finished(uint32_t rpc_id, sim::Duration latency) {
  const uint32_t probe = probe_of_[rpc_id];
  lat_[probe].push_back(latency.to_us());
  rec_.sample(models::SamplePoint{series_[probe], started_[rpc_id], latency.to_us()});
  ++finished_;
}

}  // namespace xoff::app
