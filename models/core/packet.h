#pragma once
// A packet on the wire: data, ACK/NAK, CNP, PFC PAUSE, TCP segment.
//
// Plain and pooled (Network owns the pool); exactly one owner at a time: a
// queue, a link in flight, or an endpoint handling it. PAUSE and CNP frames
// are packets on the same links, paying serialization and propagation like any
// other (htsim). Exactly 128 bytes, two cache lines (static_assert below).
#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/units.h"

namespace xoff::models {

enum class PacketKind : uint8_t {
  kRoceData,  // RoCEv2 SEND/WRITE segment, seq = PSN
  kRoceAck,   // cumulative ACK, ack = next expected PSN
  kRoceNak,   // out-of-sequence NAK (go-back-N), ack = expected PSN
  kCnp,       // DCQCN congestion notification (NP -> RP)
  kPause,     // IEEE 802.1Qbb per-priority PAUSE (quanta 0 = XON)
  kTcpData,   // TCP segment, seq = first byte
  kTcpAck,    // TCP ACK, ack = next expected byte, ece = ECN echo
};

// Which endpoint transport handles a packet at a host. kNvlink flows never
// become packets: they run on the intra-server fast path (models/nic/nvlink.h).
enum class Protocol : uint8_t { kNone = 0, kRoce = 1, kTcp = 2, kNvlink = 3 };

inline constexpr sim::Bytes kPauseFrameBytes{64};  // minimum Ethernet frame
inline constexpr int kMaxProtocols = 4;
// A protocol's bit in a set of protocols (e.g. Host::set_remark).
constexpr uint8_t protocol_bit(Protocol p) {
  return static_cast<uint8_t>(1u << static_cast<int>(p));
}

// Laid out for the switch: what a hop reads (size, destination, ECMP hash,
// classes, ECN bits, enqueue time) is in the first 64-byte line, and a packet
// starts on a line, so forwarding touches one line of it; what only the
// endpoints read (ids, creation time, acknowledgements, pause quanta) is in
// the second.
struct alignas(64) Packet {
  // First line: every hop.
  sim::Bytes size;       // bytes on the wire, headers included
  sim::Time enqueued;    // entered its current queue
  int64_t seq = 0;       // PSN (RoCE) or byte sequence (TCP)
  uint32_t dst = 0;      // destination host ordinal
  uint32_t hash = 0;     // flow hash for ECMP
  uint32_t flow = 0;     // FlowId value (QP or connection)
  uint32_t src = 0;      // source host ordinal
  uint32_t payload = 0;  // payload bytes
  uint16_t in_port = 0;  // ingress port at the current switch
  PacketKind kind = PacketKind::kRoceData;
  Protocol protocol = Protocol::kNone;
  uint8_t tc = 0;    // traffic class (egress queue) at this hop
  uint8_t pg = 0;    // ingress priority group at this switch
  uint8_t dscp = 0;  // DSCP carried in the IP header
  uint8_t pcp = 0;   // 802.1p priority in the VLAN tag
  uint8_t ttl = 64;
  bool ecn_capable = false;  // ECT(0)/ECT(1)
  bool ce = false;           // Congestion Experienced
  bool last = false;         // last segment of a message
  // Second line: the endpoints.
  uint64_t id = 0;
  sim::Time created;                       // injected at the source
  int64_t ack = 0;                         // cumulative acknowledgement
  uint32_t conn = 0;                       // endpoint demux: connection slot at the receiving
                                           // transport (a TCP port, in effect); 0 if unused
  std::array<uint16_t, 8> pause_quanta{};  // per class, kPause only
  uint8_t pause_enable = 0;                // class-enable vector, kPause only
  bool ece = false;                        // TCP ECN-Echo / DCTCP echo
  bool cwr = false;                        // TCP Congestion Window Reduced (the sender cut for ECE)
};
static_assert(sizeof(Packet) == 128, "Packet must stay small: it is copied through pools");
static_assert(offsetof(Packet, last) < 64, "what a hop reads must stay in the first line");

// A frame as a class queue keeps it: the packet, and what serving it reads
// (its size, for the scheduler and the wire; where the switch charged it),
// so that a dequeue need not touch the packet. On a large congested fabric
// the packet's line was last used a queueing delay ago, thousands of events
// back: reading it was the first miss of every dequeue (bench/README.md).
struct QueuedFrame {
  Packet* pkt = nullptr;
  int32_t size = 0;      // bytes on the wire, as Packet::size
  uint16_t in_port = 0;  // as Packet::in_port, ::pg and ::tc when queued
  uint8_t pg = 0;
  uint8_t tc = 0;
  static QueuedFrame of(Packet& p) {
    return {&p, static_cast<int32_t>(p.size.count()), p.in_port, p.pg, p.tc};
  }
};
static_assert(sizeof(QueuedFrame) == 16, "four queue entries to a line");

}  // namespace xoff::models
