#pragma once
// An egress port: the transmit side of one direction of a full-duplex link.
//
// Eight class queues plus a control queue. The control queue (PFC PAUSE, CNP)
// is always served first, never behind a paused class. Data classes: strict
// priority for classes marked strict (higher class number first), then DWRR by
// weight among the rest (Shreedhar & Varghese 1995; quantum = weight × MTU).
// A class paused by PFC is not eligible. Transmission is store-and-forward: the
// packet is handed to the peer at its last bit plus the propagation delay.
//
// The end of a transmission is an event only when something is to be done
// then: a frame waits behind it, or the owner asks to hear that the port went
// idle (hosts). Otherwise the port just remembers when the wire is free
// (busy_until), and the next frame to arrive starts at once if that time has
// passed. A frame's arrival at the peer is fixed (time and place in the event
// order) when its transmission starts: start + serialization + propagation.
// On a switch port that is not congested, this halves the events per hop.
//
// PFC receive side (802.1Qbb): a PAUSE for class c with quanta q, received at t,
// stops class c from t + response_delay for q × 512 bit times at this port's
// rate; quanta 0 (XON) resumes it. A frame already on the wire completes.
//
// Units: rate bit/s, delay and times in ps, sizes in bytes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/core/drop.h"
#include "models/core/ids.h"
#include "models/core/packet.h"
#include "models/core/ring.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace xoff::models {

class Network;
class Node;
class EgressPort;

// See Node::receive_hinted. A switch names the egress port and class, and
// as `object` its MMU's state of the ingress PG (two lines: a PgState may
// straddle them; host = false); a host names its NIC port and the class of
// its reply, and where its transport keeps what the frame touched: the
// transport object (its first four lines) and the flow's state (two lines:
// a QP spans several).
struct RxHint {
  const EgressPort* port = nullptr;
  int tc = 0;
  const void* object = nullptr;
  const void* state = nullptr;
  bool host = true;
};

struct SchedulerConfig {
  std::array<bool, kNumClasses> strict{};                            // strict-priority classes
  std::array<uint32_t, kNumClasses> weight{1, 1, 1, 1, 1, 1, 1, 1};  // DWRR weights
  sim::Bytes quantum_unit{1500};  // bytes per weight unit per round
};

struct PortCounters {
  std::array<int64_t, kNumClasses> tx_packets{};
  std::array<int64_t, kNumClasses> tx_bytes{};
  std::array<int64_t, kNumClasses> peak_bytes{};
  std::array<int64_t, kNumClasses> dropped{};
  std::array<int64_t, kNumClasses> pause_received{};  // XOFF frames (quanta > 0)
  std::array<int64_t, kNumClasses> pause_sent{};      // XOFF frames sent by this port's owner
  std::array<int64_t, kNumClasses> ecn_marked{};
  std::array<sim::Duration, kNumClasses> paused_time{};
  int64_t control_packets = 0;
};

// Told of every frame a port starts to transmit (a packet capture, app/run/pcap.h).
// Reads only; must not change the packet or schedule events.
class PacketTap {
 public:
  virtual ~PacketTap() = default;
  virtual void on_transmit(const EgressPort& port, const Packet& p, sim::Time start) = 0;
};

// Where a frame goes when its last bit has left, instead of propagating to a
// peer simulated here: the peer is simulated in another part of a partitioned
// run (app/mpi). Takes the packet; `arrival` and `key` are its arrival's time
// and place in the order, for EgressPort::inject_arrival at the far end.
class FrameExit {
 public:
  virtual ~FrameExit() = default;
  virtual void frame_left(EgressPort& port, Packet& p, sim::Time arrival, sim::EventKey key) = 0;
};

class EgressPort final : public sim::EventHandler {
 public:
  EgressPort(Network& net, Node& owner, PortIndex index, sim::BitsPerSecond rate,
             sim::Duration delay, Node& peer, PortIndex peer_port);

  // Data packet into class queue p.tc. Dropped (link_down) if the link is down.
  void enqueue(Packet& p);
  // PFC/CNP frame: sent before any data, regardless of pause.
  void enqueue_control(Packet& p);
  // A PAUSE frame arrived on this port's link from the peer.
  void receive_pause(const Packet& pause);

