#include "models/monitor/sampler.h"

#include "sim/check.h"

namespace xoff::models {
namespace {
const char* kind_name(ProbeKind k) {
  switch (k) {
    case ProbeKind::kQueueBytes:
      return "queue_bytes";
    case ProbeKind::kPaused:
      return "paused";
    case ProbeKind::kTxGbps:
      return "tx_gbps";
  }
  return "?";
}
const char* kind_unit(ProbeKind k) {
  switch (k) {
    case ProbeKind::kQueueBytes:
      return "bytes";
    case ProbeKind::kPaused:
      return "bool";
    case ProbeKind::kTxGbps:
      return "Gbps";
  }
  return "?";
}
}  // namespace

Sampler::Sampler(Network& net, sim::Duration interval, std::vector<Probe> probes)
    : net_(net), interval_(interval), probes_(std::move(probes)), timer_(net.sim(), *this, 0) {
  XOFF_CHECK(interval.count_ps() > 0, "sampler interval must be positive");
  mark_observer();  // sampling reads the fabric: not part of the fingerprint
}

std::string Sampler::series_name(const Network& net, const Probe& p) {
  std::string s = std::string(kind_name(p.kind)) + "/" + net.node(p.node).name() + "/p" +
                  std::to_string(p.port.value());
  if (p.kind != ProbeKind::kTxGbps) s += "/tc" + std::to_string(p.tc);
  return s;
}

void Sampler::start() {
  for (const Probe& p : probes_) {
    series_.push_back(net_.recorder().declare_series(series_name(net_, p), kind_unit(p.kind)));
    last_tx_.push_back(port_tx_bytes(p));
  }
  timer_.arm_in(interval_);
}

int64_t Sampler::port_tx_bytes(const Probe& p) const {
  int64_t sum = 0;
  for (int64_t b : net_.node(p.node).port(p.port).counters().tx_bytes) sum += b;
  return sum;
}

void Sampler::handle_event(uint64_t) {
  const sim::Time now = net_.sim().now();
  for (size_t i = 0; i < probes_.size(); ++i) {
    const Probe& p = probes_[i];
    const EgressPort& port = net_.node(p.node).port(p.port);
    double v = 0;
    switch (p.kind) {
      case ProbeKind::kQueueBytes:
        v = static_cast<double>(port.queued_bytes(p.tc));
        break;
      case ProbeKind::kPaused:
        v = port.paused(p.tc) ? 1.0 : 0.0;
        break;
      case ProbeKind::kTxGbps: {
        const int64_t tx = port_tx_bytes(p);
        v = static_cast<double>(tx - last_tx_[i]) * 8.0 / interval_.to_seconds() / 1e9;
        last_tx_[i] = tx;
        break;
      }
    }
    net_.recorder().sample(SamplePoint{series_[i], now, v});
  }
  timer_.arm_in(interval_);
}

}  // namespace xoff::models
