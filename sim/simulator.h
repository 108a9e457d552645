#pragma once
// The event core: one clock, one queue of pending events, one loop.
//
// Events are small POD entries (time, origin, handler, tag) in a calendar
// queue (Brown 1988) of short sorted buckets, with a 4-ary heap for the
// events beyond its window.
// Nothing is allocated per event and there is no std::function: a component
// derives from EventHandler and is told the 64-bit tag it scheduled with.
// Cancellation is by the handler ignoring stale tags (see Timer), never by
// scanning the queue.
//
// Order. Every handler belongs to a stream (a logical process: one node of the
// model, or the setup stream 0 for what the run's set-up and its global
// drivers schedule). An event runs "as" its handler's stream, and every event
// it schedules is keyed (time, that stream, that stream's own schedule count).
// Events run in key order: by time, then by the stream that scheduled them,
// then in the order that stream scheduled them. No global counter takes part,
// so the order of the events of a set of streams depends only on those
// streams and on what reaches them, never on which other streams share the
// queue: the same run split across processes (xoff-mpi, each owning some
// streams) executes every event in the same order as one process. Events
// scheduled from the same stream at the same time run in schedule order.
//
// Every executed event adds a hash of (time, its stream, the stream that
// scheduled it, tag) to a 64-bit fingerprint (OMNeT++'s idea, made a sum so
// that the fingerprints of parts of a run add up to the whole run's): two runs
// that did the same things have the same fingerprint.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/check.h"
#include "sim/flat_map.h"
#include "sim/units.h"

namespace xoff::sim {

class Simulator;

// A stream (logical process): 0 is the set-up stream; the model numbers its
// nodes from 1; observers (samplers, detectors) share the last one, so at
// equal times they run after everything the model scheduled.
using StreamId = uint32_t;
inline constexpr int kStreamBits = 18;
inline constexpr StreamId kSetupStream = 0;
inline constexpr StreamId kObserverStream = (StreamId{1} << kStreamBits) - 1;

// Where an event came from: the stream that scheduled it and that stream's
// count at the time. Together with the event's time it is the event's place
// in the order. Reserved ahead with Simulator::reserve_key() when the event is
// scheduled later than the decision that fixes it (a frame's arrival).
struct EventKey {
  StreamId stream = 0;
  uint64_t seq = 0;
};

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
  // The same in the deep lookahead (Simulator::set_deep_lookahead): also what
  // the handling will touch after that (where the packet goes next). Its
  // first lines were prefetched an event earlier, so it may read them.
  virtual void prefetch_deep(uint64_t tag) const { prefetch(tag); }
  bool observer() const { return observer_; }
  StreamId stream() const { return stream_; }
  // The stream this handler's events run as (default: the set-up stream).
  void set_stream(StreamId s) { stream_ = s; }

 protected:
  ~EventHandler() = default;
  // An observer (a sampler, a detector) only reads the model: its events are
  // left out of the fingerprint and run on the observer stream, so turning
  // monitoring on or off, or changing how often it samples, leaves the
  // physics, its order and its fingerprint unchanged. Call before its first
  // event.
  void mark_observer() {
    observer_ = true;
    stream_ = kObserverStream;
  }

 private:
  friend class Simulator;
  StreamId stream_ = kSetupStream;
  bool observer_ = false;
};

class Simulator {
 public:
  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time now() const { return now_; }

  // An event's identity: its place in the order, (time, origin stream,
  // origin sequence), the same in every process of a partitioned run.
  using EventId = UInt128;
  // Schedules handler.handle_event(tag) at `t`. `t` before now() is a bug.
  EventId schedule_at(Time t, EventHandler& handler, uint64_t tag = 0) {
    return schedule_at(t, handler, tag, reserve_key());
  }
  EventId schedule_in(Duration d, EventHandler& handler, uint64_t tag = 0) {
    return schedule_at(now_ + d, handler, tag);
  }
  // The key the next schedule of the current stream would get, taken now: an
  // event whose place in the order is decided before it is scheduled (a frame
  // whose arrival is queued behind others) is scheduled later with it.
  EventKey reserve_key() {
    const StreamId s = current_stream_;
    if (s >= seq_.size()) [[unlikely]]
      seq_.resize(s + 1, 0);
    return EventKey{s, seq_[s]++};
  }
  // Schedules with a key from reserve_key() (here or, for a frame that crossed
  // to another process, where it was sent).
  EventId schedule_at(Time t, EventHandler& handler, uint64_t tag, EventKey key) {
    return schedule_at(t, handler, tag, key, &handler);
  }
  // The same, naming the object the event's handling starts from when that
  // is not the handler itself (a timer's owner): the loop prefetches its
  // first lines two events ahead, so that the handler's own prefetch (one
  // event ahead) reads them without waiting. A hint only.
  EventId schedule_at(Time t, EventHandler& handler, uint64_t tag, EventKey key, const void* hint) {
    const Key k = make_key(t, key);
    if (t < now_ || t.count_ps() >= (int64_t{1} << kTimeBits) || partitioned_) [[unlikely]]
      return schedule_checked(t, handler, tag, k, hint);
    push(k, handler, tag, hint);
    return k >> kSlotBits;
  }
  // The stream of the event running now (the set-up stream outside events).
  StreamId current_stream() const { return current_stream_; }
  // The id of the event running now (a Timer tells its live entry from stale
  // ones by it).
  EventId current_event_id() const { return current_id_; }

