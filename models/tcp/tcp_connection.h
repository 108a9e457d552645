#pragma once
// One end of a TCP connection: a sending half, a receiving half, the RTO and
// delayed-ACK timers, and who the other end is.
//
// A connection is bidirectional, as in TCP: a bulk flow uses the sender half
// at the source and the receiver half at the destination; an RPC uses both
// halves at both ends (request one way, response the other), and a data
// segment always carries the ACK of the reverse direction, so the response's
// first segment acknowledges the request (no separate ACK delays it).
//
// Slots are owned by a TcpStack and reused; a slot's object never moves
// (timers are scheduled by address), its index is the `conn` that packets for
// it carry. Timer kinds are 2·slot (RTO) and 2·slot + 1 (delayed ACK).
//
// The RTO is restarted on every ACK (RFC 6298 5.3), so it is lazy: restarting
// only moves `rto_deadline`; the timer is pushed again only if it must fire
// sooner, or when it fires before the deadline. The event queue then holds
// about one RTO entry per connection per RTO period instead of one per ACK.
#include <cstdint>

#include "models/tcp/tcp_config.h"
#include "models/tcp/tcp_receiver.h"
#include "models/tcp/tcp_sender.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace xoff::models {

class TcpStack;

enum class TcpRole : uint8_t {
  kBulkSender,    // sends a FlowSpec's bytes, reports flow_finished
  kBulkReceiver,  // receives them
  kRpcClient,     // sends the request, receives the response, reports rpc_finished
  kRpcServer,     // receives the request, then sends the response
};

struct TcpConnection {
  TcpConnection(sim::Simulator& sim, sim::EventHandler& owner, uint32_t slot_index,
                const TcpConfig& cfg)
      : slot(slot_index),
        tx(cfg),
        rto_timer(sim, owner, 2 * static_cast<uint64_t>(slot_index)),
        delack_timer(sim, owner, 2 * static_cast<uint64_t>(slot_index) + 1) {}
  TcpConnection(const TcpConnection&) = delete;
  TcpConnection& operator=(const TcpConnection&) = delete;

  void arm_rto(sim::Time deadline) {
    rto_deadline = deadline;
    if (!rto_timer.armed() || rto_timer.expiry() > deadline) rto_timer.arm_at(deadline);
  }
  void stop_rto() { rto_deadline = sim::Time::max(); }
  bool rto_running() const { return rto_deadline != sim::Time::max(); }

  bool rpc() const { return role == TcpRole::kRpcClient || role == TcpRole::kRpcServer; }
  // This end has nothing left to do: all it sends is acknowledged and all it
  // expects has arrived. The connection closes when both ends are done.
  bool end_done() const { return (tx_bytes == 0 || tx.done()) && (rx_bytes == 0 || rx.complete()); }

  const uint32_t slot;
  uint32_t id = 0;  // flow id or RPC id
  TcpRole role = TcpRole::kBulkSender;
  bool active = false;     // open (not yet closed)
  bool in_ready = false;   // queued in the stack's ready ring
  uint32_t peer_host = 0;  // host ordinal of the other end
  uint32_t peer_slot = 0;  // its slot there (the `conn` our packets carry)
  TcpStack* peer = nullptr;
  uint32_t hash = 0;  // ECMP hash, both directions; also checks identity
  uint8_t tc = 0;
  uint8_t dscp = 0;
  uint8_t pcp = 0;
  sim::Time start;       // when the flow or RPC started
  int64_t tx_bytes = 0;  // bytes this end sends (an RPC server's start once the request is in)
  int64_t rx_bytes = 0;  // bytes this end receives
  TcpSender tx;
  TcpReceiver rx;
  sim::Time rto_deadline = sim::Time::max();  // max: not running
  sim::Timer rto_timer;                       // fires at or before rto_deadline
  sim::Timer delack_timer;
};

}  // namespace xoff::models
