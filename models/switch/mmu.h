#pragma once
// The shared-buffer memory management unit of one switch, modelled on Broadcom
// (Trident/Tomahawk "MMU") and Mellanox Spectrum shared buffers.
//
// Partition of the buffer B (bytes), fixed once the ports are known:
//   B = reserved (min per (port, PG)) + headroom partition + shared pool.
// The headroom partition is the sum of the per-(port, lossless PG) headrooms, or
// that sum / oversubscription ratio when headroom is a shared pool.
//
// Ingress accounting per (port, PG). An arriving packet is charged, in order:
//   1. reserved, if the PG's reserve still has room for it;
//   2. lossless PG in XOFF: headroom (per-PG cap, and the pool cap if pooled);
//   3. shared, if the PG's shared bytes are below its threshold and the pool
//      has room. Threshold = alpha x (shared pool free) (dynamic threshold,
//      Choudhury & Hahne, "Dynamic queue length thresholds for shared-memory
//      packet switches", IEEE/ACM ToN 1998), or a static limit (alpha == 0).
//      With S congested PGs each settles at alpha x P / (1 + alpha x S), P the
//      pool size.
//   4. otherwise a lossless PG goes to XOFF (the packet to headroom) and a
//      lossy PG drops (lossy_ingress). A lossless packet that finds no
//      headroom is dropped as a lossless violation.
// A lossless PG also goes to XOFF when a packet charged to shared brings it to
// its threshold ("crosses" it). It returns to XON when its headroom is empty
// and its shared bytes fall to threshold - xon_offset (or to zero).
//
// Egress accounting per (port, queue), every data packet: a lossy queue at or
// above alpha_e x (shared pool free) drops arrivals (lossy_egress); lossless
// queues are never dropped at egress (802.1Qbb relies on the ingress side).
// A queue's bytes are its port's own count (EgressPort::queued_bytes), given
// to admit(): the MMU keeps only their sum (MmuTotals::egress), which the
// switch checks against its ports' queues (Switch::check_accounting).
//
// Release is by counts, not per-packet records: a dequeued packet frees its
// bytes from the PG's headroom first, then shared, then reserved (the reverse of
// the charging order, as Broadcom's cell counters do), so a Packet only needs
// its ingress port and PG (Packet::in_port, Packet::pg).
//
// Invariants, checked on every charge and release (always on): no counter is
// negative; reserved + shared + headroom <= B; egress bytes == ingress bytes
// (in sum).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/switch/switch_config.h"

namespace xoff::models {

struct PgState {
  int64_t reserved = 0;  // bytes charged to the (port, PG) reserve
  int64_t shared = 0;    // bytes charged to the shared pool
  int64_t headroom = 0;  // bytes charged to headroom (lossless only)
  int64_t peak_shared = 0;
  int64_t peak_headroom = 0;
  int64_t drops = 0;  // packets dropped at this PG (ingress reasons)
  bool xoff = false;  // lossless: PAUSE in force towards the upstream
  // This (port, PG)'s own headroom and XON offset: the PgConfig's, or its
  // port's buffer profile (Mmu::set_port_headroom).
  int64_t headroom_cap = 0;
  int64_t xon_offset = 0;
};

struct MmuTotals {
  int64_t reserved = 0;  // sum over PGs
  int64_t shared = 0;
  int64_t headroom = 0;
  int64_t egress = 0;  // bytes admitted to egress queues and not yet released
                       // (== reserved + shared + headroom)
  int64_t peak_shared = 0;
  int64_t peak_headroom = 0;
  int64_t peak_total = 0;
};

class Mmu {
 public:
  enum class Verdict : uint8_t { kAdmit, kLossyIngress, kLossyEgress, kLosslessViolation };
  struct Admission {
    Verdict verdict = Verdict::kAdmit;
    bool send_xoff = false;  // the PG just entered XOFF: send PAUSE upstream
  };

  explicit Mmu(const MmuConfig& cfg) : cfg_(cfg) {}

