#pragma once
// The event core: one clock, one queue of pending events, one loop.
//
// Events are small POD entries (time, sequence, handler, tag) in a 4-ary heap,
// ordered by (time, sequence): equal times run in the order they were scheduled,
// so a run is a pure function of its inputs. Nothing is allocated per event and
// there is no std::function: a component derives from EventHandler and is told
// the 64-bit tag it scheduled with. Cancellation is by the handler ignoring stale
// tags (see Timer), never by scanning the queue.
//
// Every executed event folds (time, handler id, tag) into a 64-bit fingerprint
// (OMNeT++): two runs that did the same things in the same order have the same
// fingerprint. Handler ids are given out in first-schedule order, so they do not
// depend on memory addresses.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/units.h"

namespace xoff::sim {

class Simulator;

class EventHandler {
 public:
  EventHandler() = default;
  EventHandler(const EventHandler&) = delete;
  EventHandler& operator=(const EventHandler&) = delete;
  virtual void handle_event(uint64_t tag) = 0;
  // What an event of this handler with `tag` is, for the event profile
  // (Simulator::set_profiling, `xoff run --stats`): a string literal, e.g.
  // "port: transmission done". Called only when profiling.
  virtual const char* event_kind(uint64_t tag) const {
    (void)tag;
    return "other";
  }
  // Called for the next pending event while the current one runs: issue
  // __builtin_prefetch for the memory handle_event(tag) will touch first (the
  // packet a port is about to deliver). A hint only: it must not change state.
  virtual void prefetch(uint64_t tag) const { (void)tag; }
  bool observer() const { return observer_; }

 protected:
  ~EventHandler() = default;
  // An observer (a sampler, a detector) only reads the model: its events are
  // left out of the fingerprint and it takes no handler id, so turning
  // monitoring on or off, or changing how often it samples, leaves the
  // fingerprint of the physics unchanged. Call before its first event.
  void mark_observer() { observer_ = true; }

 private:
  friend class Simulator;
  uint32_t handler_id_ = 0;  // 0 = not yet given one
  bool observer_ = false;
};

class Simulator {
 public:
  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time now() const { return now_; }

  // Schedules handler.handle_event(tag) at `t`. `t` before now() is a bug.
  void schedule_at(Time t, EventHandler& handler, uint64_t tag = 0);
  void schedule_in(Duration d, EventHandler& handler, uint64_t tag = 0) {
    schedule_at(now_ + d, handler, tag);
  }

  // Runs events with time <= `until`, then sets the clock to `until` (unless
  // stopped early). Returns the number of events run by this call.
  uint64_t run_until(Time until);
  // The same, but returns after at most `max_events` events; the clock then
  // stays at the last event run, and a later call goes on exactly where this
  // one stopped (the event order does not depend on how a run is cut).
  uint64_t run_until(Time until, uint64_t max_events);
  // Runs until the queue is empty or stop() is called.
  uint64_t run();
  // Makes the running loop return after the current event.
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

  uint64_t events_executed() const { return events_; }
  uint64_t fingerprint() const { return fingerprint_; }
  size_t pending() const { return heap_.size(); }
  // Time of the next pending event, or Time::max() when idle.
  Time next_event_time() const { return heap_.empty() ? Time::max() : key_time(heap_.top()); }

  // Event profile: when on, every executed event is counted under its
  // handler's event_kind(tag). Off by default; it costs a hash lookup per
  // event and never changes what runs (nor the fingerprint).
  void set_profiling(bool on) { profiling_ = on; }
  struct KindCount {
    std::string kind;
    uint64_t events = 0;
  };
  // Counts per kind, most events first (ties by name).
  std::vector<KindCount> event_profile() const;

  // The simulator whose loop is running on this thread (for check messages).
  static const Simulator* current();

 private:
  // A pending event is a 16-byte key in the heap plus its (handler, tag) in a
  // slot table: key = time (64 bits) | sequence (40 bits) | slot (24 bits).
  // Ordered by the key, i.e. by (time, sequence); the slot only says where
  // the payload is. Sift-down moves keys only, and four children are exactly
  // one 64-byte cache line (the heap array is offset so that every group of
  // siblings is line-aligned): a 4-ary heap of 32-byte entries touched two
  // or three lines per level, and on a 1,024-host fabric (10^4 pending
  // events, beyond L2) those misses were a quarter of the run.
  using Key = UInt128;
  struct Payload {
    EventHandler* handler;
    uint64_t tag;
  };
  static constexpr int kSlotBits = 24;
  static constexpr int kSeqBits = 64 - kSlotBits;
  static Time key_time(Key k) { return Time::from_ps(static_cast<int64_t>(k >> 64)); }
  static uint32_t key_slot(Key k) {
    return static_cast<uint32_t>(static_cast<uint64_t>(k) & ((1u << kSlotBits) - 1));
  }

  // The 4-ary min-heap of keys: h_[0] is the earliest; children of i are
  // 4i+1 .. 4i+4.
  class KeyHeap {
   public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Key top() const { return h_[0]; }
    Key at(size_t i) const { return h_[i]; }
    void push(Key k);
    Key pop();  // the top; the heap must not be empty

   private:
    void grow();
    size_t min_index(size_t a, size_t b) const { return h_[b] < h_[a] ? b : a; }
    std::unique_ptr<Key[]> buf_;
    Key* h_ = nullptr;  // into buf_, with h_ + 1 on a 64-byte boundary
    size_t size_ = 0;
    size_t capacity_ = 0;
  };

  void push(Time t, EventHandler& handler, uint64_t tag);
  void fold(Time t, const Payload& p);

  KeyHeap heap_;
  std::vector<Payload> slots_;        // by slot
  std::vector<uint32_t> free_slots_;  // LIFO: a freed slot is reused while warm
  Time now_ = Time::zero();
  uint64_t next_seq_ = 0;
  uint64_t events_ = 0;
  uint64_t fingerprint_ = 0xcbf29ce484222325ULL;
  uint32_t next_handler_id_ = 1;
  bool stopped_ = false;
  bool profiling_ = false;
  std::unordered_map<const char*, uint64_t> profile_;  // by literal address
};

}  // namespace xoff::sim
