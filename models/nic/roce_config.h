#pragma once
// Configuration and counters of the RoCEv2 NIC transport (RoceNic).
//
// Frame sizes (bytes of the Ethernet frame, FCS included; preamble, SFD and
// inter-frame gap excluded, like every frame in the core, e.g. the 64 B PAUSE):
//   data = payload + 62:  Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4
//                         (a SEND; a WRITE's first packet would add RETH 16)
//   ACK / NAK = 66:       the same headers + AETH 4, no payload
//   CNP = 78:             Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + 16 reserved
//                         + ICRC 4 + FCS 4 (RoCEv2, IBTA Annex A17)
// `extra_wire_bytes` is added to every frame: set 20 (preamble 7 + SFD 1 +
// IFG 12) to model the physical-layer overhead too, or 4 for an 802.1Q tag.
// So one 1000 B segment is 1062 B, 84.96 ns at 100 Gb/s: goodput 94.2 %.
#include <cstdint>

#include "models/nic/dcqcn.h"
#include "sim/units.h"

namespace xoff::models {

inline constexpr sim::Bytes kRoceDataHeaderBytes{62};
inline constexpr sim::Bytes kRoceAckBytes{66};
inline constexpr sim::Bytes kRoceCnpBytes{78};

struct RoceConfig {
  // Payload bytes per packet (the RoCE path MTU). 1000 B as the HPCC ns-3
  // model; real NICs use 1024, 2048 or 4096.
  sim::Bytes mtu{1000};
  sim::Bytes extra_wire_bytes{0};
  // ACK coalescing, as an IB requester asks for it: the AckReq bit is set on
  // every PSN p with (p + 1) % ack_every == 0 and on the last packet of a
  // message, and the responder acknowledges (cumulatively) exactly those
  // in-order packets, plus a duplicate at once and, with cnp_on_ack, the
  // packet that raised a CNP. The retransmission timer runs only while an
  // ACK-requesting packet is unacknowledged. Default 256 = 2^8: the Linux
  // mlx4/mlx5 drivers' MLX5_IB_ACK_REQ_FREQ (log_ack_req_freq) and UCX's
  // LOG_ACK_REQ_FREQ default. 1 = per packet (HPCC ns-3, htsim).
  int ack_every = 256;
  bool ack_requested(int64_t psn, bool last) const { return last || (psn + 1) % ack_every == 0; }
  // Class of ACK/NAK frames. ack_tc < 0: echo the data packet's class, DSCP
  // and PCP (an IB responder answers on the requester QP's traffic class).
  int ack_tc = -1;
  uint8_t ack_dscp = 0;
  uint8_t ack_pcp = 0;
  // CNPs are sent through the port's control queue (never behind a paused
  // class) and marked with this class / DSCP / PCP for the switches that
  // classify them. Defaults: Mellanox cnp_802p_prio = 6, cnp_dscp = 48.
  bool send_cnps = true;
  // Instead of a CNP frame, the notification rides on the flow's next ACK or
  // NAK as a congestion-echo flag (Packet::ece), as some NICs and simulators
  // do: no frame of its own, the ACK's class and latency, lost with the ACK.
  bool cnp_on_ack = false;
  int cnp_tc = 6;
  uint8_t cnp_dscp = 48;
  uint8_t cnp_pcp = 6;
  // Retransmission timeout: go-back-N from the oldest unacknowledged PSN when
  // no ACK progress was seen for `rto`. Default: the IB local ACK timeout
  // 4.096 us × 2^10 = 4.194304 ms (exponent 10; NCCL uses 18–22). No backoff,
  // no retry limit: a QP retries until its message is delivered.
  sim::Duration rto = sim::Duration::ps(4'194'304'000);
  // Reaction point and notification point parameters (cnp_interval).
  DcqcnParams dcqcn = DcqcnParams::paper();
};

// Whole-NIC counters. Sizes: `*_wire_bytes` are frame bytes, `*_payload_bytes`
// message bytes.
struct RoceCounters {
  // Counted per packet, first: inside the four lines of the NIC object the
  // deep lookahead prefetches (RoceNic's members).
  int64_t data_packets_sent = 0;
  int64_t data_wire_bytes_sent = 0;
  int64_t acks_received = 0;
  int64_t data_packets_received = 0;  // receiver (notification point) side
  int64_t acks_sent = 0;
  int64_t flows_started = 0;
  int64_t flows_finished = 0;
  int64_t retx_packets = 0;
  int64_t retx_payload_bytes = 0;
  int64_t timeouts = 0;
  int64_t naks_received = 0;
  int64_t cnps_received = 0;
  // receiver (notification point) side
  int64_t ce_packets_received = 0;
  int64_t out_of_order_packets = 0;  // PSN above the expected one: discarded
  int64_t duplicate_packets = 0;     // PSN below the expected one: re-ACKed
  int64_t naks_sent = 0;
  int64_t cnps_sent = 0;
};

}  // namespace xoff::models
