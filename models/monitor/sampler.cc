#include "models/monitor/sampler.h"

#include <limits>

#include "models/core/host.h"
#include "models/nic/roce_nic.h"
#include "models/switch/switch.h"
#include "sim/check.h"

namespace xoff::models {
namespace {
struct KindInfo {
  const char* unit;
  enum class Scope : uint8_t { kQueue, kPort, kPg, kHost, kFlow } scope;
};
KindInfo info(ProbeKind k) {
  using S = KindInfo::Scope;
  switch (k) {
    case ProbeKind::kQueueBytes:
      return {"bytes", S::kQueue};
    case ProbeKind::kPaused:
      return {"bool", S::kQueue};
    case ProbeKind::kTxGbps:
      return {"Gbps", S::kPort};
    case ProbeKind::kClassTxGbps:
      return {"Gbps", S::kQueue};
    case ProbeKind::kPauseTx:
      return {"frames", S::kQueue};
    case ProbeKind::kPauseRx:
      return {"frames", S::kQueue};
    case ProbeKind::kPgShared:
      return {"bytes", S::kPg};
    case ProbeKind::kPgHeadroom:
      return {"bytes", S::kPg};
    case ProbeKind::kCnpsSent:
      return {"frames", S::kHost};
    case ProbeKind::kCnpsReceived:
      return {"frames", S::kHost};
    case ProbeKind::kDcqcnRate:
      return {"Gbps", S::kFlow};
    case ProbeKind::kDcqcnTarget:
      return {"Gbps", S::kFlow};
    case ProbeKind::kDcqcnAlpha:
      return {"1", S::kFlow};
  }
  return {"?", S::kPort};
}

const RoceNic* nic_of(const Network& net, NodeId n) {
  const auto* h = dynamic_cast<const Host*>(&net.node(n));
  return h == nullptr ? nullptr : dynamic_cast<const RoceNic*>(h->transport(Protocol::kRoce));
}
}  // namespace

ProbeKind probe_kind(std::string_view name) {
  for (size_t i = 0; i < kProbeKindNames.size(); ++i) {
    if (kProbeKindNames[i] == name) return static_cast<ProbeKind>(i);
  }
  XOFF_CHECK(false, "unknown probe kind " + std::string(name));
  return ProbeKind::kQueueBytes;
}

Sampler::Sampler(Network& net, sim::Duration interval, std::vector<Probe> probes)
    : net_(net), interval_(interval), probes_(std::move(probes)), timer_(net.sim(), *this, 0) {
  XOFF_CHECK(interval.count_ps() > 0, "sampler interval must be positive");
  mark_observer();  // sampling reads the fabric: not part of the fingerprint
}

std::string Sampler::series_name(const Network& net, const Probe& p) {
  using S = KindInfo::Scope;
  const KindInfo k = info(p.kind);
  std::string s =
      std::string(kProbeKindNames[static_cast<size_t>(p.kind)]) + "/" + net.node(p.node).name();
  if (k.scope == S::kFlow) return s + "/f" + std::to_string(p.flow);
  if (k.scope == S::kHost) return s;
  s += "/p" + std::to_string(p.port.value());
  if (k.scope == S::kQueue) s += "/tc" + std::to_string(p.tc);
  if (k.scope == S::kPg) s += "/pg" + std::to_string(p.tc);
  return s;
}

void Sampler::start() {
  for (const Probe& p : probes_) {
    series_.push_back(net_.recorder().declare_series(series_name(net_, p), info(p.kind).unit));
    last_total_.push_back(total(p));
  }
  timer_.arm_in(interval_);
}

int64_t Sampler::total(const Probe& p) const {
  const Node& node = net_.node(p.node);
  switch (p.kind) {
    case ProbeKind::kTxGbps: {
      int64_t sum = 0;
      for (int64_t b : node.port(p.port).counters().tx_bytes) sum += b;
      return sum;
    }
    case ProbeKind::kClassTxGbps:
      return node.port(p.port).counters().tx_bytes[p.tc];
    case ProbeKind::kPauseTx:
      return node.port(p.port).counters().pause_sent[p.tc];
    case ProbeKind::kPauseRx:
      return node.port(p.port).counters().pause_received[p.tc];
    case ProbeKind::kCnpsSent: {
      const RoceNic* nic = nic_of(net_, p.node);
      return nic == nullptr ? 0 : nic->counters().cnps_sent;
    }
    case ProbeKind::kCnpsReceived: {
      const RoceNic* nic = nic_of(net_, p.node);
      return nic == nullptr ? 0 : nic->counters().cnps_received;
    }
    default:
      return 0;
  }
}

void Sampler::handle_event(uint64_t) {
  const sim::Time now = net_.sim().now();
  const double seconds = interval_.to_seconds();
  for (size_t i = 0; i < probes_.size(); ++i) {
    const Probe& p = probes_[i];
    const Node& node = net_.node(p.node);
    double v = 0;
    switch (p.kind) {
      case ProbeKind::kQueueBytes:
        v = static_cast<double>(node.port(p.port).queued_bytes(p.tc));
        break;
      case ProbeKind::kPaused:
        v = node.port(p.port).paused(p.tc) ? 1.0 : 0.0;
        break;
      case ProbeKind::kTxGbps:
      case ProbeKind::kClassTxGbps:
      case ProbeKind::kPauseTx:
      case ProbeKind::kPauseRx:
      case ProbeKind::kCnpsSent:
      case ProbeKind::kCnpsReceived: {
        const int64_t t = total(p);
        const auto delta = static_cast<double>(t - last_total_[i]);
        last_total_[i] = t;
        const bool rate = p.kind == ProbeKind::kTxGbps || p.kind == ProbeKind::kClassTxGbps;
        v = rate ? delta * 8.0 / seconds / 1e9 : delta;
        break;
      }
      case ProbeKind::kPgShared:
      case ProbeKind::kPgHeadroom: {
        const auto* sw = dynamic_cast<const Switch*>(&node);
        const PgState* pg = sw == nullptr ? nullptr : &sw->mmu().pg(p.port.value(), p.tc);
        v = pg == nullptr
                ? 0.0
                : static_cast<double>(p.kind == ProbeKind::kPgShared ? pg->shared : pg->headroom);
        break;
      }
      case ProbeKind::kDcqcnRate:
      case ProbeKind::kDcqcnTarget:
      case ProbeKind::kDcqcnAlpha: {
        const RoceNic* nic = nic_of(net_, p.node);
        const DcqcnRateControl* cc = nic == nullptr ? nullptr : nic->rate_control(p.flow);
        if (cc == nullptr) {
          v = std::numeric_limits<double>::quiet_NaN();  // not sending (not yet, or done)
        } else if (p.kind == ProbeKind::kDcqcnAlpha) {
          v = cc->alpha_at(now);
        } else {
          const sim::BitsPerSecond r = p.kind == ProbeKind::kDcqcnRate ? cc->rate() : cc->target();
          v = static_cast<double>(r.count()) / 1e9;
        }
        break;
      }
    }
    net_.recorder().sample(SamplePoint{series_[i], now, v});
  }
  timer_.arm_in(interval_);
}

}  // namespace xoff::models
