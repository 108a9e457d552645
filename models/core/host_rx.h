#pragma once
// A slow receiver: a host whose NIC hands packets to its transports at less
// than line rate (PCIe, memory or a busy CPU), buffering the rest and
// protecting that buffer with PFC, as real NICs do (host PFC).
//
// Packets of the protected classes queue in a receive buffer drained at
// `rate`. When the buffer reaches `xoff` bytes the host sends XOFF (0xFFFF
// quanta) for those classes and refreshes it at half its duration while above
// `xon`; falling to `xon` sends XON. Other classes and control frames bypass
// the buffer. Units: bit/s, bytes.
#include <cstdint>

#include "models/core/packet.h"
#include "models/core/ring.h"
#include "sim/timer.h"

namespace xoff::models {

class Host;

struct SlowReceiverConfig {
  sim::BitsPerSecond rate;   // drain rate of the receive buffer
  sim::Bytes xoff{64'000};   // buffer level that sends XOFF
  sim::Bytes xon{32'000};    // level at which XON is sent
  uint8_t classes = 1 << 3;  // classes that go through the buffer and get paused
};

class ReceivePipeline final : public sim::EventHandler {
 public:
  ReceivePipeline(Host& host, const SlowReceiverConfig& cfg);
  bool handles(const Packet& p) const { return (cfg_.classes >> p.tc) & 1; }
  // Takes `p` into the buffer; the host gets it back through deliver().
  void accept(Packet& p);
  int64_t held_bytes() const { return bytes_; }
  size_t held_packets() const { return q_.size() + (busy_ ? 1 : 0); }
  int64_t peak_bytes() const { return peak_; }
  // Still above XOFF: pauses the switch again (the refresh timer, and at once
  // when the link came back up: its PFC state was reset).
  void reassert() {
    if (xoff_) pause(0xFFFF);
  }
  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t tag) const override {
    return tag == kRefresh ? "host: PFC refresh (slow receiver)" : "host: receive pipeline";
  }

 private:
  enum Tag : uint64_t { kDone = 0, kRefresh = 1 };
  void start_next();
  void pause(uint16_t quanta);

  Host& host_;
  SlowReceiverConfig cfg_;
  Ring<Packet*> q_;
  Packet* current_ = nullptr;  // being handed to the transport
  bool busy_ = false;
  bool xoff_ = false;
  int64_t bytes_ = 0;  // buffered, the packet in progress included
  int64_t peak_ = 0;
  sim::Timer refresh_;
};

}  // namespace xoff::models
