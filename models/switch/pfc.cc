#include "models/switch/pfc.h"

namespace xoff::models {

PfcGenerator::PfcGenerator(Network& net, Node& sw, Mmu& mmu, const PfcConfig& cfg,
                           const ClassificationConfig& cls)
    : net_(net), sw_(sw), mmu_(mmu), cfg_(cfg), log_(sim::logger("pfc")) {
  set_stream(sw.sim_stream());
  for (int tc = 0; tc < kNumClasses; ++tc) {
    pg_mask_[cls.tc_to_pg[tc]] = static_cast<uint8_t>(pg_mask_[cls.tc_to_pg[tc]] | (1u << tc));
  }
}

void PfcGenerator::add_port() {
  for (int pg = 0; pg < kNumClasses; ++pg) {
    const uint64_t slot = refresh_.size();
    refresh_.push_back(std::make_unique<sim::Timer>(net_.sim(), *this, slot));
    counters_.emplace_back();
  }
}

sim::Duration PfcGenerator::refresh_interval(PortIndex in) const {
  // One quantum = 512 bit times = the time of 64 bytes at the port's rate.
  const sim::Bytes pause_bits_as_bytes(int64_t{64} * cfg_.quanta);
  return sim::tx_time(pause_bits_as_bytes, sw_.port(in).rate()) / 2;
}

void PfcGenerator::send_xoff(PortIndex in, int pg) {
  ++counters_[in.value() * kNumClasses + pg].xoff_sent;
  const PgState& s = mmu_.pg(in.value(), pg);
  log_->debug("{}/p{} pg{} XOFF: shared {} B, threshold {} B, headroom {} B", sw_.name(),
              in.value(), pg, s.shared, mmu_.ingress_threshold(pg), s.headroom);
  send_frame(in, pg, cfg_.quanta);
  refresh_[in.value() * kNumClasses + pg]->arm_in(refresh_interval(in));
}

void PfcGenerator::send_xon(PortIndex in, int pg) {
  ++counters_[in.value() * kNumClasses + pg].xon_sent;
  const PgState& s = mmu_.pg(in.value(), pg);
  log_->debug("{}/p{} pg{} XON: shared {} B + headroom {} B, threshold {} B", sw_.name(),
              in.value(), pg, s.shared, s.headroom, mmu_.ingress_threshold(pg));
  refresh_[in.value() * kNumClasses + pg]->cancel();
  send_frame(in, pg, 0);
}

void PfcGenerator::reassert(PortIndex in) {
  for (int pg = 0; pg < kNumClasses; ++pg) check(in, pg);
}

void PfcGenerator::send_frame(PortIndex in, int pg, uint16_t quanta) {
  Packet& f = net_.make_packet(kPauseFrameBytes);
  f.kind = PacketKind::kPause;
  f.pause_enable = pg_mask_[pg];
  EgressPort& port = sw_.port(in);
  for (int tc = 0; tc < kNumClasses; ++tc) {
    if (!((pg_mask_[pg] >> tc) & 1)) continue;
    f.set_pause_quanta(tc, quanta);
    if (quanta > 0) port.count_pause_sent(tc);
    net_.recorder().pfc_event(PfcEventRecord{net_.sim().now(), sw_.name(), in.value(),
                                             static_cast<uint8_t>(tc), true, quanta});
  }
  port.enqueue_control(f);
}

// While the PG is still in XOFF, resend before the upstream's pause expires;
// thresholds move as other PGs drain, so XON is re-evaluated here too.
void PfcGenerator::handle_event(uint64_t slot) {
  check(PortIndex(static_cast<uint16_t>(slot / kNumClasses)), static_cast<int>(slot % kNumClasses));
}

// XON if the PG may leave XOFF, else, still in XOFF, XOFF again within its
// episode and the next refresh half a pause later; a PG not in XOFF: nothing.
void PfcGenerator::check(PortIndex in, int pg) {
  if (mmu_.try_xon(in.value(), pg)) {
    send_xon(in, pg);
    return;
  }
  if (!mmu_.pg(in.value(), pg).xoff) return;
  const size_t slot = in.value() * kNumClasses + static_cast<size_t>(pg);
  ++counters_[slot].refreshes;
  send_frame(in, pg, cfg_.quanta);
  refresh_[slot]->arm_in(refresh_interval(in));
}

}  // namespace xoff::models
