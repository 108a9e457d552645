#include "app/run/pcap.h"

#include <stdexcept>

#include "models/core/host.h"

namespace xoff::app {
namespace {

// Builds a frame big-endian, byte by byte.
struct Out {
  std::vector<uint8_t>& b;
  void u8(uint32_t v) { b.push_back(static_cast<uint8_t>(v)); }
  void u16(uint32_t v) {
    u8(v >> 8);
    u8(v);
  }
  void u24(uint32_t v) {
    u8(v >> 16);
    u16(v & 0xffff);
  }
  void u32(uint32_t v) {
    u16(v >> 16);
    u16(v & 0xffff);
  }
  void u64(uint64_t v) {
    u32(static_cast<uint32_t>(v >> 32));
    u32(static_cast<uint32_t>(v));
  }
  void zeros(size_t n) { b.insert(b.end(), n, 0); }
};

void host_mac(Out& o, uint32_t h) {
  o.u16(0x0200);
  o.u16(0x0000);
  o.u16(h & 0xffff);
}
uint32_t host_ip(uint32_t h) { return (10u << 24) | ((h + 1) & 0xffffff); }

// RFC 1071 over the 20-byte IPv4 header starting at `at`.
void ip_checksum(std::vector<uint8_t>& b, size_t at) {
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) sum += (uint32_t{b[at + i]} << 8) | b[at + i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  const uint16_t c = static_cast<uint16_t>(~sum);
  b[at + 10] = static_cast<uint8_t>(c >> 8);
  b[at + 11] = static_cast<uint8_t>(c);
}

// InfiniBand opcodes (IBTA Vol. 1, 9.2.1; RoCEv2 CNP: annex A17).
constexpr uint32_t kWriteFirst = 0x06, kWriteMiddle = 0x07, kWriteLast = 0x08, kWriteOnly = 0x0a,
                   kAcknowledge = 0x11, kCnp = 0x81;

}  // namespace

PcapWriter::PcapWriter(models::Network& net, const std::vector<PcapTarget>& targets,
                       const std::filesystem::path& dir, int ack_every)
    : dir_(dir), ack_every_(ack_every) {
  std::filesystem::create_directories(dir);
  for (const PcapTarget& t : targets) {
    models::Node& node = net.node(models::NodeId(t.node));
    const size_t first = t.port < 0 ? 0 : static_cast<size_t>(t.port);
    const size_t last = t.port < 0 ? node.num_ports() : first + 1;
    for (size_t p = first; p < last; ++p) {
      models::EgressPort& port = node.port(models::PortIndex(static_cast<uint16_t>(p)));
      if (by_port_.count(&port)) continue;  // named twice: one file
      const std::filesystem::path path = dir / (node.name() + "_p" + std::to_string(p) + ".pcap");
      File f;
      f.f = std::fopen(path.c_str(), "wb");
      if (f.f == nullptr) throw std::runtime_error("cannot create " + path.string());
      f.target = t;
      f.target.port = static_cast<int>(p);
      f.port = &port;
      // pcap global header, nanosecond timestamps (magic a1b23c4d), Ethernet.
      std::vector<uint8_t> h;
      const uint32_t fields[] = {0xa1b23c4d, 0x00040002, 0, 0, 65535, 1};
      for (uint32_t v : fields) {  // little-endian, as the magic says
        for (int k = 0; k < 4; ++k) h.push_back(static_cast<uint8_t>(v >> (8 * k)));
      }
      // version is two 16-bit fields: major 2, minor 4 (little-endian each).
      h[4] = 2;
      h[5] = 0;
      h[6] = 4;
      h[7] = 0;
      std::fwrite(h.data(), 1, h.size(), f.f);
      by_port_[&port] = files_.size();
      files_.push_back(f);
      port.set_tap(this);
    }
  }
}

PcapWriter::~PcapWriter() { close(); }

uint64_t PcapWriter::close() {
  for (File& f : files_) {
    if (f.port != nullptr) f.port->set_tap(nullptr);
    f.port = nullptr;
    if (f.f != nullptr) std::fclose(f.f);
    f.f = nullptr;
  }
  return frames_;
}

std::vector<PcapTarget> PcapWriter::every_host(models::Network& net) {
  std::vector<PcapTarget> out;
  for (uint32_t h = 0; h < net.num_hosts(); ++h) {
    PcapTarget t;
    t.node = net.host(h).id().value();
    t.port = 0;
    out.push_back(t);
  }
  return out;
}

void PcapWriter::on_transmit(const models::EgressPort& port, const models::Packet& p,
                             sim::Time start) {
  const auto it = by_port_.find(&port);
  if (it == by_port_.end()) return;
  File& f = files_[it->second];
  if (f.f == nullptr || f.written >= f.target.max_packets || start < f.target.start ||
      start >= f.target.stop) {
    return;
  }
  const std::vector<uint8_t> b = frame(port, p);
  const auto ps = start.count_ps();
  const uint32_t rec[] = {static_cast<uint32_t>(ps / 1'000'000'000'000),
                          static_cast<uint32_t>(ps % 1'000'000'000'000 / 1000),
                          static_cast<uint32_t>(b.size()), static_cast<uint32_t>(b.size())};
  uint8_t h[16];
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 4; ++k) h[4 * i + k] = static_cast<uint8_t>(rec[i] >> (8 * k));
  }
  std::fwrite(h, 1, sizeof h, f.f);
  std::fwrite(b.data(), 1, b.size(), f.f);
  ++f.written;
  ++frames_;
}

