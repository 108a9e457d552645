#pragma once
// PFC generation at a switch's ingress (IEEE 802.1Qbb-2011 clause 36.1.3, the
// PFC M_CONTROL.request): when the MMU puts an ingress (port, PG) in XOFF, a
// PAUSE frame leaves that port upstream with `quanta` for every priority mapped
// to the PG; while the PG stays in XOFF the frame is resent at half its pause
// time (quanta x 512 bit times at the port's rate), so the upstream never
// resumes early; XON is the same frame with quanta 0.
//
// Priorities = traffic classes: a PG's PAUSE enables the classes c with
// tc_to_pg[c] == PG, on the assumption (true of the usual fabric-wide maps) that
// the upstream queues the packet in the same class.
//
// Counts XOFF frames (refreshes included) in the port's counters().pause_sent[c]
// and reports every frame to the recorder, one PfcEventRecord per class.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/network.h"
#include "models/switch/mmu.h"
#include "sim/log.h"
#include "sim/timer.h"

namespace xoff::models {

struct PfcCounters {
  int64_t xoff_sent = 0;  // XOFF episodes started
  int64_t refreshes = 0;  // XOFF frames resent during an episode
  int64_t xon_sent = 0;
};

class PfcGenerator final : public sim::EventHandler {
 public:
  PfcGenerator(Network& net, Node& sw, Mmu& mmu, const PfcConfig& cfg,
               const ClassificationConfig& cls);

  void add_port();
  void send_xoff(PortIndex in, int pg);
  void send_xon(PortIndex in, int pg);
  // The link of `in` came back up: every PG still in XOFF there is checked
  // at once as its refresh timer would check it: released (XON) if it has
  // drained below its XON threshold while the link was down, else pausing
  // the upstream again (counted as a refresh of its episode).
  void reassert(PortIndex in);
  // Bitmask of the classes a PAUSE for `pg` names.
  uint8_t class_mask(int pg) const { return pg_mask_[pg]; }
  sim::Duration refresh_interval(PortIndex in) const;
  const PfcCounters& counters(PortIndex in, int pg) const {
    return counters_[in.value() * kNumClasses + pg];
  }

  void handle_event(uint64_t slot) override;  // refresh timer of (port, PG) = slot
  const char* event_kind(uint64_t) const override { return "switch: PFC XOFF refresh / XON check"; }

 private:
  void send_frame(PortIndex in, int pg, uint16_t quanta);
  void check(PortIndex in, int pg);  // XON if it may, else refresh while in XOFF

  Network& net_;
  Node& sw_;
  Mmu& mmu_;
  PfcConfig cfg_;
  std::array<uint8_t, kNumClasses> pg_mask_{};
  std::vector<std::unique_ptr<sim::Timer>> refresh_;  // [port * 8 + pg]
  std::vector<PfcCounters> counters_;                 // [port * 8 + pg]
  std::shared_ptr<spdlog::logger> log_;
};

}  // namespace xoff::models
