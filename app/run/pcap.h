#pragma once
// Packet capture: the frames chosen ports transmit, as pcap files (nanosecond
// timestamps, Ethernet link type) that Wireshark and tshark decode. One file
// per port, DIR/<node>_p<port>.pcap, with a packet limit and a time window.
//
// Frames are written as they would be on the wire, exactly as long as the
// modelled frame (xoff's sizes count every header, no FCS); payload bytes
// are zeros:
//   RoCE    Ethernet, 802.1Q tag (PCP = the packet's priority), IPv4 (DSCP,
//           ECN: ECT(0), or CE when marked), UDP to 4791, InfiniBand BTH
//           (opcode, destination QP, ack-request on a message's last packet,
//           24-bit PSN), ICRC. Data are RC RDMA WRITE FIRST / MIDDLE / LAST /
//           ONLY, with a RETH (virtual address, R_Key, DMA length) on FIRST and
//           ONLY (taken from the zero payload, so the frame length stays the
//           model's); ACK and NAK are RC Acknowledge with an AETH (syndrome
//           ACK, or NAK PSN sequence error); CNP is opcode 0x81.
//   PFC     MAC control (01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0101),
//           the class-enable vector and eight quanta, padded to 60 bytes.
//   TCP     Ethernet, 802.1Q, IPv4, TCP (ports, seq, ack, ACK/PSH, ECE).
// Addresses: host ordinal h is MAC 02:00:00:00:hh:hh and IP 10.x.y.z with
// x.y.z = h + 1; a switch's PFC frames come from 02:00:01:00:nn:nn.
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/scenario/scenario.h"
#include "models/core/network.h"
#include "models/core/port.h"

namespace xoff::app {

class PcapWriter final : public models::PacketTap {
 public:
  // Opens one file per selected port under `dir` (created) and taps them.
  // `ack_every`: the RoCE NICs' ACK coalescing, so the BTH AckReq bit is set
  // where the requester asks for an ACK (every ack_every-th PSN, the last).
  // Throws std::runtime_error when a file cannot be created.
  PcapWriter(models::Network& net, const std::vector<PcapTarget>& targets,
             const std::filesystem::path& dir, int ack_every = 1);
  ~PcapWriter() override;
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  void on_transmit(const models::EgressPort& port, const models::Packet& p,
                   sim::Time start) override;
  // Detaches the taps and closes the files; returns frames written.
  uint64_t close();
  size_t files() const { return files_.size(); }
  const std::filesystem::path& dir() const { return dir_; }

  // Every host's NIC port: what `xoff run --pcap DIR` captures when the
  // scenario names no [[monitor.pcap]].
  static std::vector<PcapTarget> every_host(models::Network& net);

 private:
  struct File {
    std::FILE* f = nullptr;
    PcapTarget target;
    uint64_t written = 0;
    models::EgressPort* port = nullptr;
  };
  std::vector<uint8_t> frame(const models::EgressPort& port, const models::Packet& p) const;

  std::filesystem::path dir_;
  int ack_every_ = 1;
  std::vector<File> files_;
  std::map<const models::EgressPort*, size_t> by_port_;
  uint64_t frames_ = 0;
  std::vector<uint8_t> buf_;
};

}  // namespace xoff::app
