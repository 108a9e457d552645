#include "models/switch/watchdog.h"

#include <algorithm>

#include "sim/rng.h"

namespace xoff::models {

PfcWatchdog::PfcWatchdog(Network& net, Node& sw, const WatchdogConfig& cfg, uint8_t lossless_mask,
                         uint64_t seed)
    : net_(net),
      sw_(sw),
      cfg_(cfg),
      lossless_mask_(lossless_mask),
      poll_timer_(net.sim(), *this, 0),
      log_(sim::logger("pfcwd")) {
  set_stream(sw.sim_stream());
  if (cfg_.random_phase && cfg_.poll_interval.count_ps() > 0) {
    sim::Rng rng(seed, "watchdog/" + sw.name());
    phase_ = sim::Duration::ps(static_cast<int64_t>(
        rng.uniform_int(static_cast<uint64_t>(cfg_.poll_interval.count_ps()))));
  } else {
    phase_ = sim::Duration::ps(cfg_.phase.count_ps() %
                               std::max<int64_t>(1, cfg_.poll_interval.count_ps()));
  }
}

void PfcWatchdog::add_port() {
  watch_.resize(watch_.size() + kNumClasses);
  drop_.resize(drop_.size() + kNumClasses);
}

void PfcWatchdog::on_pause_received() {
  if (cfg_.enabled && lossless_mask_ != 0 && !poll_timer_.armed()) arm_next_poll();
}

void PfcWatchdog::arm_next_poll() {
  const int64_t period = cfg_.poll_interval.count_ps();
  const int64_t phase = phase_.count_ps();
  const int64_t now = net_.sim().now().count_ps();
  // The first poll instant phase + k x period strictly after now.
  const int64_t next = now < phase ? phase : phase + ((now - phase) / period + 1) * period;
  poll_timer_.arm_at(sim::Time::from_ps(next));
}

void PfcWatchdog::handle_event(uint64_t) {
  bool watching = false;
  for (size_t p = 0; p < sw_.num_ports(); ++p) {
    EgressPort& port = sw_.port(PortIndex(static_cast<uint16_t>(p)));
    for (int tc = 0; tc < kNumClasses; ++tc) {
      if (!((lossless_mask_ >> tc) & 1)) continue;
      if (poll_queue(port, tc, watch_[p * kNumClasses + tc])) watching = true;
    }
  }
  if (watching) arm_next_poll();
}

// Returns true while the queue still needs polling.
bool PfcWatchdog::poll_queue(EgressPort& port, int tc, QueueWatch& w) {
  const sim::Time now = net_.sim().now();
  const bool recent_pause = now - port.last_pause_received(tc) < cfg_.restoration_time;
  if (w.stormed) {
    if (!recent_pause) restore(port, tc, w);
    return true;
  }
  const bool paused = port.paused_until(tc) > now;
  if (!paused || port.queued_packets(tc) == 0) {
    w.stuck_since = sim::Time::max();
    return paused || recent_pause;
  }
  if (w.stuck_since == sim::Time::max()) {
    w.stuck_since = now;
  } else if (port.last_dequeue(tc) > w.stuck_since) {
    w.stuck_since = port.last_dequeue(tc);
  }
  if (now - w.stuck_since >= cfg_.detection_time) storm(port, tc, w);
  return true;
}

void PfcWatchdog::storm(EgressPort& port, int tc, QueueWatch& w) {
  w.stormed = true;
  ++storms_;
  record(port, tc, "stormed");
  if (cfg_.action == WatchdogAction::kAlert) return;
  if (cfg_.action == WatchdogAction::kDrop) {  // flush first: unpausing starts a send
    uint8_t& d = drop_[port.index().value() * kNumClasses + tc];
    dropping_ += d == 0 ? 1 : 0;
    d = 1;
    port.flush_class(tc, DropReason::kWatchdog);
  }
  port.set_ignore_pause(tc, true);
}

void PfcWatchdog::restore(EgressPort& port, int tc, QueueWatch& w) {
  w.stormed = false;
  w.stuck_since = sim::Time::max();
  ++restorations_;
  uint8_t& d = drop_[port.index().value() * kNumClasses + tc];
  dropping_ -= d != 0 ? 1 : 0;
  d = 0;
  if (cfg_.action != WatchdogAction::kAlert) port.set_ignore_pause(tc, false);
  record(port, tc, "restored");
}

void PfcWatchdog::record(const EgressPort& port, int tc, const char* state) {
  log_->info("{}/p{} tc{} {} (action {})", sw_.name(), port.index().value(), tc, state,
             watchdog_action_name(cfg_.action));
  net_.recorder().watchdog_event(WatchdogEventRecord{net_.sim().now(), sw_.name(),
                                                     port.index().value(), static_cast<uint8_t>(tc),
                                                     state, watchdog_action_name(cfg_.action)});
}

}  // namespace xoff::models
