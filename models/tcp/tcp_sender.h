#pragma once
// The sending half of a TCP connection: NewReno congestion control with an
// optional DCTCP or classic-ECN response. Pure state machine: it decides which
// segment goes next and how ACKs and timeouts change the window; the stack
// builds the packets and owns the timer.
//
// Byte sequence numbers start at 0; all sizes are bytes.
//   Slow start (RFC 5681 §3.1, RFC 3465 ABC with L = 2): cwnd += min(acked, 2·SMSS).
//   Congestion avoidance: bytes counted; +1 SMSS each time a full cwnd of bytes
//     has been acknowledged (RFC 5681 eq. 3 in its byte-counting form).
//   The window only grows while the sender is using it (RFC 7661's idea, as
//     Linux's tcp_is_cwnd_limited): in slow start when flight ≥ cwnd/2, in
//     avoidance when flight + SMSS ≥ cwnd, so a NIC-limited flow's cwnd stays put.
//   Fast retransmit on the 3rd duplicate ACK when the ACK covers `recover`
//     (RFC 6582 §3.2 step 2): ssthresh = max(flight/2, 2·SMSS), cwnd = ssthresh
//     + 3·SMSS, retransmit snd_una. Further dup ACKs inflate cwnd by SMSS.
//     Partial ACK: retransmit the next hole, deflate cwnd by the bytes acked
//     (+ SMSS), restart the timer on the first one only ("impatient" variant).
//     Full ACK: cwnd = min(ssthresh, max(flight, SMSS) + SMSS) (option 1).
//   RTO (RFC 5681 eq. 4, RFC 6298 §5): ssthresh = max(flight/2, 2·SMSS) unless
//     this segment was already resent by the timer, cwnd = 1 SMSS, go back to
//     snd_una (the receiver's reorder buffer makes the ACK jump over what it
//     holds), recover = snd_max, RTO doubles.
//   DCTCP (RFC 8257 §3.3): per observation window (ends when snd_una passes
//     window_end, then window_end = snd_nxt): F = marked/acked bytes,
//     alpha = (1 − g)·alpha + g·F. On an ACK with ECE, at most once per window
//     of data: cwnd = max(cwnd·(1 − alpha/2), 2·SMSS), ssthresh = cwnd.
//   Classic ECN (RFC 3168 §6.1.2): the same once-per-window cut with factor 1/2.
//   Loss and ECN responses share the once-per-window guard (cwr_end).
// RTT: one timed segment per flight (Karn: never a retransmitted one; any
// retransmission cancels the timing). Not modelled: SACK, limited transmit,
// F-RTO, pacing, the receive-window handshake (receive_window caps flight).
#include <cstdint>
#include <limits>

#include "models/tcp/rtt_estimator.h"
#include "models/tcp/tcp_config.h"
#include "sim/units.h"

namespace xoff::models {

struct TcpSegment {
  int64_t seq = 0;
  int64_t len = 0;
  bool retransmission = false;
  bool cwr = false;  // the first new segment after an ECN window cut (RFC 3168 6.1.2)
};

struct TcpAckResult {
  bool new_data = false;       // snd_una advanced
  bool restart_timer = false;  // RFC 6298 (5.3)
  bool has_event = false;
  TcpEventKind event = TcpEventKind::kFastRetransmit;
  int64_t flight = 0;  // bytes outstanding before the event
};

struct TcpSenderState {
  int64_t end = 0;      // bytes of the transfer (last byte + 1)
  int64_t snd_una = 0;  // oldest unacknowledged byte
  int64_t snd_nxt = 0;  // next byte to send (an RTO resets it to snd_una)
  int64_t snd_max = 0;  // highest byte sent + 1
  int64_t cwnd = 0;     // congestion window, bytes
  int64_t ssthresh = std::numeric_limits<int64_t>::max();  // "infinite" until a loss
  int64_t recover = 0;   // RFC 6582 `recover` (exclusive: snd_max at the loss)
  int64_t ca_acked = 0;  // bytes acked towards the next +SMSS in avoidance
  int64_t cwr_end = 0;   // no further window cut until an ACK passes this
  int dupacks = 0;
  int backoff = 0;  // RTO expiries since snd_una last advanced
  bool in_recovery = false;
  bool retransmit_pending = false;  // the segment at snd_una goes out next
  bool first_partial = true;
  bool cwr_pending = false;  // an ECN cut happened: flag CWR on the next new segment
  bool timing = false;       // an RTT measurement is running
  int64_t timed_end = 0;     // ... on the segment ending here
  sim::Time timed_at;        // ... sent at this time
  double alpha = 1.0;        // DCTCP congestion estimate in [0, 1]
  int64_t window_end = 0;    // DCTCP observation window end
  int64_t acked_in_window = 0;
  int64_t marked_in_window = 0;
  int64_t retransmitted_bytes = 0;  // payload bytes sent more than once
};

class TcpSender {
 public:
  explicit TcpSender(const TcpConfig& cfg);

  // Forgets everything: a fresh connection with nothing to send yet.
  void reset();
  // Begins a transfer of `bytes` (> 0) on a fresh connection.
  void start(int64_t bytes);
  bool started() const { return s_.end > 0; }
  bool done() const { return started() && s_.snd_una == s_.end; }
  // A segment may go out now (a pending retransmission, or window room).
  bool can_send() const;
  // The next segment to transmit; pre: can_send().
  TcpSegment next_segment(sim::Time now);
  // A cumulative ACK; `pure` when it carried no data (only those count as duplicates).
  TcpAckResult on_ack(int64_t ack, bool ece, bool pure, sim::Time now);
  // The retransmission timer expired; false if nothing was outstanding.
  bool on_timeout();

  const TcpSenderState& state() const { return s_; }
  int64_t flight() const { return s_.snd_nxt - s_.snd_una; }
  sim::Duration rto() const { return rtt_.rto(); }
  const RttEstimator& rtt() const { return rtt_; }

 private:
  int64_t segment_length(int64_t seq) const;
  int64_t window() const;
  bool on_dupack(TcpAckResult& r);
  void enter_recovery();
  void recovery_ack(int64_t acked, TcpAckResult& r);
  void grow(int64_t acked, int64_t flight_before);
  void ecn_cut();
  void dctcp_observe(int64_t acked, bool ece);
  void sample_rtt(int64_t ack, sim::Time now);

  int64_t mss_;
  int64_t initial_cwnd_;
  int64_t rwnd_;
  int dupthresh_;
  bool ecn_;
  bool dctcp_;
  double g_;
  double initial_alpha_;
  RttEstimator rtt_;
  TcpSenderState s_;
};

}  // namespace xoff::models
