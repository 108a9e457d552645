#pragma once
// The receiving half of a TCP connection: cumulative ACK point, out-of-order
// ranges, and the ACK policy. No payload is stored, only which bytes are in.
//
// Out-of-order data is kept as sorted, disjoint, non-touching byte ranges
// [start, end) in a vector that keeps its capacity when the connection slot is
// reused, so nothing is allocated per segment after warm-up (a window with one
// hole is one range).
//
// ACK policy (RFC 5681 §4.2, RFC 1122 §4.2.3.2), decided per data segment:
//   immediately for an out-of-order or duplicate segment (the duplicate ACK
//   that drives fast retransmit), for a segment that fills a hole, for the
//   segment that completes the expected message, and for every segment when
//   delayed ACK is off; otherwise after `delayed_ack_segments` in-order
//   segments or the delayed-ACK timeout.
// ECN echo (RFC 8257 §3.2, used for classic ECN too): an ACK carries ECE when
// the segments it acknowledges arrived CE-marked. With delayed ACK on, a change
// of CE state first flushes the owed ACK with the old state, so each ACK covers
// segments of one state; RFC 3168's latch-until-CWR is not needed because
// senders react at most once per window anyway.
#include <cstdint>
#include <vector>

namespace xoff::models {

enum class AckUrgency : uint8_t { kNow, kDelay };

struct TcpReceiverState {
  int64_t expected = 0;      // bytes of the message; 0 = no receive half
  int64_t rcv_nxt = 0;       // next byte expected in order (the cumulative ACK)
  int unacked_segments = 0;  // in-order segments since the last ACK
  bool ack_pending = false;  // an ACK is owed
  bool ece_pending = false;  // ... and it carries ECE
  bool ce_state = false;     // CE of the last segment (RFC 8257 DCTCP.CE)
};

class TcpReceiver {
 public:
  struct Range {
    int64_t start;
    int64_t end;
  };

  // Prepares for a message of `bytes` (0: this end receives nothing).
  void start(int64_t bytes);
  bool complete() const { return s_.expected > 0 && s_.rcv_nxt >= s_.expected; }
  // True if, with delayed ACK, an owed ACK must go out before a segment with `ce`.
  bool must_flush_before(bool ce) const { return s_.ack_pending && ce != s_.ce_state; }
  // A data segment [seq, seq + len) arrived; returns when to ACK.
  AckUrgency on_segment(int64_t seq, int64_t len, bool ce, bool delayed_ack, int delack_segments);
  // An ACK (pure or piggybacked) carrying rcv_nxt and ece_pending went out.
  void ack_sent();

  const TcpReceiverState& state() const { return s_; }
  const std::vector<Range>& out_of_order() const { return ooo_; }

 private:
  void insert(int64_t start, int64_t end);
  // Advances rcv_nxt over the ranges it now reaches.
  void absorb();

  TcpReceiverState s_;
  std::vector<Range> ooo_;
};

}  // namespace xoff::models