std::vector<uint8_t> PcapWriter::frame(const models::EgressPort& port,
                                       const models::Packet& p) const {
  using models::PacketKind;
  std::vector<uint8_t> b;
  b.reserve(static_cast<size_t>(p.size.count()) + 64);
  Out o{b};
  const size_t total = static_cast<size_t>(p.size.count());
  if (p.kind == PacketKind::kPause) {
    o.u8(0x01);  // 01:80:c2:00:00:01
    o.u8(0x80);
    o.u8(0xc2);
    o.u16(0x0000);
    o.u8(0x01);
    o.u16(0x0200);  // the sender: a host's MAC, or 02:00:01:00:nn:nn for a switch
    const auto& owner = port.owner();
    const auto* host = dynamic_cast<const models::Host*>(&owner);
    o.u16(host != nullptr ? 0x0000 : 0x0100);
    o.u16(host != nullptr ? host->ordinal() & 0xffff : owner.id().value() & 0xffff);
    o.u16(0x8808);  // MAC control
    o.u16(0x0101);  // PFC
    o.u16(p.pause_enable);
    for (int c = 0; c < 8; ++c) o.u16(p.pause_quanta(c));
    while (b.size() < 60) o.u8(0);
    return b;
  }
  host_mac(o, p.dst);
  host_mac(o, p.src);
  o.u16(0x8100);  // 802.1Q
  o.u16(static_cast<uint32_t>(p.pcp & 7) << 13);
  o.u16(0x0800);  // IPv4
  const size_t ip = b.size();
  const bool tcp = p.kind == PacketKind::kTcpData || p.kind == PacketKind::kTcpAck;
  const uint32_t ecn = p.ce ? 3 : p.ecn_capable ? 2 : 0;
  o.u8(0x45);
  o.u8((static_cast<uint32_t>(p.dscp) << 2) | ecn);
  o.u16(0);  // total length, set below
  o.u16(static_cast<uint32_t>(p.id & 0xffff));
  o.u16(0x4000);  // don't fragment
  o.u8(p.ttl);
  o.u8(tcp ? 6 : 17);
  o.u16(0);  // header checksum, below
  o.u32(host_ip(p.src));
  o.u32(host_ip(p.dst));
  ip_checksum(b, ip);
  const uint32_t sport = 49152 + (p.hash & 0x3fff);
  if (tcp) {
    o.u16(sport);
    o.u16(5001 + (p.conn & 0x0fff));
    o.u32(static_cast<uint32_t>(p.seq));
    o.u32(static_cast<uint32_t>(p.ack));
    const uint32_t flags = 0x10 | (p.kind == PacketKind::kTcpData ? 0x08 : 0) | (p.ece ? 0x40 : 0) |
                           (p.cwr ? 0x80 : 0);
    o.u16((5u << 12) | flags);  // data offset 5 words
    o.u16(65535);               // window
    o.u16(0);                   // checksum (not computed)
    o.u16(0);
  } else {
    o.u16(sport);
    o.u16(4791);  // RoCEv2
    o.u16(0);     // length, set below
    o.u16(0);     // UDP checksum: none
    // BTH: opcode, SE|M|PadCnt|TVer, P_Key, reserved, dest QP, A|reserved, PSN.
    uint32_t opcode = kAcknowledge;
    bool reth = false;
    bool aeth = false;
    if (p.kind == PacketKind::kRoceData) {
      const bool first = p.seq == 0;
      opcode = first && p.last ? kWriteOnly
               : first         ? kWriteFirst
               : p.last        ? kWriteLast
                               : kWriteMiddle;
      reth = first;
    } else if (p.kind == PacketKind::kCnp) {
      opcode = kCnp;
    } else {
      aeth = true;
    }
    o.u8(opcode);
    o.u8(0x00);
    o.u16(0xffff);
    o.u8(0);
    o.u24(p.conn & 0xffffff);
    const bool ack_req =
        p.kind == PacketKind::kRoceData && (p.last || (p.seq + 1) % ack_every_ == 0);
    const uint32_t psn =
        p.kind == PacketKind::kRoceData ? static_cast<uint32_t>(p.seq)
        : aeth ? static_cast<uint32_t>(p.ack - (p.kind == PacketKind::kRoceAck ? 1 : 0))
               : 0;
    o.u8(ack_req ? 0x80 : 0x00);
    o.u24(psn & 0xffffff);
    if (reth) {
      o.u64(0x0000'1000'0000'0000ULL + static_cast<uint64_t>(p.flow) * 0x1'0000'0000ULL);  // VA
      o.u32(0x1000 + (p.flow & 0xffff));                                                   // R_Key
      o.u32(p.payload);  // DMA length: this model's message is its flow
    }
    if (aeth) {
      // ACK: syndrome 0x1f (ACK, credits invalid); NAK: 0x60 (PSN sequence error).
      o.u8(p.kind == PacketKind::kRoceNak ? 0x60 : 0x1f);
      o.u24(static_cast<uint32_t>(p.ack) & 0xffffff);  // MSN
    }
    if (p.kind == PacketKind::kCnp) o.zeros(16);
  }
  // Payload (zeros) and, for RoCE, the ICRC: up to the modelled frame length.
  const size_t tail = tcp ? 0 : 4;
  if (b.size() + tail < total) o.zeros(total - b.size() - tail);
  if (!tcp) o.u32(0xdeadbeef);  // ICRC (not computed)
  // Lengths from the frame as built (a CNP's 16 reserved bytes can make it
  // longer than the modelled one), then the IP checksum.
  const size_t ip_total = b.size() - ip;
  b[ip + 2] = static_cast<uint8_t>(ip_total >> 8);
  b[ip + 3] = static_cast<uint8_t>(ip_total);
  b[ip + 10] = 0;
  b[ip + 11] = 0;
  ip_checksum(b, ip);
  if (!tcp) {
    const size_t udp_len = ip_total - 20;
    b[ip + 24] = static_cast<uint8_t>(udp_len >> 8);
    b[ip + 25] = static_cast<uint8_t>(udp_len);
  }
  return b;
}

}  // namespace xoff::app
