#include "models/traffic/traffic_manager.h"

#include <algorithm>

#include "sim/check.h"

namespace xoff::models {
namespace {

const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::kRoce:
      return "roce";
    case Protocol::kTcp:
      return "tcp";
    case Protocol::kNvlink:
      return "nvlink";
    case Protocol::kNone:
      break;
  }
  return "none";
}

size_t endpoint_slot(uint32_t host, Protocol proto) {
  return static_cast<size_t>(host) * kMaxProtocols + static_cast<size_t>(proto);
}

// "f<id>", built by appending: GCC 12 warns falsely (-Wrestrict) on "f" + s.
std::string default_name(uint32_t id) {
  std::string name(1, 'f');
  name += std::to_string(id);
  return name;
}

}  // namespace

TrafficManager::TrafficManager(sim::Simulator& sim, Recorder& recorder, uint32_t num_hosts)
    : sim_(sim),
      recorder_(recorder),
      num_hosts_(num_hosts),
      endpoints_(static_cast<size_t>(num_hosts) * kMaxProtocols, nullptr),
      starters_(num_hosts),
      start_timer_(sim, *this, 0) {
  for (HostStarter& h : starters_) h.tm = this;
}

void TrafficManager::set_host_stream(uint32_t host, sim::StreamId stream) {
  XOFF_CHECK(host < num_hosts_, "set_host_stream: host ordinal out of range");
  starters_[host].set_stream(stream);
}

void TrafficManager::set_endpoint(uint32_t host, Protocol proto, FlowEndpoint& endpoint) {
  XOFF_CHECK(host < num_hosts_, "set_endpoint: host ordinal out of range");
  XOFF_CHECK(proto != Protocol::kNone, "set_endpoint: protocol kNone carries no flows");
  endpoints_[endpoint_slot(host, proto)] = &endpoint;
}

void TrafficManager::validate(uint32_t id, const FlowSpec& spec,
                              const std::vector<uint32_t>& after) const {
  const std::string who =
      "flow " + std::to_string(id) + (spec.name.empty() ? "" : " (" + spec.name + ")");
  if (spec.src >= num_hosts_ || spec.dst >= num_hosts_) {
    throw TrafficError(who + ": host " + std::to_string(std::max(spec.src, spec.dst)) +
                       " does not exist (the network has " + std::to_string(num_hosts_) +
                       " hosts)");
  }
  if (spec.src == spec.dst)
    throw TrafficError(who + ": source and destination are both host " + std::to_string(spec.src));
  if (spec.size.count() <= 0) throw TrafficError(who + ": size must be at least 1 byte");
  if (spec.protocol == Protocol::kNone) throw TrafficError(who + ": protocol must be roce or tcp");
  if (spec.tc >= kNumClasses) throw TrafficError(who + ": traffic class must be 0..7");
  for (uint32_t dep : after) {
    if (!is_planned(dep)) {
      throw TrafficError(who + ": waits on flow " + std::to_string(dep) +
                         ", which is not an earlier flow");
    }
  }
}

uint32_t TrafficManager::add_flow(FlowSpec spec, std::vector<uint32_t> after, sim::Duration gap,
                                  sim::Duration ideal) {
  XOFF_CHECK(next_id_ < UINT32_MAX, "add_flow: out of flow ids");
  const uint32_t id = next_id_;
  validate(id, spec, after);
  ++next_id_;
  spec.id = id;
  if (spec.name.empty()) spec.name = default_name(id);
  std::sort(after.begin(), after.end());
  after.erase(std::unique(after.begin(), after.end()), after.end());

  FlowState st;
  st.gap = gap;
  st.ideal = ideal;
  for (uint32_t dep : after) {
    if (state_[dep].phase == Phase::kDone) {
      st.ready = std::max(st.ready, state_[dep].finished);
    } else {
      ++st.waiting;
      dependents_[dep].push_back(id);
    }
  }
  const sim::Time start = spec.start;
  store(id, std::move(spec), st);
  if (st.waiting == 0) enqueue(id, after.empty() ? start : std::max(start, st.ready + gap));
  return id;
}

uint32_t TrafficManager::reserve_ids(uint64_t n) {
  XOFF_CHECK(n <= UINT32_MAX - next_id_, "reserve_ids: out of flow ids");
  const uint32_t first = next_id_;
  next_id_ += static_cast<uint32_t>(n);
  return first;
}

void TrafficManager::add_reserved(uint32_t id, FlowSpec spec, sim::Duration ideal) {
  XOFF_CHECK(id < next_id_ && !is_planned(id), "add_reserved: id not reserved or used twice");
  validate(id, spec, {});
  spec.id = id;
  if (spec.name.empty()) spec.name = default_name(id);
  FlowState st;
  st.ideal = ideal;
  const sim::Time start = std::max(spec.start, sim_.now());
  const uint32_t src = spec.src;
  store(id, std::move(spec), st);
  state_[id].phase = Phase::kQueued;
  sim_.schedule_at(start, starters_[src], id);
}

void TrafficManager::store(uint32_t id, FlowSpec spec, FlowState st) {
  if (id >= flows_.size()) {
    flows_.resize(size_t{id} + 1);
    state_.resize(size_t{id} + 1);
    dependents_.resize(size_t{id} + 1);
  }
  st.phase = Phase::kWaiting;
  flows_[id] = std::move(spec);
  state_[id] = st;
  ++planned_;
  // The start heap never holds more than one entry per flow: no growth at run time.
  if (ready_.capacity() < flows_.size()) ready_.reserve(flows_.capacity());
}

