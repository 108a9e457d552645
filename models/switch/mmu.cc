#include "models/switch/mmu.h"

#include <algorithm>
#include <string>

#include "sim/check.h"

namespace xoff::models {

void Mmu::add_port() {
  XOFF_CHECK(empty(), "MMU: ports must be wired before traffic");
  pgs_.resize(pgs_.size() + kNumClasses);
  port_lossless_.push_back(0xff);
  for (int pg = 0; pg < kNumClasses; ++pg) {
    PgState& s = pgs_[pgs_.size() - kNumClasses + static_cast<size_t>(pg)];
    s.headroom_cap = cfg_.pg[pg].headroom.count();
    s.xon_offset = cfg_.pg[pg].xon_offset.count();
  }
  headroom_sum_ += lossless_headroom_per_port(cfg_);
  pooled_headroom_ = cfg_.headroom_oversubscription >= 1;
  repartition();
  XOFF_CHECK(shared_pool_ > 0, "MMU: reserves and headroom of " + std::to_string(num_ports()) +
                                   " ports leave no shared pool in " +
                                   std::to_string(cfg_.total.count()) + " B");
}

void Mmu::repartition() {
  headroom_pool_ = headroom_partition_of(cfg_, headroom_sum_);
  shared_pool_ = cfg_.total.count() - reserved_bytes(cfg_, num_ports()) - headroom_pool_;
}

void Mmu::set_port_lossless(size_t port, uint8_t pg_mask) {
  XOFF_CHECK(empty(), "MMU: per-port PFC must be set before traffic");
  XOFF_CHECK(port < port_lossless_.size(), "MMU: no port " + std::to_string(port));
  port_lossless_[port] = pg_mask;
}

void Mmu::set_port_headroom(size_t port, sim::Bytes headroom, sim::Bytes xon_offset) {
  XOFF_CHECK(empty(), "MMU: buffer profiles must be set before traffic");
  XOFF_CHECK(port < num_ports(), "MMU: no port " + std::to_string(port));
  XOFF_CHECK(headroom.count() >= 0 && xon_offset.count() >= 0, "MMU: negative buffer profile");
  for (int pg = 0; pg < kNumClasses; ++pg) {
    if (!cfg_.pg[pg].lossless) continue;
    PgState& s = pgs_[port * kNumClasses + static_cast<size_t>(pg)];
    headroom_sum_ += headroom.count() - s.headroom_cap;
    s.headroom_cap = headroom.count();
    s.xon_offset = xon_offset.count();
  }
  repartition();
  XOFF_CHECK(shared_pool_ > 0, "MMU: buffer profiles leave no shared pool in " +
                                   std::to_string(cfg_.total.count()) + " B");
}

int64_t Mmu::ingress_threshold(int pg) const {
  const PgConfig& c = cfg_.pg[pg];
  if (c.alpha == 0) return c.static_limit.count();
  const int64_t free = std::max<int64_t>(0, shared_pool_ - totals_.shared);
  return static_cast<int64_t>(c.alpha * static_cast<double>(free));
}

int64_t Mmu::egress_threshold(int tc) const {
  const EgressQueueConfig& c = cfg_.egress[tc];
  if (c.alpha == 0) return c.static_limit.count();
  const int64_t free = std::max<int64_t>(0, shared_pool_ - totals_.shared);
  return static_cast<int64_t>(c.alpha * static_cast<double>(free));
}

bool Mmu::shared_fits(const PgState& s, int pg, int64_t bytes) const {
  return s.shared < ingress_threshold(pg) && totals_.shared + bytes <= shared_pool_;
}

bool Mmu::headroom_fits(const PgState& s, int64_t bytes) const {
  if (s.headroom + bytes > s.headroom_cap) return false;
  return !pooled_headroom_ || totals_.headroom + bytes <= headroom_pool_;
}

Mmu::Admission Mmu::admit(size_t in, int pg, int tc, int64_t bytes, int64_t queued) {
  PgState& s = pgs_[in * kNumClasses + pg];
  Admission a;
  if (lossless(in, pg)) {
    a = admit_lossless(s, pg, bytes);
  } else {
    a.verdict = admit_lossy(s, pg, tc, bytes, queued);
  }
  if (a.verdict == Verdict::kAdmit) {
    totals_.egress += bytes;
  } else {
    ++s.drops;
  }
  check();
  return a;
}

// Reserve, then (in XOFF) headroom, then shared up to the threshold; the packet
// that reaches the threshold, or finds no room below it, puts the PG in XOFF.
Mmu::Admission Mmu::admit_lossless(PgState& s, int pg, int64_t bytes) {
  Admission a;
  if (s.reserved + bytes <= cfg_.pg[pg].reserved.count()) {
    charge(s, &s.reserved, &totals_.reserved, bytes);
    return a;
  }
  if (!s.xoff && shared_fits(s, pg, bytes)) {
    charge(s, &s.shared, &totals_.shared, bytes);
    if (s.shared >= ingress_threshold(pg)) a.send_xoff = s.xoff = true;
    return a;
  }
  if (!s.xoff) a.send_xoff = s.xoff = true;
  if (headroom_fits(s, bytes)) {
    charge(s, &s.headroom, &totals_.headroom, bytes);
  } else {
    a.verdict = Verdict::kLosslessViolation;
  }
  return a;
}

Mmu::Verdict Mmu::admit_lossy(PgState& s, int pg, int tc, int64_t bytes, int64_t queued) {
  int64_t* field = &s.reserved;
  int64_t* total = &totals_.reserved;
  if (s.reserved + bytes > cfg_.pg[pg].reserved.count()) {
    if (!shared_fits(s, pg, bytes)) return Verdict::kLossyIngress;
    field = &s.shared;
    total = &totals_.shared;
  }
  if (queued >= egress_threshold(tc)) return Verdict::kLossyEgress;
  charge(s, field, total, bytes);
  return Verdict::kAdmit;
}

// Only the charged field, its total and the sum can reach a new peak.
void Mmu::charge(PgState& s, int64_t* field, int64_t* total, int64_t bytes) {
  *field += bytes;
  *total += bytes;
  if (field == &s.shared) {
    s.peak_shared = std::max(s.peak_shared, s.shared);
    totals_.peak_shared = std::max(totals_.peak_shared, totals_.shared);
  } else if (field == &s.headroom) {
    s.peak_headroom = std::max(s.peak_headroom, s.headroom);
    totals_.peak_headroom = std::max(totals_.peak_headroom, totals_.headroom);
  }
  totals_.peak_total =
      std::max(totals_.peak_total, totals_.reserved + totals_.shared + totals_.headroom);
}

bool Mmu::release(size_t in, int pg, int64_t bytes) {
  PgState& s = pgs_[in * kNumClasses + pg];
  int64_t left = bytes;
  for (auto [field, total] :
       {std::pair{&s.headroom, &totals_.headroom}, std::pair{&s.shared, &totals_.shared},
        std::pair{&s.reserved, &totals_.reserved}}) {
    const int64_t take = std::min(left, *field);
    *field -= take;
    *total -= take;
    left -= take;
  }
  XOFF_CHECK(left == 0, "MMU: released more bytes than the PG holds");
  totals_.egress -= bytes;
  check();
  return try_xon(in, pg);
}

// XON needs the headroom empty as well as shared below threshold - offset: a PG
// reopened with bytes still in headroom could not absorb a full round trip at
// its next XOFF, and would drop lossless traffic although its headroom was
// sized to the bound. (A rising dynamic threshold can satisfy the shared test
// while headroom still holds the last episode's in-flight bytes.)
bool Mmu::xon_condition(const PgState& s, int pg) const {
  if (s.headroom > 0) return false;
  return s.shared == 0 || s.shared <= ingress_threshold(pg) - s.xon_offset;
}

bool Mmu::try_xon(size_t in, int pg) {
  PgState& s = pgs_[in * kNumClasses + pg];
  if (!s.xoff || !xon_condition(s, pg)) return false;
  s.xoff = false;
  return true;
}

bool Mmu::empty() const {
  return totals_.reserved == 0 && totals_.shared == 0 && totals_.headroom == 0 &&
         totals_.egress == 0;
}

void Mmu::fail_check() const {
  XOFF_CHECK(
      totals_.reserved >= 0 && totals_.shared >= 0 && totals_.headroom >= 0 && totals_.egress >= 0,
      "MMU: negative occupancy");
  XOFF_CHECK(totals_.reserved + totals_.shared + totals_.headroom <= cfg_.total.count(),
             "MMU: reserved + shared + headroom exceeds the buffer");
  XOFF_CHECK(totals_.shared <= shared_pool_, "MMU: shared pool overfull");
  XOFF_CHECK(totals_.headroom <= headroom_pool_, "MMU: headroom partition overfull");
  XOFF_CHECK(totals_.egress == totals_.reserved + totals_.shared + totals_.headroom,
             "MMU: egress and ingress accounting disagree");
  XOFF_CHECK(false, "MMU: invariant check failed");  // not reached: one of the above fired
}

}  // namespace xoff::models
