#pragma once
// A flow: one message (RoCE) or transfer (TCP) from a source host to a
// destination host. Endpoint transports start flows and report completion to
// a FlowListener (the traffic layer), which records FCTs and starts flows
// that wait on others (collective steps, incast waves).
#include <cstdint>
#include <string>

#include "models/core/packet.h"
#include "sim/units.h"

namespace xoff::models {

struct FlowSpec {
  uint32_t id = 0;   // unique per run, dense from 0
  std::string name;  // for results; "f<id>" when not given
  Protocol protocol = Protocol::kRoce;
  uint32_t src = 0;  // host ordinal
  uint32_t dst = 0;  // host ordinal
  sim::Bytes size;   // payload bytes of the message / transfer
  uint8_t dscp = 0;  // marked on every packet; switches classify on it
  uint8_t pcp = 0;   // 802.1p priority (for PCP-trusting switches)
  uint8_t tc = 0;    // host egress class (NIC queue)
  sim::Time start;   // when it may start (the traffic layer starts it)
};

class FlowListener {
 public:
  virtual ~FlowListener() = default;
  // The sender learned that every byte was delivered (last ACK).
  virtual void flow_finished(uint32_t flow_id, sim::Time finish, int64_t retransmitted_bytes) = 0;
  // Just before flow_finished, from a transport that counts them: the CNPs
  // the flow's sender (its QP, the DCQCN reaction point) received.
  virtual void flow_cnps(uint32_t flow_id, int64_t cnps) {
    (void)flow_id;
    (void)cnps;
  }
  // At the receiver: the flow's last byte arrived with every byte before it
  // (RoCE: the last packet in PSN order), before the receiver acknowledges
  // it. Transports that do not report it leave flow_finished as the only
  // notice. The receiver's host may be simulated where the sender is not.
  virtual void flow_delivered(uint32_t flow_id, sim::Time at) {
    (void)flow_id;
    (void)at;
  }
};

// Implemented by each transport that can carry flows (RoCE NIC, TCP stack).
class FlowEndpoint {
 public:
  virtual ~FlowEndpoint() = default;
  // Starts sending `spec` now (spec.src is this host).
  virtual void start_flow(const FlowSpec& spec) = 0;
  // Payload bytes of a started, unfinished flow the receiver has acknowledged
  // (for the record of a flow a run ends before); -1 when unknown.
  virtual int64_t bytes_acked(uint32_t /*flow_id*/) const { return -1; }
  // CNPs a started, unfinished flow's sender has received; -1 when not counted.
  virtual int64_t cnps_received(uint32_t /*flow_id*/) const { return -1; }
};

}  // namespace xoff::models
