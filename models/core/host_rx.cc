#include "models/core/host_rx.h"

#include <algorithm>

#include "models/core/host.h"
#include "sim/check.h"

namespace xoff::models {

ReceivePipeline::ReceivePipeline(Host& host, const SlowReceiverConfig& cfg)
    : host_(host), cfg_(cfg), refresh_(host.network().sim(), *this, kRefresh) {
  set_stream(host.sim_stream());
  XOFF_CHECK(cfg.rate.count() > 0, "slow receiver rate must be positive");
  XOFF_CHECK(cfg.xon <= cfg.xoff, "slow receiver: xon above xoff");
}

void ReceivePipeline::accept(Packet& p) {
  q_.push_back(&p);
  bytes_ += p.size.count();
  peak_ = std::max(peak_, bytes_);
  if (!xoff_ && bytes_ >= cfg_.xoff.count()) {
    xoff_ = true;
    pause(0xFFFF);
  }
  if (!busy_) start_next();
}

void ReceivePipeline::start_next() {
  if (q_.empty()) return;
  current_ = q_.pop_front();
  busy_ = true;
  host_.network().sim().schedule_in(sim::tx_time(current_->size, cfg_.rate), *this, kDone);
}

// XOFF lasts 65535 quanta at the NIC's speed; refresh at half that.
void ReceivePipeline::pause(uint16_t quanta) {
  host_.send_pause(cfg_.classes, quanta);
  if (quanta == 0) {
    refresh_.cancel();
    return;
  }
  const sim::Duration lasts =
      sim::tx_time(sim::Bytes(int64_t{64} * 0xFFFF), host_.nic_port().rate());
  refresh_.arm_in(lasts / 2);
}

void ReceivePipeline::handle_event(uint64_t tag) {
  if (tag == kRefresh) {
    reassert();
    return;
  }
  Packet& p = *current_;
  current_ = nullptr;
  busy_ = false;
  bytes_ -= p.size.count();
  XOFF_CHECK(bytes_ >= 0, "negative receive buffer");
  if (xoff_ && bytes_ <= cfg_.xon.count()) {
    xoff_ = false;
    pause(0);
  }
  start_next();
  host_.deliver(p);  // last: the transport may send, which may call back
}

}  // namespace xoff::models
