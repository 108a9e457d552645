#pragma once
// TCP model parameters, per-stack counters, request/response (RPC) specs and
// the probe through which congestion events are observed.
//
// Wire format (decided here, used by every TCP packet): a data segment is its
// payload plus `header_bytes` = 58 B (TCP 20 + IPv4 20 + Ethernet header 14 +
// FCS 4), so a full 1460 B segment is a 1518 B frame, the classic Ethernet
// maximum for a 1500 B MTU. Preamble and inter-frame gap are not counted, as
// for every other frame in the model (a PAUSE is 64 B). A pure ACK is 58 B,
// padded to the 64 B Ethernet minimum (as is a data segment under 6 B of payload).
//
// Defaults are stock Linux / the RFCs except where a datacenter deployment
// differs and the scenario must be able to say so:
//   - min_rto = 1 ms (Linux: 200 ms; datacenter stacks lower it, Vasudevan et
//     al. SIGCOMM 2009). Set min_rto = 200ms to model an untuned Linux host.
//   - initial_rto = 1 ms, not RFC 6298's 1 s: no handshake is modelled, so a
//     connection behaves like a warm persistent one whose RTO already sits at
//     its floor (SRTT + 4·RTTVAR is far below min_rto in a datacenter).
//   - delayed ACK off (RFC 8257 §3.2 precise echo is then exact per segment).
#include <cstdint>

#include "models/core/packet.h"
#include "sim/units.h"

namespace xoff::models {

struct TcpConfig {
  sim::Bytes mss{1460};         // SMSS: payload of a full segment (1500 B MTU − 40 B)
  sim::Bytes header_bytes{58};  // TCP 20 + IPv4 20 + Ethernet 14 + FCS 4
  sim::Bytes min_frame{64};     // Ethernet minimum: pure ACKs are padded to it
  int64_t initial_window = 10;  // segments (RFC 6928)
  int dupack_threshold = 3;     // duplicate ACKs that trigger fast retransmit (RFC 5681)
  sim::Duration min_rto = sim::Duration::ms(1);      // RFC 6298 (2.4) floor, per scenario
  sim::Duration initial_rto = sim::Duration::ms(1);  // before the first RTT sample
  sim::Duration max_rto = sim::Duration::s(60);      // RFC 6298 (2.5) ceiling
  bool ecn = false;                  // RFC 3168: ECT data, halve cwnd once per window on ECE
  bool dctcp = false;                // DCTCP (RFC 8257): ECT data, cut by alpha/2 once per window
  double dctcp_g = 1.0 / 16;         // alpha gain g (Alizadeh et al. 2010, RFC 8257 §3.3)
  double dctcp_initial_alpha = 1.0;  // RFC 8257 §3.3 (conservative start)
  bool delayed_ack = false;          // RFC 5681 §4.2 / RFC 1122 delayed ACK
  int delayed_ack_segments = 2;      // ACK at least every this many full segments
  sim::Duration delayed_ack_timeout = sim::Duration::ms(40);  // Linux TCP_DELACK_MIN
  sim::Bytes receive_window{0};  // cap on bytes in flight; 0 = unlimited

  bool ecn_capable() const { return ecn || dctcp; }
};

// A request/response exchange on its own connection: the client sends
// `request` bytes, the server answers with `response` bytes as soon as the
// whole request is in (no service time), and the latency is measured at the
// client from start_rpc() to the last response byte received in order.
struct RpcSpec {
  uint32_t id = 0;      // unique among the RPCs of a run (an id space of its own)
  uint32_t client = 0;  // host ordinal: the stack start_rpc() is called on
  uint32_t server = 0;  // host ordinal of the responder
  sim::Bytes request{100};
  sim::Bytes response{1000};
  uint8_t dscp = 0;
  uint8_t pcp = 0;
  uint8_t tc = 0;
};

class RpcListener {
 public:
  virtual ~RpcListener() = default;
  // The client received the whole response `latency` after the RPC started.
  virtual void rpc_finished(uint32_t rpc_id, sim::Duration latency) = 0;
};

// Totals over every connection of one stack (both directions).
struct TcpStats {
  int64_t segments_sent = 0;  // data segments, retransmissions included
  int64_t payload_bytes_sent = 0;
  int64_t retransmitted_segments = 0;
  int64_t retransmitted_bytes = 0;  // payload
  int64_t acks_sent = 0;            // pure ACKs (piggybacked ones are not counted)
  int64_t fast_recoveries = 0;      // fast retransmit + recovery episodes
  int64_t partial_acks = 0;         // RFC 6582 partial ACKs (each retransmits)
  int64_t timeouts = 0;             // RTO expiries
  int64_t ecn_reductions = 0;       // cwnd cuts in response to ECE
  int64_t ce_received = 0;          // data segments that arrived CE-marked
  int64_t stale_packets = 0;        // for a closed connection: consumed, ignored
  int64_t flows_finished = 0;
  int64_t rpcs_finished = 0;
};

// A congestion-control event of one connection's sender, for probes and tests.
enum class TcpEventKind : uint8_t {
  kFastRetransmit,
  kPartialAck,
  kRecoveryExit,
  kTimeout,
  kEcnCut
};

struct TcpEvent {
  sim::Time time;
  uint32_t id = 0;  // flow id, or RPC id when `rpc`
  bool rpc = false;
  TcpEventKind kind = TcpEventKind::kTimeout;
  int64_t flight = 0;    // bytes outstanding when the event was decided
  int64_t cwnd = 0;      // bytes, after the event
  int64_t ssthresh = 0;  // bytes, after the event
  double alpha = 0;      // DCTCP alpha after the event
  sim::Duration rto;     // retransmission timeout after the event (backed off on kTimeout)
};

class TcpProbe {
 public:
  virtual ~TcpProbe() = default;
  virtual void on_tcp_event(const TcpEvent& e) = 0;
};

}  // namespace xoff::models
