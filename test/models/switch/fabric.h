#pragma once
// Test fixtures for switch tests: hosts with a tiny transport that blasts
// packets at line rate and counts what it receives, a recorder that keeps PFC
// and watchdog events, and a one-shot action scheduler.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/core/host.h"
#include "models/core/network.h"
#include "models/switch/switch.h"
#include "sim/rng.h"
#include "test/models/core/test_nodes.h"

namespace xoff::models::test {

struct EventLog final : Recorder {
  std::vector<PfcEventRecord> pfc;
  std::vector<WatchdogEventRecord> watchdog;
  void pfc_event(const PfcEventRecord& r) override { pfc.push_back(r); }
  void watchdog_event(const WatchdogEventRecord& r) override { watchdog.push_back(r); }
  // PFC frames sent (sent == true) by `node`, XOFF (quanta > 0) or XON.
  std::vector<PfcEventRecord> sent(const std::string& node, bool xoff) const {
    std::vector<PfcEventRecord> out;
    for (const auto& r : pfc) {
      if (r.sent && r.node == node && (r.quanta > 0) == xoff) out.push_back(r);
    }
    return out;
  }
};

// What a Blaster sends: `count` packets to one of `dsts` (uniformly, from the
// host's own stream when there are several), of a size uniform in
// [min_size, max_size], with the given marking and host class.
struct SendSpec {
  std::vector<uint32_t> dsts;
  int64_t count = 0;
  int64_t min_size = 1000;
  int64_t max_size = 1000;
  uint8_t dscp = 26;
  uint8_t tc = 3;
  bool ecn_capable = false;
  uint32_t hash = 0;         // flow hash; 0: distinct per packet
  bool random_dscp = false;  // alternate 26 (lossless) / 0 (lossy) at random
};

class Blaster final : public Transport {
 public:
  Blaster(Network& net, Host& h) : net_(net), host_(h), rng_(7, h.name()) {
    h.attach(Protocol::kRoce, *this);
  }
  void start(const SendSpec& s) {
    spec_ = s;
    on_room();
  }
  void stop() { spec_.count = 0; }
  void receive(Packet& p) override {
    ++received;
    received_bytes += p.size.count();
    received_by_tc[p.tc] += 1;
    if (p.ce) ++received_ce;
    last_arrival = net_.sim().now();
    log.push_back({p.seq, p.ce, p.tc});
    net_.consume(p);
  }
  void on_room() override;

  struct Rx {
    int64_t seq;
    bool ce;
    int tc;
  };
  int64_t sent = 0;
  int64_t received = 0;
  int64_t received_bytes = 0;
  int64_t received_ce = 0;
  std::array<int64_t, 8> received_by_tc{};
  sim::Time last_arrival;
  std::vector<Rx> log;

 private:
  Network& net_;
  Host& host_;
  sim::Rng rng_;
  SendSpec spec_;
};

inline void Blaster::on_room() {
  while (spec_.count > 0 && host_.has_room(spec_.tc, Protocol::kRoce)) {
    const int64_t span = spec_.max_size - spec_.min_size + 1;
    const int64_t size =
        spec_.min_size + static_cast<int64_t>(rng_.uniform_int(static_cast<uint64_t>(span)));
    Packet& p = net_.make_packet(sim::Bytes(size));
    p.protocol = Protocol::kRoce;
    p.dst =
        spec_.dsts.size() == 1 ? spec_.dsts[0] : spec_.dsts[rng_.uniform_int(spec_.dsts.size())];
    p.dscp = spec_.random_dscp ? (rng_.uniform_int(2) ? 26 : 0) : spec_.dscp;
    p.tc = spec_.tc;
    p.seq = sent++;
    p.ecn_capable = spec_.ecn_capable;
    p.hash = spec_.hash != 0 ? spec_.hash : static_cast<uint32_t>(p.id * 2654435761u);
    --spec_.count;
    host_.send(p);
  }
}

struct Fabric {
  sim::Simulator sim;
  EventLog log;
  Network net{sim, &log};
  Script script{sim};
  std::vector<Host*> hosts;
  std::vector<std::unique_ptr<Blaster>> blasters;

  Host& add_host() {
    const auto ord = static_cast<uint32_t>(hosts.size());
    std::string name = "h";  // (not "h" + ...: GCC 12 -Wrestrict false positive)
    name += std::to_string(ord);
    Host& h = net.add_node<Host>(name, ord);
    net.register_host(h);
    hosts.push_back(&h);
    blasters.push_back(std::make_unique<Blaster>(net, h));
    return h;
  }
  Blaster& blaster(uint32_t ord) { return *blasters[ord]; }
  Switch& add_switch(const std::string& name, const SwitchConfig& c) {
    return net.add_node<Switch>(name, c);
  }
  void run_until(sim::Duration d) { sim.run_until(sim::Time::zero() + d); }
  static sim::Time at(sim::Duration d) { return sim::Time::zero() + d; }
};

// A config with every PG lossy, no reserves, no ECN: tests switch on what they need.
inline SwitchConfig plain_config(int64_t total_bytes) {
  SwitchConfig c;
  c.mmu.total = sim::Bytes(total_bytes);
  for (auto& pg : c.mmu.pg) {
    pg.lossless = false;
    pg.headroom = sim::Bytes(0);
  }
  for (auto& e : c.ecn.tc) e.enabled = false;
  return c;
}

}  // namespace xoff::models::test
