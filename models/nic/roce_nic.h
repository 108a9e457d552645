#pragma once
// A RoCEv2 NIC: the RDMA transport of one host, with DCQCN.
//
// Sender (requester, DCQCN reaction point). One queue pair per flow; the
// message (FlowSpec::size payload bytes) is cut into MTU segments numbered by
// PSN 0..n−1, ECN-capable (ECT), marked with the flow's DSCP, PCP and host
// class, and hashed on (src, dst, flow) for ECMP, as a real NIC hashes the
// per-QP UDP source port. Each QP is paced at its DCQCN rate R_C: after a
// packet of S bytes at time t the QP may send again at t + S·8/R_C, R_C read
// when it is served (a QP parked for its pacing time is also woken when a
// DCQCN timer may raise R_C, so a rate increase shortens the wait). The
// QpScheduler picks QPs round-robin per class and pushes packets into the
// host port only while Host::has_room(class); a class refused room is
// refilled when the host calls on_room. One Timer wakes the NIC at the
// earliest pacing time: a QP at line rate sends on that timer alone.
//   Loss recovery is go-back-N: a NAK(e) or a retransmission timeout resends
// from PSN e (resp. the oldest unacknowledged PSN). Every resent payload byte
// is counted and reported with the completion: listener->flow_finished(id,
// time of the last ACK, retransmitted payload bytes).
//
// Receiver (responder, DCQCN notification point). Per flow: the expected PSN.
// In order: accepted, cumulative ACK on every packet the requester asked one
// for (RoceConfig::ack_requested: every `ack_every`-th PSN and the last), and
// at once on a packet that raised a CNP when cnp_on_ack. Above expected:
// discarded (consumed, counted out-of-order), one NAK per gap (IB "NAK
// sequence error": no further NAK until the expected PSN arrives; a lost
// retransmission is recovered by the timeout). Below: a duplicate, re-ACKed at
// once. A CE-marked packet triggers a CNP to the sender unless one went for
// this flow less than `dcqcn.cnp_interval` ago.
//
// Hot path: no allocation after warm-up. QPs live in a deque indexed by a
// dense QP id and are reused; every data packet carries its QP id
// (Packet::conn) and the receiver echoes it in ACK, NAK and CNP, so the sender
// finds the QP with one index (checked against the flow id: a reused slot
// ignores a stale ACK). Receiver state is a FlatMap keyed by flow id, so a NIC
// holds state only for the flows it sends or receives: memory per flow does
// not grow with the number of hosts (a vector indexed by the global flow id at
// every NIC costs hosts x flows).
#include <cstdint>
#include <deque>
#include <vector>

#include "models/core/flow.h"
#include "models/core/host.h"
#include "models/nic/dcqcn.h"
#include "models/nic/qp_scheduler.h"
#include "models/nic/roce_config.h"
#include "sim/flat_map.h"
#include "sim/timer.h"

namespace xoff::models {

class RoceNic final : public Transport, public FlowEndpoint, public sim::EventHandler {
 public:
  // Attaches itself to `host` for Protocol::kRoce. `listener` may be null.
  RoceNic(Host& host, const RoceConfig& config, FlowListener* listener);
  RoceNic(const RoceNic&) = delete;
  RoceNic& operator=(const RoceNic&) = delete;

  void start_flow(const FlowSpec& spec) override;
  int64_t bytes_acked(uint32_t flow_id) const override;
  int64_t cnps_received(uint32_t flow_id) const override;
  void receive(Packet& p) override { (void)receive_hinted(p); }
  // The next frame on this host's link is likely of the same flow: its
  // receiver state (data) or QP (ACK), this object, and the class the NIC
  // sends its reply or next data in.
  RxHint receive_hinted(Packet& p) override;
  void on_room() override;
  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t tag) const override {
    return tag == kPaceTag ? "roce: pacing / send" : "roce: retransmission timeout";
  }

