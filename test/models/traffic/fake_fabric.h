#pragma once
// Test double for the transports: an ideal fabric where each host has one
// serial "NIC" at `rate`. A started flow waits behind earlier flows from the
// same host (FIFO), occupies the NIC for size / rate, and is reported finished
// `latency` after its last byte left. Receivers and the network never
// congest, so FCTs are exact arithmetic. With an ACK delay (set_ack_delay)
// the flow is reported delivered `latency` after its last byte left and
// finished that much later, as a RoCE receiver and its sender see it;
// without one, delivery is not reported. Also an in-memory Recorder.
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/core/flow.h"
#include "models/monitor/recorder.h"
#include "models/traffic/traffic_manager.h"
#include "sim/simulator.h"

namespace xoff::models::testing {

class MemoryRecorder final : public Recorder {
 public:
  void flow_finished(const FlowRecord& r) override { flows.push_back(r); }
  void collective_finished(const CollectiveRecord& r) override { collectives.push_back(r); }
  std::vector<FlowRecord> flows;
  std::vector<CollectiveRecord> collectives;
};

class FakeFabric final : public sim::EventHandler {
 public:
  FakeFabric(sim::Simulator& sim, uint32_t hosts, sim::BitsPerSecond rate, sim::Duration latency)
      : sim_(sim), rate_(rate), latency_(latency) {
    for (uint32_t h = 0; h < hosts; ++h) nics_.push_back(std::make_unique<Nic>(*this, h));
  }
  // Makes every host's NIC carry `proto` flows of `tm`.
  void attach(TrafficManager& tm, Protocol proto = Protocol::kRoce) {
    listener_ = &tm;
    for (auto& nic : nics_) tm.set_endpoint(nic->host, proto, *nic);
  }
  void set_ack_delay(sim::Duration d) { ack_delay_ = d; }
  // Flow ids in the order the fabric was asked to start them.
  const std::vector<uint32_t>& start_order() const { return start_order_; }

  void handle_event(uint64_t tag) override {
    const auto value = static_cast<uint32_t>(tag);
    if ((tag >> 32) == kTxDone) {
      Nic& nic = *nics_[value];
      const uint32_t flow = nic.queue.front().id;
      nic.queue.pop_front();
      if (ack_delay_ > sim::Duration::zero()) {
        sim_.schedule_in(latency_, *this, (kDeliver << 32) | flow);
        sim_.schedule_in(latency_ + ack_delay_, *this, (kFinish << 32) | flow);
      } else {
        sim_.schedule_in(latency_, *this, (kFinish << 32) | flow);
      }
      nic.busy = false;
      next(nic);
    } else if ((tag >> 32) == kDeliver) {
      listener_->flow_delivered(value, sim_.now());
    } else {
      listener_->flow_finished(value, sim_.now(), 0);
    }
  }

 private:
  static constexpr uint64_t kTxDone = 1;
  static constexpr uint64_t kFinish = 2;
  static constexpr uint64_t kDeliver = 3;
  struct Nic final : FlowEndpoint {
    Nic(FakeFabric& f, uint32_t h) : fabric(f), host(h) {}
    void start_flow(const FlowSpec& spec) override {
      fabric.start_order_.push_back(spec.id);
      queue.push_back(spec);
      fabric.next(*this);
    }
    FakeFabric& fabric;
    uint32_t host;
    std::deque<FlowSpec> queue;
    bool busy = false;
  };
  void next(Nic& nic) {
    if (nic.busy || nic.queue.empty()) return;
    nic.busy = true;
    sim_.schedule_in(sim::tx_time(nic.queue.front().size, rate_), *this,
                     (kTxDone << 32) | nic.host);
  }

  sim::Simulator& sim_;
  sim::BitsPerSecond rate_;
  sim::Duration latency_;
  sim::Duration ack_delay_;
  FlowListener* listener_ = nullptr;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<uint32_t> start_order_;
};

}  // namespace xoff::models::testing
