#pragma once
// The TCP stack of one host: carries FlowSpec transfers (NewReno, optionally
// DCTCP or classic ECN) and request/response exchanges, and reports their
// completion. Attach with host.attach(Protocol::kTcp, stack); every host that
// sends or receives TCP needs one.
//
// Connections. One connection per flow or RPC. The three-way handshake and
// FIN exchange are not modelled: start_flow() sets up both ends at once (the
// peer's stack is found through the host table), as on a persistent
// connection, and both ends are released when both are done (everything sent
// acknowledged, everything expected received). A packet names its connection
// by the slot index at the receiving stack (Packet::conn, like a TCP port), so
// demultiplexing is a vector index; a packet for a closed or reused slot
// (checked by source host, id and hash) is stale: consumed and counted.
//
// Packets. Data segments carry ≤ MSS payload plus the headers of TcpConfig,
// p.protocol = kTcp, the flow's DSCP/PCP/class, a per-connection ECMP hash
// (same both directions), ECT when ECN or DCTCP is on, and the cumulative ACK
// of the reverse direction. Pure ACKs are 64 B, not ECT. ACKs go to the NIC at
// once; data waits in the stack until the host port's class has room, and the
// stack serves ready connections of a class round robin, one segment each.
//
// Completion. A bulk sender calls listener->flow_finished(id, now,
// retransmitted payload bytes) on the ACK of its last byte. An RPC client calls
// rpc_listener->rpc_finished(id, latency) when the last response byte arrives
// in order; the server sends the response the instant the request is complete.
//
// Hot path: no allocation after warm-up (slots, rings and reorder buffers keep
// their capacity), no maps, no logging.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/flow.h"
#include "models/core/host.h"
#include "models/core/ring.h"
#include "models/tcp/tcp_config.h"
#include "models/tcp/tcp_connection.h"

namespace xoff::models {

class TcpStack final : public Transport, public FlowEndpoint, private sim::EventHandler {
 public:
  TcpStack(Host& host, const TcpConfig& cfg = {}, FlowListener* listener = nullptr);
  TcpStack(const TcpStack&) = delete;
  TcpStack& operator=(const TcpStack&) = delete;

  void set_flow_listener(FlowListener* l) { listener_ = l; }
  void set_rpc_listener(RpcListener* l) { rpc_listener_ = l; }
  void set_probe(TcpProbe* p) { probe_ = p; }

  // FlowEndpoint: spec.src is this host, spec.protocol kTcp.
  void start_flow(const FlowSpec& spec) override;
  int64_t bytes_acked(uint32_t flow_id) const override;
  // spec.client is this host; request and response are at least one byte.
  void start_rpc(const RpcSpec& spec);

  // Transport
  void receive(Packet& p) override;
  void on_room() override { pump(); }

  Host& host() { return host_; }
  const TcpConfig& config() const { return cfg_; }
  const TcpStats& stats() const { return stats_; }
  size_t open_connections() const { return open_; }
  // The open end with this id and role, or null. A linear scan: tests and debugging.
  const TcpConnection* find(uint32_t id, TcpRole role) const;

 private:
  struct OpenArgs {
    uint32_t id;
    TcpRole role;
    uint32_t peer_host;
    uint32_t hash;
    uint8_t tc, dscp, pcp;
    int64_t tx_bytes, rx_bytes;
  };
  struct Arrival {  // the fields of a received packet, read before it is consumed
    bool data;
    int64_t seq, ack, payload;
    bool ce, ece;
  };

  // tcp_stack.cc: connections and the receive path
  TcpStack& peer_stack(uint32_t host_ordinal);
  TcpConnection& connect(const OpenArgs& local, const OpenArgs& remote);
  TcpConnection& open(const OpenArgs& a);
  void release(TcpConnection& c);
  void try_close(TcpConnection& c);
  TcpConnection* lookup(const Packet& p);
  void on_data(TcpConnection& c, const Arrival& a);
  void on_rx_complete(TcpConnection& c);
  void on_ack(TcpConnection& c, int64_t ack, bool ece, bool pure);
  void on_tx_done(TcpConnection& c);
  void on_timeout(TcpConnection& c);
  void note_event(const TcpConnection& c, TcpEventKind kind, int64_t flight);
  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t tag) const override {
    return (tag & 1) == 1 ? "tcp: delayed ACK" : "tcp: retransmission timeout";
  }

  // tcp_output.cc: what goes to the NIC
  void schedule(TcpConnection& c);
  void pump();
  void send_segment(TcpConnection& c);
  void send_ack_now(TcpConnection& c);
  void send_pure_ack(TcpConnection& c);
  Packet& make_packet(const TcpConnection& c, int64_t wire_bytes, PacketKind kind);

  Host& host_;
  Network& net_;
  sim::Simulator& sim_;
  TcpConfig cfg_;
  FlowListener* listener_;
  RpcListener* rpc_listener_ = nullptr;
  TcpProbe* probe_ = nullptr;
  std::vector<std::unique_ptr<TcpConnection>> conns_;  // by slot; objects never move
  std::vector<uint32_t> free_;                         // closed slots, reused LIFO
  std::array<Ring<uint32_t>, kNumClasses> ready_;      // slots with a segment to send
  size_t ready_count_ = 0;
  size_t open_ = 0;
  bool pumping_ = false;
  TcpStats stats_;
};

}  // namespace xoff::models