  // Partitioned runs: only events of streams marked here are kept; a schedule
  // onto any other stream's handler takes its key and is dropped (another
  // process runs it). Empty (the default) keeps all. The set-up stream must be
  // kept: every process runs the set-up and the global drivers.
  void set_local_streams(std::vector<bool> local);
  // Every process runs the set-up stream's events and the observers'; all but
  // one leave them out of events_executed() and the fingerprint, so that the
  // processes' counts and fingerprints add up to one process's.
  void set_setup_replica(bool replica) { setup_replica_ = replica; }
  // Observers are local everywhere (each part observes what it simulates).
  bool is_local(StreamId s) const {
    return !partitioned_ || s == kObserverStream || (s < local_.size() && local_[s] != 0);
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
  // The sum of the executed events' hashes (see above): the fingerprints of
  // the processes of a partitioned run add up (mod 2^64) to the one-process
  // run's.
  uint64_t fingerprint() const { return fingerprint_; }
  size_t pending() const {
    size_t n = queue_.size();
    for (const EventQueue& q : part_q_) n += q.size();
    return n;
  }
  // Time of the next pending event, or Time::max() when idle.
  Time next_event_time() const {
    EventQueue* q = earliest();
    return q == nullptr ? Time::max() : key_time(q->top());
  }

  // Lookahead depth. Off (the default): while an event runs, the next one
  // prefetches what it touches first and the handler of the one after it
  // starts loading. On: also the slot of the third, the first lines of the
  // second's object (schedule_at's hint), and the next one's prefetch_deep.
  // That costs about 20 instructions per event and pays only when the
  // model's state is far beyond the core's caches (a fabric of thousands of
  // ports, bench/README.md); it never changes what runs.
  void set_deep_lookahead(bool on) { deep_lookahead_ = on; }
  bool deep_lookahead() const { return deep_lookahead_; }

  // Parts and windows: the same run, in an order with better locality.
  // Streams are grouped into parts (part_of_stream[s], by stream; kNoPart or
  // a stream beyond the map is global: the set-up stream, the observers).
  // The run then goes window by window: from the earliest pending event's
  // time t to t + lookahead (cut at the next global event), each part in turn
  // (first to last, then last to first in the next window, and so on)
  // runs its events of the window in key order; an instant with a global
  // event runs every event of all parts keyed before it, then it, one at a
  // time in key order. The caller promises that an event of one part
  // schedules an event of another part, or a global one, no sooner than
  // `lookahead` after its own time (a frame crossing a link between parts
  // takes at least the link's delay). Then every stream sees the same events
  // in the same order as without parts: what a part runs in a window cannot
  // depend on another part's events of the same window (the partitioned
  // run's argument, here within one process). So results, the fingerprint
  // and every event's time are the same; what changes is locality: a part's
  // state (its switch's ports, its hosts' NICs, the packets they queue) is
  // touched many times in a row while it is in the core's caches, instead of
  // once per pass over the whole fabric (bench/README.md, docs/decisions.md).
  // A schedule that breaks the promise aborts the run (checked at every
  // schedule onto another part or a global stream). Budgets and stop() take
  // effect at the end of a window or of a global event, so a run cut by an
  // event budget stops at a later event than without parts (deterministic
  // all the same). Set once, before the run (what is scheduled already
  // moves to its part); not in a partitioned run.
  static constexpr uint16_t kNoPart = 0xFFFF;
  // `first_shift`: the parts' calendars' first bucket width, 2^first_shift
  // ps; by default (-1) as wide as make them span what the whole run's
  // calendar spans (4.2 us). For tests of their re-widths.
  void set_parts(std::vector<uint16_t> part_of_stream, Duration lookahead, int first_shift = -1);
  size_t parts() const { return part_q_.size(); }
  // The part of stream s's events (kNoPart: global, or no parts): for what
  // wires hints to parts, and its tests.
  uint16_t part_of(StreamId s) const { return s < part_of_.size() ? part_of_[s] : kNoPart; }
  // Called at each part's turn in a window, before its events run, with the
  // window's end: a hint to start loading what they will touch (the frames
  // arriving at the part's ports). It must not change state. It may read
  // other parts' state (the ports that send to this part), which is safe
  // because parts take their turns one after another on one thread.
  using PartTurnHook = void (*)(void* context, size_t part, Time window_end);
  void set_part_turn_hook(PartTurnHook hook, void* context) {
    part_turn_hook_ = hook;
    part_turn_context_ = context;
  }
  Duration window() const { return lookahead_; }  // the lookahead: a window's longest span
  uint64_t windows_run() const { return windows_; }

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
  // A pending event is a 16-byte key in the heap plus its (handler, tag,
  // origin stream) in a slot table: key = time (52 bits) | origin stream (18)
  // | origin sequence (34) | slot (24). Ordered by the key, i.e. by (time,
  // stream, sequence); the slot only says where the payload is. 52 bits of
  // picoseconds are 75 minutes of simulated time (an event scheduled later is
  // not kept: it could never run, runs being at most an hour); a stream's sequence is
  // taken modulo 2^34, and two pending events of one stream with the same
  // time 2^34 schedules apart (which would tie) abort the run. Sift-down moves keys only, and four
  // children are exactly one 64-byte cache line (the heap array is offset so that every group of
  // siblings is line-aligned): a 4-ary heap of 32-byte entries touched two
  // or three lines per level, and on a 1,024-host fabric (10^4 pending
  // events, beyond L2) those misses were a quarter of the run.
  using Key = UInt128;
  struct Payload {
    EventHandler* handler;
    uint64_t tag;
  };
  static constexpr int kSlotBits = 24;
  static constexpr int kSeqBits = 34;
  static constexpr int kTimeBits = 128 - kSlotBits - kSeqBits - kStreamBits;  // 52
  static constexpr int kTimeShift = 128 - kTimeBits;
  static Time key_time(Key k) { return Time::from_ps(static_cast<int64_t>(k >> kTimeShift)); }
  static StreamId key_stream(Key k) {
    return static_cast<StreamId>(k >> (kSlotBits + kSeqBits)) & kObserverStream;
  }
  static uint32_t key_slot(Key k) {
    return static_cast<uint32_t>(static_cast<uint64_t>(k) & ((1u << kSlotBits) - 1));
  }

  // The 4-ary min-heap of keys: h_[0] is the earliest; children of i are
  // 4i+1 .. 4i+4. Holds the events beyond the calendar's window (and those
  // put beside a long current run).
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

  // The pending events, popped in key order. A calendar (Brown 1988) of
  // 2^kBucketBits buckets, each 2^shift picoseconds wide, covers a window
  // from the running event's time. An event in the window is appended,
  // unsorted, to its bucket's chunks of seven keys (reading a bucket is a
  // sequential scan of two lines per seven events, not a dependent load per
  // event; chunks are recycled, so nothing is allocated after warm-up). A
  // bitmap of non-empty buckets finds the next one, whose keys are then
  // sorted once into the current run (as a ladder queue does), from which
  // events pop in key order; an event for the current bucket goes into its
  // place in the run, or, when the run is long, waits beside it in a small
  // heap (a run can be thousands of events of one instant, which a sorted
  // insert would move). An event beyond the window
  // waits in the far heap; the earliest of the run's head and the two heaps'
  // tops runs next, so the order is the exact key order whatever the width. In a fabric nearly
  // every event is a frame's end of transmission or arrival, within a few microseconds of now: O(1)
  // work per event instead of log4(pending) levels of 16-byte keys. The width doubles when many
  // events fall beyond the window, and halves when runs of events at different times are long while
  // few fall beyond it.
  class EventQueue {
   public:
    // 2^bucket_bits buckets (at least 64), each 2^shift ps wide at first; by
    // default (-1) as wide as make them span what kBucketBits buckets of
    // 2^kShift span.
    explicit EventQueue(int bucket_bits = kBucketBits, int shift = -1);
    // Slots (of the simulator's table) this queue's events released, LIFO:
    // a freed slot is reused while warm, and with parts each part reuses
    // its own few (a part's events then read a compact stretch of the table).
    std::vector<uint32_t> free_slots;
    size_t size() const { return cal_size_ + far_.size(); }
    bool empty() const { return size() == 0; }
    // `k` carries its slot (key_slot); it is not before the last key popped.
    void push(Key k) {
      if (++pushes_ == (uint64_t{1} << 16)) [[unlikely]]
        adapt();
      // The top found last stays the top unless this key comes before it.
      if (k < top_) top_valid_ = false;
      if (abs_bucket(k) - start_ >= static_cast<int64_t>(buckets_)) [[unlikely]] {
        far_.push(k);
        ++far_pushes_;
        return;
      }
      insert(k);
    }
    // The earliest; the queue must not be empty. Found once and kept until
    // it is popped or an earlier key is pushed: the run loop asks for the
    // next event's key to prefetch for it, then again before running it.
    Key top() { return top_valid_ ? top_ : find_top(); }
    // The top; call right after top(), with nothing pushed since. (Inline:
    // defined in simulator.cc, the one place it is called.)
    inline Key pop_top();
    // The key most likely to run d (1 or 2) events after the top, for
    // prefetching: from the current run, or (`beyond`: the deep lookahead)
    // past its end from the next bucket's keys; the top itself when there
    // is no guess. Right after top() (which may load the run it reads).
    Key after_top(size_t d, bool beyond) const {
      // A top from beside a long run leaves the run's head next. (A top
      // from the far heap is rare enough to be left a wrong hint.)
      if (!late_.empty()) [[unlikely]] {
        if (d > 0 && !run_.empty() && top_ != run_.back()) --d;
      }
      if (run_.size() > d) [[likely]]
        return run_[run_.size() - 1 - d];
      return beyond ? beyond_run(d - run_.size()) : top_;
    }

    static constexpr int kBucketBits = 14;      // the whole run's queue
    static constexpr int kPartBucketBits = 10;  // a part's (set_parts)
    // The whole run's first bucket width, 2^kShift ps (256 ps): 16,384 of them
    // span 4.2 us; a smaller calendar starts with wider buckets spanning the same.
    static constexpr int kShift = 8;

   private:
    static constexpr uint32_t kNil = ~0u;
    // The first non-empty bucket at or after the window's start (calendar
    // not empty), loaded as the current run.
    Key find_top();
    uint32_t first_bucket();
    // The bitmap's first non-empty bucket from bucket `from` on, looking at
    // most `words` words past from's (kNil if none there); from the
    // window's start with buckets_ / 64 words it is the first bucket.
    uint32_t scan(uint32_t from, uint32_t words) const;
    void load(uint32_t b);
    void sort_run();  // run_, latest first (a long one)
    void unload();
    bool place(Key k);  // into the calendar (true) or, beyond its window, the far heap
    // Into the calendar (k within the window).
    void insert(Key k) {
      const uint32_t b = static_cast<uint32_t>(abs_bucket(k)) & (buckets_ - 1);
      ++cal_size_;
      if (b == run_bucket_) [[unlikely]] {  // into the current run, or beside it
        insert_run(k);
        return;
      }
      link(b, k);
      bits_[b / 64] |= uint64_t{1} << (b % 64);
      if (found_ != kNil && offset(b) < offset(found_)) found_ = b;
    }
    void insert_run(Key k);          // into the current run, or beside it (late_) when long
    Key beyond_run(size_t i) const;  // after_top's guess past the run's end
    static constexpr size_t kShortRun = 64;
    void adapt();
    int64_t abs_bucket(Key k) const { return static_cast<int64_t>(k >> kTimeShift) >> shift_; }
    uint32_t offset(uint32_t b) const {  // of bucket b from the window's start
      return (b - static_cast<uint32_t>(start_)) & (buckets_ - 1);
    }

    // Seven keys and the link to the bucket's next chunk: two 64-byte lines.
    struct alignas(64) Chunk {
      static constexpr uint32_t kKeys = 7;
      Key keys[kKeys];
      uint32_t next = kNil;
      uint32_t count = 0;
    };
    static_assert(sizeof(Chunk) == 128);
    // Onto bucket b's first chunk, or a new first chunk when that one is full.
    void link(uint32_t b, Key k) {
      uint32_t c = head_[b];
      if (c == kNil || chunks_[c].count == Chunk::kKeys) [[unlikely]]
        c = new_chunk(b);
      Chunk& ch = chunks_[c];
      ch.keys[ch.count++] = k;
    }
    uint32_t new_chunk(uint32_t b);

    void take(uint32_t b, std::vector<Key>& out);  // appends bucket b's keys to out, empties it

    uint32_t buckets_;            // a power of two
    std::vector<uint32_t> head_;  // by bucket: its first chunk (the one filling), kNil if empty
    std::vector<uint64_t> bits_;  // bit b: bucket b is not empty (its chunks or the run)
    std::vector<Chunk> chunks_;
    std::vector<uint32_t> free_chunks_;  // LIFO: a freed chunk is reused while warm
    std::vector<Key> run_;               // the current bucket's events, sorted, latest first
    std::vector<size_t> stretch_;        // sort_run()'s stretches
    std::vector<Key> merged_;            // sort_run()'s other buffer
    KeyHeap late_;                // pushed into the current (long) run's bucket after it was loaded
    std::vector<Key> rebuild_;    // adapt()'s keys while the calendar is rebuilt
    uint32_t run_bucket_ = kNil;  // the bucket run_ holds
    KeyHeap far_;                 // beyond the window
    int64_t start_ = 0;           // the window's first bucket (absolute)
    int shift_;                   // bucket width 2^shift ps
    size_t cal_size_ = 0;
    uint32_t found_ = kNil;   // first_bucket() cache; kNil when stale
    Key top_ = 0;             // of the last top()
    bool top_valid_ = false;  // top_ is still the earliest pending key
    // Load since the last adaptation: pushes, those beyond the window, runs,
    // and the events of runs that span more than one instant.
    uint64_t pushes_ = 0, far_pushes_ = 0, runs_ = 0, spread_ = 0;
  };

  static Key make_key(Time t, EventKey key) {
    return (static_cast<Key>(static_cast<uint64_t>(t.count_ps())) << kTimeShift) |
           (static_cast<Key>(key.stream) << (kSeqBits + kSlotBits)) |
           (static_cast<Key>(key.seq & ((uint64_t{1} << kSeqBits) - 1)) << kSlotBits);
  }
  // The rare cases of schedule_at: in the past (a bug), beyond the horizon,
  // or onto another part's stream.
  EventId schedule_checked(Time t, EventHandler& handler, uint64_t tag, Key k, const void* hint);
  void push(Key k, EventHandler& handler, uint64_t tag, const void* hint);
  uint32_t new_slot(EventHandler& handler, uint64_t tag, const void* hint);
  void fold(Time t, StreamId origin, const Payload& p);
  // Runs the event `k`, just popped from `q` (prefetching for q's next ones).
  inline void run_event(EventQueue& q, Key k);
  // With parts: the queue of a key of `stream`, and the check of set_parts'
  // promise.
  EventQueue& part_queue(Key k, StreamId stream);
  void run_windows(Time until, uint64_t last);
  EventQueue* earliest() const;

  mutable EventQueue
      queue_;  // mutable: finding the top sorts a bucket; with parts, the global events
  mutable std::vector<EventQueue> part_q_;  // by part (set_parts)
  std::vector<uint16_t> part_of_;           // by stream: its part, kNoPart when global
  Duration lookahead_ = Duration::zero();
  Time window_end_ = Time::zero();  // of the window being run
  uint16_t running_part_ =
      kNoPart;  // the part whose events run now (kNoPart: none, or a global instant)
  uint64_t windows_ = 0;
  PartTurnHook part_turn_hook_ = nullptr;
  void* part_turn_context_ = nullptr;
  std::vector<Payload> slots_;      // by slot
  std::vector<const void*> hints_;  // by slot: schedule_at's hint (read in the deep lookahead)
  Time now_ = Time::zero();
  std::vector<uint64_t> seq_;   // by stream: schedules so far
  std::vector<uint8_t> local_;  // by stream, when partitioned_
  bool partitioned_ = false;
  StreamId current_stream_ = kSetupStream;
  uint64_t events_ = 0;
  uint64_t fingerprint_ = 0;
  EventId current_id_ = ~EventId{0};  // of the event running or run last
  bool stopped_ = false;
  bool profiling_ = false;
  bool setup_replica_ = false;
  bool deep_lookahead_ = false;
  // Events per kind, by the address of the kind's literal (a std::unordered_map
  // here cost 4 % of a profiled run).
  FlatMap<uint64_t, uintptr_t> profile_;
  void count_kind(const char* kind) {
    XOFF_DCHECK(kind != nullptr, "an event kind must be a string literal, not null");
    ++profile_.get(reinterpret_cast<uintptr_t>(kind));
  }
};

}  // namespace xoff::sim
