#pragma once
// A packet on the wire: data, ACK/NAK, CNP, PFC PAUSE, TCP segment.
//
// Plain and pooled (Network owns the pool); exactly one owner at a time: a
// queue, a link in flight, or an endpoint handling it. PAUSE and CNP frames
// are packets on the same links, paying serialization and propagation like any
// other (htsim). Exactly 64 bytes, one cache line (static_assert below).
#include <cstdint>

#include "sim/check.h"
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

// One 64-byte line: a hop reads the size, destination, ECMP hash, classes
// and ECN bits; the endpoints read the rest. At 4,096 hosts a permutation
// holds 1.3 M packets queued behind ECMP collisions, and on a VM every new
// megabyte of them is a first touch (bench/README.md, fifteenth session):
// at 128 bytes (two lines, with a creation and an enqueue time nothing read)
// they were 169 MB of the run's 224 MB of growth. What only a PAUSE carries
// (its per-class quanta) lives in the fields a PAUSE does not use (seq and
// ack), behind accessors; the MTU bounds the payload to 16 bits; the class
// and the priority group (0-7) share a byte, the flags a bit each.
struct alignas(64) Packet {
  sim::Bytes size;       // bytes on the wire, headers included
  int64_t seq = 0;       // PSN (RoCE) or byte sequence (TCP); kPause: quanta
  int64_t ack = 0;       // cumulative acknowledgement; kPause: quanta
  uint64_t id = 0;       // unique: the making node's stream and its count (Network::make_packet)
  uint32_t dst = 0;      // destination host ordinal
  uint32_t hash = 0;     // flow hash for ECMP
  uint32_t flow = 0;     // FlowId value (QP or connection)
  uint32_t src = 0;      // source host ordinal
  uint32_t conn = 0;     // endpoint demux: connection slot at the receiving transport
                         // (a TCP port, in effect); 0 if unused
  uint16_t payload = 0;  // payload bytes: at most an MTU or MSS (9,158)
  uint16_t in_port = 0;  // ingress port at the current switch
  PacketKind kind = PacketKind::kRoceData;
  Protocol protocol = Protocol::kNone;
  uint8_t tc : 4 = 0;  // traffic class (egress queue) at this hop
  uint8_t pg : 4 = 0;  // ingress priority group at this switch
  uint8_t dscp = 0;    // DSCP carried in the IP header
  uint8_t pcp = 0;     // 802.1p priority in the VLAN tag
  uint8_t ttl = 64;
  uint8_t pause_enable = 0;      // class-enable vector, kPause only
  bool ecn_capable : 1 = false;  // ECT(0)/ECT(1)
  bool ce : 1 = false;           // Congestion Experienced
  bool last : 1 = false;         // last segment of a message
  bool ece : 1 = false;          // TCP ECN-Echo / DCTCP echo
  bool cwr : 1 = false;          // TCP Congestion Window Reduced (the sender cut for ECE)

  // kPause only: the pause time of class c (0-7) in quanta of 512 bit
  // times, 0 = XON; classes 0-3 in seq, 4-7 in ack, 16 bits each.
  uint16_t pause_quanta(int c) const {
    XOFF_DCHECK(c >= 0 && c < 8, "a PAUSE has classes 0-7");
    const auto w = static_cast<uint64_t>(c < 4 ? seq : ack);
    return static_cast<uint16_t>(w >> (16 * (c & 3)));
  }
  void set_pause_quanta(int c, uint16_t quanta) {
    XOFF_DCHECK(c >= 0 && c < 8, "a PAUSE has classes 0-7");
    int64_t& field = c < 4 ? seq : ack;
    const int shift = 16 * (c & 3);
    const auto w = static_cast<uint64_t>(field) & ~(uint64_t{0xffff} << shift);
    field = static_cast<int64_t>(w | uint64_t{quanta} << shift);
  }
};
static_assert(sizeof(Packet) == 64, "a packet is one cache line: it is queued by the million");

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