  void set_listener(FlowListener* l) { listener_ = l; }
  const RoceConfig& config() const { return cfg_; }
  const RoceCounters& counters() const { return counters_; }
  // The reaction point of a flow still sending, or null.
  const DcqcnRateControl* rate_control(uint32_t flow_id) const;
  size_t active_qps() const { return active_qps_; }
  Host& host() { return host_; }

 private:
  static constexpr uint64_t kPaceTag = 0;
  static constexpr uint64_t kRtoTagBase = 1ull << 32;

  // Line-aligned: a QP is its own deque block (over 256 B), so it spans five
  // lines instead of five or six, every one of them read per data packet.
  struct alignas(64) Qp {
    Qp(sim::Simulator& sim, sim::EventHandler& owner, uint64_t tag) : rto_timer(sim, owner, tag) {}
    uint32_t index = 0;  // this QP's id, carried in Packet::conn
    uint32_t flow = 0;
    uint32_t dst = 0;
    uint32_t hash = 0;
    uint8_t tc = 0;
    uint8_t dscp = 0;
    uint8_t pcp = 0;
    bool active = false;  // sending a message (false: finished, slot reusable)
    bool queued = false;  // in the scheduler (ready ring or waiting heap)
    bool sent_any = false;
    int64_t size = 0;         // payload bytes
    int64_t npkts = 0;        // PSNs 0..npkts−1
    int64_t snd_una = 0;      // oldest unacknowledged PSN
    int64_t snd_nxt = 0;      // next PSN to send
    int64_t snd_max = 0;      // one past the highest PSN ever sent
    int64_t ackreq_max = -1;  // highest ACK-requesting PSN sent (ack_every)
    int64_t retx_bytes = 0;
    int64_t cnps = 0;  // received for this flow
    sim::Time last_send;
    sim::Bytes last_size;
    sim::Time rto_deadline;
    DcqcnRateControl cc;
    sim::Timer rto_timer;
  };
  struct RxFlow {
    int64_t expected = 0;   // next in-order PSN
    bool nak_sent = false;  // a NAK for `expected` is outstanding
    bool cnp_sent = false;
    bool cnp_pending = false;  // cnp_on_ack: the next ACK carries it
    sim::Time last_cnp;
  };

  // sender (roce_nic.cc)
  uint32_t alloc_qp();
  void free_qp(uint32_t i);
  void pump();
  void serve(uint32_t i);
  void send_data(Qp& q);
  void schedule(uint32_t i);
  void wait(uint32_t i, sim::Time allowed);
  sim::Time next_allowed(Qp& q);
  void arm_pacer();
  Qp* on_ack(Packet& p);  // the QP acknowledged; null if none or it just finished
  void on_cnp(Packet& p);
  void note_cnp(Qp* q);
  void on_rto(uint32_t i);
  void finish(uint32_t i);
  // The active QP `conn` if it carries `flow`, else null (stale or foreign).
  Qp* qp_of(uint32_t conn, uint32_t flow);
  // receiver (roce_receiver.cc)
  RxFlow& on_data(Packet& p);
  RxFlow& rx_flow(uint32_t flow);
  void send_ack(const Packet& data, RxFlow& rx, PacketKind kind);
  void maybe_send_cnp(const Packet& data, RxFlow& rx);

  // What every received frame touches first, in the object's first four
  // lines (RxHint::object: the deep lookahead prefetches them): the
  // references, the flow tables, the counters' start.
  Host& host_;
  Network& net_;
  sim::Simulator& sim_;
  FlowListener* listener_;
  sim::FlatMap<RxFlow> rx_;  // flow id → receiver state
  std::deque<Qp> qps_;       // dense QP ids; stable addresses (timers)
  size_t active_qps_ = 0;
  bool pumping_ = false;
  QpScheduler sched_;  // (line-aligned; its rings 32-aligned: none straddles two lines)
  RoceCounters counters_;
  std::vector<uint32_t> free_qps_;
  RoceConfig cfg_;
  sim::Timer pacer_;
};

}  // namespace xoff::models
