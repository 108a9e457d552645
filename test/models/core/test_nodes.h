#pragma once
// Test fixtures shared by the core model tests (and the switch tests'
// fabric): a node that consumes what it receives and records it, and a
// scripted event source.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/core/network.h"
#include "models/core/node.h"

namespace xoff::models::test {

// Consumes everything and records (arrival time, class, size). A PAUSE
// pauses its port 0 (the frames it sends back, in tests that send any).
class Sink final : public Node {
 public:
  Sink(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}
  void receive(Packet& p, PortIndex) override {
    if (p.kind == PacketKind::kPause) {
      port(PortIndex(0)).receive_pause(p);
    } else {
      arrivals.push_back({net_.sim().now(), p.tc, p.size.count()});
      bytes_by_class[p.tc] += p.size.count();
    }
    net_.consume(p);
  }
  struct Arrival {
    sim::Time t;
    int tc;
    int64_t bytes;
  };
  std::vector<Arrival> arrivals;
  std::array<int64_t, 8> bytes_by_class{};

 private:
  Network& net_;
};

// Runs callbacks at given times (test scripting: pauses from a sink, link faults).
class Script final : public sim::EventHandler {
 public:
  explicit Script(sim::Simulator& sim) : sim_(sim) {}
  void at(sim::Time t, std::function<void()> f) {
    actions_.push_back(std::move(f));
    sim_.schedule_at(t, *this, actions_.size() - 1);
  }
  void handle_event(uint64_t tag) override { actions_[tag](); }

 private:
  sim::Simulator& sim_;
  std::vector<std::function<void()>> actions_;
};

}  // namespace xoff::models::test