  void set_scheduler(const SchedulerConfig& c);
  void set_response_delay(sim::Duration d) { response_delay_ = d; }
  void set_link_up(bool up);
  // Watchdog overrides for a class: ignore received pauses (forward action).
  void set_ignore_pause(int tc, bool ignore);
  // The classes this port runs PFC on (its operational PFC-enable vector, e.g.
  // after DCBX): a PAUSE for any other class is counted (rx pause frames) and
  // otherwise ignored, as an 802.1Qbb MAC with PFC off on that priority does.
  void set_pfc_enabled(uint8_t classes) { pfc_enabled_ = classes; }
  uint8_t pfc_enabled() const { return pfc_enabled_; }
  // Drops everything queued in class tc with the given reason; returns bytes.
  int64_t flush_class(int tc, DropReason why);

  bool link_up() const { return up_; }
  bool paused(int tc) const {
    return !((ignore_pause_ >> tc) & 1) && sim_.now() < cls_[tc].paused_until;
  }
  // Transmitting, or due to pick the next frame at the end of this instant's
  // transmission.
  bool busy() const { return tx_armed_ || sim_.now() < busy_until_; }
  sim::Time paused_until(int tc) const { return cls_[tc].paused_until; }
  sim::Time last_dequeue(int tc) const { return cls_[tc].last_dequeue; }
  sim::Time last_pause_received(int tc) const { return last_pause_rx_[tc]; }
  int64_t queued_bytes(int tc) const { return cls_[tc].bytes; }
  size_t queued_packets(int tc) const { return cls_[tc].q.size(); }
  int64_t total_queued_bytes() const;
  // Every byte this port holds: class and control queues, the frame on the
  // wire and the frames propagating to the peer (conservation checks).
  int64_t held_bytes() const;
  size_t held_packets() const;
  sim::BitsPerSecond rate() const { return rate_; }
  sim::Duration delay() const { return delay_; }
  PortIndex index() const { return index_; }
  Node& owner() const { return owner_; }
  Node& peer() const { return peer_; }
  PortIndex peer_port() const { return peer_port_; }
  // The counters as of now. (The per-class transmit counts and watermark live
  // in the class's lines, where a hop touches them; these copy them out.)
  const PortCounters& counters() const {
    sync_counters();
    return counters_;
  }
  // The owner counts what it does through this port.
  void count_pause_sent(int tc) { ++counters_.pause_sent[tc]; }
  void count_ecn_mark(int tc) { ++counters_.ecn_marked[tc]; }
  void count_drop(int tc) { ++counters_.dropped[tc]; }  // dropped before it was queued here
  // The pause watcher's mark: set when this port is listed in
  // Network::note_paused, cleared by the watcher when it drops the port.
  bool pause_watched() const { return pause_watched_; }
  void set_pause_watched(bool w) { pause_watched_ = w; }
  // A capture of what this port transmits, or null (off).
  void set_tap(PacketTap* t) {
    tap_ = t;
    diverted_ = tap_ != nullptr || exit_ != nullptr;
  }
  // Frames leave through `e` instead of propagating here (null: here).
  void set_exit(FrameExit* e) {
    exit_ = e;
    diverted_ = tap_ != nullptr || exit_ != nullptr;
  }
  // The far end of a partitioned link: a frame that left this port in another
  // part, propagating to the peer (simulated here), which receives it at
  // `arrival`, ordered by `key`, exactly as if it had left here. Frames of one
  // port are injected in the order they left. A frame that left before the
  // link last went down is dropped (link_down), as the ones propagating then were.
  void inject_arrival(Packet& p, sim::Time arrival, sim::EventKey key);
  // Closes open pause intervals into paused_time (call at the end of a run).
  void finalize_counters();

  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t tag) const override;
  void prefetch(uint64_t tag) const override;
  void prefetch_deep(uint64_t tag) const override;
  // Prefetches what enqueueing a frame of class tc here touches first.
  void prefetch_enqueue(int tc) const;
  // The frames arriving at the peer before `end`: their packets start loading
  // (Simulator::set_part_turn_hook). A hint only.
  void prefetch_arrivals(sim::Time end) const;

 private:
  enum Tag : uint64_t { kTxDone = 0, kArrive = 1, kApplyPause = 2, kResume = 3 };
  // Frames below this size on the wire (ACKs, NAKs, CNPs, PAUSEs) keep
  // their own hint of where the peer sends them (peer_hint_): on a link
  // carrying data one way and the reverse flow's ACKs, one hint for both
  // was right for about a third of a switch's arrivals (4,096-host
  // permutation: 36 %; by size: 76 %).
  static constexpr int32_t kSmallFrame = 256;
  static uint8_t hint_slot(int32_t size) { return size < kSmallFrame ? 0 : 1; }
  // 24 bytes: the packet's address with its hint slot in the low bit (a
  // Packet is 64-byte aligned), and its arrival event's key (fixed when its
  // transmission started) in one word: the stream in the top 18 bits, the
  // sequence's low 46 below (the event queue keys by its low 34). At 32
  // bytes the ring of frames in flight was a cold line read at every other
  // arrival and written at every other transmission on a large fabric.
  static constexpr int kKeySeqBits = 64 - sim::kStreamBits;
  static constexpr uint64_t kKeySeqMask = (uint64_t{1} << kKeySeqBits) - 1;
  struct InFlight {
    sim::Time arrival;
    uintptr_t packet_slot;
    uint64_t key_bits;
    Packet* pkt() const { return reinterpret_cast<Packet*>(packet_slot & ~uintptr_t{1}); }
    uint8_t slot() const { return static_cast<uint8_t>(packet_slot & 1); }
    sim::EventKey key() const {
      return sim::EventKey{static_cast<sim::StreamId>(key_bits >> kKeySeqBits),
                           key_bits & kKeySeqMask};
    }
  };
  static_assert(sizeof(InFlight) == 24 && alignof(Packet) >= 2);
  static InFlight in_flight(sim::Time arrival, Packet& p, sim::EventKey key, int32_t size) {
    return InFlight{arrival, reinterpret_cast<uintptr_t>(&p) | hint_slot(size),
                    uint64_t{key.stream} << kKeySeqBits | (key.seq & kKeySeqMask)};
  }
  // Prefetch hints, first among the members so they share the object's first
  // cache line with the vtable pointer: the packet the next arrival delivers,
  // and what the next transmission likely reads first: a control frame, or
  // the entry at the head of a class queue (with the class's lines:
  // next_tx_class_). Only ever prefetched (a stale hint costs a useless
  // prefetch, never a wrong result).
  Packet* next_arrival_ = nullptr;
  const void* next_tx_ = nullptr;

  struct PendingPause {
    sim::Time apply_at;
    uint8_t enable;
    std::array<uint16_t, kNumClasses> quanta;
  };

  void try_send();
  // After a frame became sendable (queued, unpaused, link up): starts one now
  // if the wire is free, else makes sure the end of the transmission is an
  // event when something waits.
  void service();
  bool queued() const { return nonempty_ != 0 || !control_.empty(); }
  // The frame to send next, if any (a control frame's entry made from it).
  bool pick(QueuedFrame& f, bool& control);
  int pick_dwrr();
  QueuedFrame pop_class(int tc);
  void start_tx(const QueuedFrame& f, bool control);
  void on_tx_done();
  void on_arrive();
  // Onto the wire towards the peer, behind the frames already propagating
  // (here, on the hot path of every hop, so that it is inlined). Between
  // events the arrival timer is armed exactly while frames propagate
  // (on_arrive re-arms it for the next; no node is linked to itself, so no
  // frame leaves a port inside its own on_arrive), so an empty flight_ says
  // it is idle without a read of its line, cold on a large fabric.
  void propagate(const InFlight& f) {
    XOFF_DCHECK(arrive_timer_.armed() != flight_.empty(),
                "arrival timer out of step with the frames in flight");
    if (flight_.empty()) {
      arrive_timer_.arm_at(f.arrival, f.key());
      next_arrival_ = f.pkt();
      next_slot_ = f.slot();
    }
    flight_.push_back(f);
  }
  // The end of the transmission under way, at busy_until_, as an event of
  // this port (see tx_armed_).
  void arm_tx_done() {
    tx_armed_ = true;
    sim_.schedule_at(busy_until_, *this, kTxDone, sim_.reserve_key());
  }
  // What an arrival and the end of a transmission read first (prefetch,
  // prefetch_deep).
  void prefetch_arrival() const;
  void prefetch_tx() const;
  void apply_pause(const PendingPause& pp);
  void arm_resume();
  void kick();
  void close_pause_interval(int tc, sim::Time end);
  void drop_all_in_flight();

  // The members a hop touches come first, in three 64-byte lines (after the
  // vtable and the hints above), then the arrival timer, a line; the
  // per-class state is a pair of lines per class; what only pauses, faults,
  // captures and the end of a run touch comes last.
  sim::Time busy_until_ = sim::Time::zero();  // the last bit of the frame on the wire
  sim::Simulator& sim_;
  Node& owner_;
  Node& peer_;
  // Line 1.
  sim::Serializer serializer_;  // tx_time at rate_
  sim::Duration delay_;
  sim::Bytes wire_overhead_;  // Network::wire_overhead(), on every frame's time
  Ring<InFlight> flight_;     // serializing or propagating towards the peer, in arrival order
  // Line 2.
  Ring<Packet*> control_;
  uint8_t nonempty_ = 0;      // bit c: class c has packets queued
  uint8_t strict_mask_ = 0;   // bit c: class c is strict priority
  uint8_t dwrr_next_ = 0;     // class whose turn it is in the DWRR round
  uint8_t ignore_pause_ = 0;  // bit c: class c ignores pauses (watchdog)
  uint8_t pfc_enabled_ = 0xff;
  bool dwrr_fresh_ = true;  // the current class has not yet received its quantum
  bool up_ = true;
  bool pause_watched_ : 1 = false;
  // The end of the transmission (at busy_until_) is an event: the port
  // itself, tag kTxDone, on its own stream, armed only while not armed (so
  // never stale), on this line rather than a timer's.
  bool tx_armed_ : 1 = false;
  PortIndex index_;
  PortIndex peer_port_;
  bool diverted_ = false;                // a tap or an exit is set
  uint8_t next_tx_class_ = kNumClasses;  // whose lines next_tx_ goes with (kNumClasses: none)
  uint8_t next_slot_ = 0;                // hint slot of the frame at the head of flight_
  bool peer_host_ = true;                // RxHint::host of the last frame
  // Where the peer sent the last frame of this link of each hint slot (its
  // egress port, the class in the low bits: an RxHint packed), for the deep
  // lookahead.
  std::array<uintptr_t, 2> peer_hint_{};
  const void* peer_object_ = nullptr;  // RxHint::object and ::state of the last frame
  const void* peer_state_ = nullptr;
  alignas(64) sim::Timer arrive_timer_;  // at the head of flight_ (an event of the peer's stream)

  // What a hop touches of its class, in one 128-byte pair of lines (a
  // processor's adjacent-line prefetch fetches both): the queue, then what
  // a transmission counts.
  struct alignas(128) ClassQueue {
    Ring<QueuedFrame> q;
    int64_t bytes = 0;
    int64_t deficit = 0;
    sim::Time paused_until;
    sim::Time last_dequeue;
    // Second line.
    alignas(64) int64_t quantum = 0;  // DWRR credit per turn: weight x quantum unit
    int64_t tx_packets = 0;
    int64_t tx_bytes = 0;
    int64_t peak_bytes = 0;
  };
  static_assert(sizeof(ClassQueue) == 128 && offsetof(ClassQueue, quantum) == 64);
  void sync_counters() const {
    for (int tc = 0; tc < kNumClasses; ++tc) {
      counters_.tx_packets[tc] = cls_[tc].tx_packets;
      counters_.tx_bytes[tc] = cls_[tc].tx_bytes;
      counters_.peak_bytes[tc] = cls_[tc].peak_bytes;
    }
  }
  std::array<ClassQueue, kNumClasses> cls_;

  Network& net_;
  PacketTap* tap_ = nullptr;
  FrameExit* exit_ = nullptr;
  sim::BitsPerSecond rate_;
  sim::Duration response_delay_ = sim::Duration::zero();
  SchedulerConfig sched_;
  std::array<sim::Time, kNumClasses> pause_started_{};  // start of the open pause interval
  std::array<bool, kNumClasses> pause_open_{};
  std::array<sim::Time, kNumClasses> last_pause_rx_{};
  sim::Timer resume_timer_;  // at the earliest future pause expiry
  Ring<PendingPause> pending_pauses_;
  sim::Timer pause_timer_;
  sim::Time last_down_ = sim::Time::zero() - sim::Duration::ps(1);  // never yet
  mutable PortCounters counters_;  // tx_packets, tx_bytes, peak_bytes: copies of cls_'s
};

// The class rides in the low bits of a packed RxHint.
static_assert(alignof(EgressPort) >= kNumClasses);

}  // namespace xoff::models
