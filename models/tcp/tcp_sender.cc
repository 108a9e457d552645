#include "models/tcp/tcp_sender.h"

#include <algorithm>

#include "sim/check.h"

namespace xoff::models {

TcpSender::TcpSender(const TcpConfig& cfg)
    : mss_(cfg.mss.count()),
      initial_cwnd_(cfg.initial_window * cfg.mss.count()),
      rwnd_(cfg.receive_window.count()),
      dupthresh_(cfg.dupack_threshold),
      ecn_(cfg.ecn_capable()),
      dctcp_(cfg.dctcp),
      g_(cfg.dctcp_g),
      initial_alpha_(cfg.dctcp_initial_alpha),
      rtt_(cfg.min_rto, cfg.initial_rto, cfg.max_rto) {}

void TcpSender::reset() {
  s_ = TcpSenderState{};
  rtt_.reset();
}

void TcpSender::start(int64_t bytes) {
  XOFF_CHECK(bytes > 0, "a TCP transfer needs at least one byte");
  reset();
  s_.end = bytes;
  s_.cwnd = initial_cwnd_;
  s_.alpha = initial_alpha_;
}

int64_t TcpSender::segment_length(int64_t seq) const { return std::min(mss_, s_.end - seq); }

int64_t TcpSender::window() const { return rwnd_ > 0 ? std::min(s_.cwnd, rwnd_) : s_.cwnd; }

bool TcpSender::can_send() const {
  if (s_.retransmit_pending) return true;
  if (s_.snd_nxt >= s_.end) return false;
  const int64_t f = flight();
  return f == 0 || f + segment_length(s_.snd_nxt) <= window();
}

TcpSegment TcpSender::next_segment(sim::Time now) {
  if (s_.retransmit_pending) {
    s_.retransmit_pending = false;
    s_.timing = false;  // Karn
    const TcpSegment seg{s_.snd_una, segment_length(s_.snd_una), true};
    s_.retransmitted_bytes += seg.len;
    return seg;
  }
  TcpSegment seg{s_.snd_nxt, segment_length(s_.snd_nxt), s_.snd_nxt < s_.snd_max};
  if (!seg.retransmission && s_.cwr_pending) {
    seg.cwr = true;
    s_.cwr_pending = false;
  }
  s_.snd_nxt += seg.len;
  s_.snd_max = std::max(s_.snd_max, s_.snd_nxt);
  if (seg.retransmission) {
    s_.retransmitted_bytes += seg.len;
  } else if (!s_.timing) {
    s_.timing = true;
    s_.timed_end = s_.snd_nxt;
    s_.timed_at = now;
  }
  return seg;
}

TcpAckResult TcpSender::on_ack(int64_t ack, bool ece, bool pure, sim::Time now) {
  TcpAckResult r;
  XOFF_CHECK(ack <= s_.snd_max, "TCP ACK beyond anything sent");
  if (ack <= s_.snd_una) {
    if (pure && ack == s_.snd_una && s_.snd_una < s_.snd_max) r.has_event = on_dupack(r);
    return r;
  }
  const int64_t acked = ack - s_.snd_una;
  const int64_t flight_before = flight();
  s_.snd_una = ack;
  s_.snd_nxt = std::max(s_.snd_nxt, ack);
  s_.dupacks = 0;
  s_.backoff = 0;
  r.new_data = r.restart_timer = true;
  sample_rtt(ack, now);
  if (dctcp_) dctcp_observe(acked, ece);
  r.flight = flight_before;
  if (s_.in_recovery) {
    recovery_ack(acked, r);
  } else if (ece && ecn_ && ack > s_.cwr_end) {
    ecn_cut();
    r.has_event = true;
    r.event = TcpEventKind::kEcnCut;
  } else {
    grow(acked, flight_before);
  }
  return r;
}

bool TcpSender::on_dupack(TcpAckResult& r) {
  ++s_.dupacks;
  if (s_.in_recovery) {
    s_.cwnd += mss_;  // each dup ACK: one more segment has left the network
    return false;
  }
  if (s_.dupacks != dupthresh_ || s_.snd_una < s_.recover) return false;
  r.flight = flight();
  enter_recovery();
  r.event = TcpEventKind::kFastRetransmit;
  return true;
}

void TcpSender::enter_recovery() {
  s_.ssthresh = std::max(flight() / 2, 2 * mss_);
  s_.cwnd = s_.ssthresh + dupthresh_ * mss_;
  s_.recover = s_.cwr_end = s_.snd_max;
  s_.ca_acked = 0;
  s_.in_recovery = true;
  s_.retransmit_pending = true;
  s_.first_partial = true;
}

void TcpSender::recovery_ack(int64_t acked, TcpAckResult& r) {
  r.has_event = true;
  if (s_.snd_una >= s_.recover) {  // full ACK: leave recovery, deflate
    s_.cwnd = std::min(s_.ssthresh, std::max(flight(), mss_) + mss_);
    s_.in_recovery = false;
    r.event = TcpEventKind::kRecoveryExit;
    return;
  }
  s_.retransmit_pending = true;  // partial ACK: the next hole
  s_.cwnd = std::max(s_.cwnd - acked + (acked >= mss_ ? mss_ : 0), mss_);
  r.restart_timer = s_.first_partial;
  s_.first_partial = false;
  r.event = TcpEventKind::kPartialAck;
}

void TcpSender::grow(int64_t acked, int64_t flight_before) {
  if (s_.cwnd < s_.ssthresh) {
    if (2 * flight_before >= s_.cwnd) s_.cwnd += std::min(acked, 2 * mss_);
    return;
  }
  if (flight_before + mss_ < s_.cwnd) return;
  s_.ca_acked += acked;
  if (s_.ca_acked >= s_.cwnd) {
    s_.ca_acked -= s_.cwnd;
    s_.cwnd += mss_;
  }
}

void TcpSender::ecn_cut() {
  const double keep = dctcp_ ? 1.0 - s_.alpha / 2 : 0.5;
  s_.cwnd = std::max(static_cast<int64_t>(static_cast<double>(s_.cwnd) * keep), 2 * mss_);
  s_.ssthresh = s_.cwnd;
  s_.ca_acked = 0;
  s_.cwr_end = s_.snd_max;
  s_.cwr_pending = true;
}

void TcpSender::dctcp_observe(int64_t acked, bool ece) {
  s_.acked_in_window += acked;
  if (ece) s_.marked_in_window += acked;
  if (s_.snd_una <= s_.window_end) return;
  const double f =
      static_cast<double>(s_.marked_in_window) / static_cast<double>(s_.acked_in_window);
  s_.alpha = (1.0 - g_) * s_.alpha + g_ * f;
  s_.acked_in_window = s_.marked_in_window = 0;
  s_.window_end = s_.snd_nxt;
}

void TcpSender::sample_rtt(int64_t ack, sim::Time now) {
  if (!s_.timing || ack < s_.timed_end) return;
  s_.timing = false;
  rtt_.sample(now - s_.timed_at);
}

bool TcpSender::on_timeout() {
  if (!started() || s_.snd_una >= s_.end) return false;
  if (s_.backoff == 0) s_.ssthresh = std::max(flight() / 2, 2 * mss_);
  s_.cwnd = mss_;
  s_.ca_acked = 0;
  s_.recover = s_.cwr_end = s_.snd_max;
  s_.in_recovery = false;
  s_.retransmit_pending = false;
  s_.dupacks = 0;
  s_.snd_nxt = s_.snd_una;
  s_.timing = false;
  ++s_.backoff;
  rtt_.back_off();
  return true;
}

}  // namespace xoff::models