  // A port was wired: grows the state and repartitions the buffer. Aborts if
  // reserves and headroom no longer fit in B (validate() the config first).
  void add_port();
  // Which PGs of ingress port `port` are lossless: a PG is lossless there when
  // its PgConfig says so and its bit is set here (default: all set). A port
  // whose PFC is off for a class (DCBX, a per-device setting) takes that
  // class lossy: ingress-limit drops and no XOFF. The headroom partition is
  // carved out as configured either way. Before traffic only.
  void set_port_lossless(size_t port, uint8_t pg_mask);
  // A buffer profile for one port (SONiC's per speed and cable length): its
  // lossless PGs get this headroom and XON offset instead of the PgConfig's;
  // the headroom partition and the shared pool follow. Before traffic only.
  void set_port_headroom(size_t port, sim::Bytes headroom, sim::Bytes xon_offset);
  bool lossless(size_t port, int pg) const {
    return cfg_.pg[pg].lossless && ((port_lossless_[port] >> pg) & 1);
  }
  size_t num_ports() const { return pgs_.size() / kNumClasses; }

  // Ingress and egress admission of `bytes` from (in, pg) to an egress queue
  // of class tc that holds `queued` bytes now; charges them when admitted.
  Admission admit(size_t in, int pg, int tc, int64_t bytes, int64_t queued);
  // A packet charged to (in, pg) left its egress queue. Returns true when
  // (in, pg) just left XOFF.
  bool release(size_t in, int pg, int64_t bytes);
  // Re-evaluates XON for (in, pg) (thresholds move as other PGs drain). Returns
  // true when it just left XOFF.
  bool try_xon(size_t in, int pg);

  int64_t ingress_threshold(int pg) const;  // shared bytes a (port, pg) may hold now
  int64_t egress_threshold(int tc) const;   // bytes a lossy (port, tc) queue may hold now
  const PgState& pg(size_t port, int pg) const { return pgs_[port * kNumClasses + pg]; }
  const MmuTotals& totals() const { return totals_; }
  int64_t shared_pool() const { return shared_pool_; }
  int64_t headroom_pool() const { return headroom_pool_; }
  const MmuConfig& config() const { return cfg_; }
  // Nothing is charged anywhere.
  bool empty() const;
  // The always-on invariant check (also run on every charge and release):
  // one branch on the hot path, the message that names the broken invariant
  // out of line.
  void check() const {
    const MmuTotals& t = totals_;
    const int64_t held = t.reserved + t.shared + t.headroom;
    const bool ok = (t.reserved | t.shared | t.headroom | t.egress) >= 0 &&
                    held <= cfg_.total.count() && t.shared <= shared_pool_ &&
                    t.headroom <= headroom_pool_ && t.egress == held;
    if (!ok) [[unlikely]]
      fail_check();
  }

 private:
  bool shared_fits(const PgState& s, int pg, int64_t bytes) const;
  bool headroom_fits(const PgState& s, int64_t bytes) const;
  // Headroom partition and shared pool from headroom_sum_ and the reserves.
  void repartition();
  Admission admit_lossless(PgState& s, int pg, int64_t bytes);
  Verdict admit_lossy(PgState& s, int pg, int tc, int64_t bytes, int64_t queued);
  bool xon_condition(const PgState& s, int pg) const;
  void charge(PgState& s, int64_t* field, int64_t* total, int64_t bytes);
  [[noreturn]] void fail_check() const;  // names the broken invariant, aborts

  MmuConfig cfg_;
  std::vector<PgState> pgs_;            // [port * 8 + pg]
  std::vector<uint8_t> port_lossless_;  // [port]: PG bits, see set_port_lossless
  MmuTotals totals_;
  int64_t shared_pool_ = 0;
  int64_t headroom_pool_ = 0;  // size of the shared headroom pool (pooled mode)
  int64_t headroom_sum_ = 0;   // sum of every lossless (port, PG)'s headroom_cap
  bool pooled_headroom_ = false;
};

}  // namespace xoff::models