uint32_t TrafficManager::add_batch(const std::vector<FlowPlan>& batch) {
  const uint32_t first = next_id_;
  for (size_t i = 0; i < batch.size(); ++i) {
    std::vector<uint32_t> after;
    after.reserve(batch[i].after.size());
    for (uint32_t rel : batch[i].after) {
      if (rel >= i) {
        throw TrafficError("batch flow " + std::to_string(i) + " waits on batch flow " +
                           std::to_string(rel) + ", which is not an earlier flow");
      }
      after.push_back(first + rel);
    }
    add_flow(batch[i].spec, std::move(after), batch[i].gap, batch[i].ideal_fct);
  }
  return first;
}

void TrafficManager::enqueue(uint32_t id, sim::Time at) {
  at = std::max(at, sim_.now());
  state_[id].phase = Phase::kQueued;
  ready_.emplace_back(at.count_ps(), id);
  std::push_heap(ready_.begin(), ready_.end(), std::greater<>{});
  arm();
}

void TrafficManager::arm() {
  if (ready_.empty()) return;
  const sim::Time next = sim::Time::from_ps(ready_.front().first);
  if (!start_timer_.armed() || next < start_timer_.expiry()) start_timer_.arm_at(next);
}

void TrafficManager::handle_event(uint64_t /*tag*/) {
  const int64_t now = sim_.now().count_ps();
  while (!ready_.empty() && ready_.front().first <= now) {
    std::pop_heap(ready_.begin(), ready_.end(), std::greater<>{});
    const uint32_t id = ready_.back().second;
    ready_.pop_back();
    start(id);
  }
  arm();
}

void TrafficManager::start(uint32_t id) {
  FlowSpec& spec = flows_[id];
  FlowEndpoint* ep = endpoints_[endpoint_slot(spec.src, spec.protocol)];
  XOFF_CHECK(ep != nullptr, "no " + std::string(protocol_name(spec.protocol)) +
                                " endpoint on host " + std::to_string(spec.src) + " for " +
                                spec.name);
  state_[id].phase = Phase::kRunning;
  state_[id].started = sim_.now();
  spec.start = sim_.now();
  ++started_;
  ep->start_flow(spec);
}

void TrafficManager::flow_finished(uint32_t flow_id, sim::Time finish,
                                   int64_t retransmitted_bytes) {
  XOFF_CHECK(is_planned(flow_id), "flow_finished: unknown flow id");
  FlowState& st = state_[flow_id];
  XOFF_CHECK(st.phase == Phase::kRunning,
             "flow_finished: " + flows_[flow_id].name + " is not running");
  st.phase = Phase::kDone;
  st.finished = finish;
  ++finished_;
  const FlowRecord record = make_record(flow_id, retransmitted_bytes);
  recorder_.flow_finished(record);
  release_dependents(flow_id);
  for (FlowObserver* o : observers_) o->on_flow_finished(record);
}

void TrafficManager::flow_cnps(uint32_t flow_id, int64_t cnps) {
  XOFF_CHECK(is_planned(flow_id), "flow_cnps: unknown flow id");
  state_[flow_id].cnps = cnps;
}

void TrafficManager::flow_delivered(uint32_t flow_id, sim::Time at) {
  for (FlowObserver* o : observers_) o->on_flow_delivered(flow_id, at);
}

void TrafficManager::report_unfinished() {
  for (uint32_t id = 0; id < flows_.size(); ++id) {
    const FlowState& st = state_[id];
    if (st.phase == Phase::kDone || st.phase == Phase::kUnplanned) continue;
    FlowRecord r = make_record(id, 0);
    r.finish = sim_.now();
    if (st.phase == Phase::kRunning) {
      r.state = FlowRecord::State::kRunning;
      const FlowEndpoint* ep = endpoints_[endpoint_slot(flows_[id].src, flows_[id].protocol)];
      r.bytes_delivered = ep != nullptr ? ep->bytes_acked(id) : -1;
      r.cnps_received = ep != nullptr ? ep->cnps_received(id) : -1;
    } else {
      r.state = FlowRecord::State::kWaiting;
      r.start = std::max(flows_[id].start, st.ready);
      r.bytes_delivered = 0;
    }
    recorder_.flow_unfinished(r);
  }
}

FlowRecord TrafficManager::make_record(uint32_t id, int64_t retransmitted_bytes) const {
  const FlowSpec& spec = flows_[id];
  const FlowState& st = state_[id];
  FlowRecord r;
  r.flow_id = id;
  r.name = spec.name;
  r.protocol = protocol_name(spec.protocol);
  r.src_host = spec.src;
  r.dst_host = spec.dst;
  r.traffic_class = spec.tc;
  r.size_bytes = spec.size.count();
  r.start = st.started;
  r.finish = st.finished;
  r.ideal_fct = st.ideal > sim::Duration::zero() ? st.ideal
                : ideal_fn_                      ? ideal_fn_(spec)
                                                 : sim::Duration::zero();
  r.retransmitted_bytes = retransmitted_bytes;
  r.bytes_delivered = spec.size.count();
  r.cnps_received = st.cnps;
  return r;
}

void TrafficManager::release_dependents(uint32_t id) {
  const sim::Time finish = state_[id].finished;
  for (uint32_t d : dependents_[id]) {
    FlowState& st = state_[d];
    st.ready = std::max(st.ready, finish);
    if (--st.waiting == 0) enqueue(d, std::max(flows_[d].start, st.ready + st.gap));
  }
}

}  // namespace xoff::models
