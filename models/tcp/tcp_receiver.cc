#include "models/tcp/tcp_receiver.h"

#include <algorithm>

namespace xoff::models {

void TcpReceiver::start(int64_t bytes) {
  s_ = TcpReceiverState{};
  s_.expected = bytes;
  ooo_.clear();  // keeps capacity
}

AckUrgency TcpReceiver::on_segment(int64_t seq, int64_t len, bool ce, bool delayed_ack,
                                   int delack_segments) {
  s_.ce_state = ce;
  s_.ack_pending = true;
  s_.ece_pending = ce;
  const int64_t end = seq + len;
  if (end <= s_.rcv_nxt) return AckUrgency::kNow;  // duplicate
  if (seq > s_.rcv_nxt) {                          // out of order: duplicate ACK
    insert(seq, end);
    return AckUrgency::kNow;
  }
  const bool had_gap = !ooo_.empty();  // this segment fills all or part of it
  s_.rcv_nxt = end;
  absorb();
  if (had_gap || !delayed_ack || complete()) return AckUrgency::kNow;
  return ++s_.unacked_segments >= delack_segments ? AckUrgency::kNow : AckUrgency::kDelay;
}

void TcpReceiver::ack_sent() {
  s_.ack_pending = false;
  s_.unacked_segments = 0;
}

// Keeps ooo_ sorted, disjoint and non-touching: merges [start, end) with every
// range it overlaps or abuts.
void TcpReceiver::insert(int64_t start, int64_t end) {
  auto it = std::lower_bound(ooo_.begin(), ooo_.end(), start,
                             [](const Range& r, int64_t s) { return r.end < s; });
  if (it == ooo_.end() || it->start > end) {
    ooo_.insert(it, Range{start, end});
    return;
  }
  it->start = std::min(it->start, start);
  it->end = std::max(it->end, end);
  auto next = it + 1;
  while (next != ooo_.end() && next->start <= it->end) {
    it->end = std::max(it->end, next->end);
    ++next;
  }
  ooo_.erase(it + 1, next);
}

void TcpReceiver::absorb() {
  size_t n = 0;
  while (n < ooo_.size() && ooo_[n].start <= s_.rcv_nxt) {
    s_.rcv_nxt = std::max(s_.rcv_nxt, ooo_[n].end);
    ++n;
  }
  ooo_.erase(ooo_.begin(), ooo_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace xoff::models
