#include "sim/simulator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>

#include "sim/check.h"

namespace xoff::sim {
namespace {
thread_local const Simulator* t_current = nullptr;

struct CurrentGuard {
  const Simulator* prev;
  explicit CurrentGuard(const Simulator* s) : prev(t_current) { t_current = s; }
  ~CurrentGuard() { t_current = prev; }
};

// Folds one 64-bit word into the running hash: xor, multiply by an odd
// constant, xorshift (splitmix64's finalizer step). Order-sensitive, one
// multiply per word.
constexpr uint64_t mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}
}  // namespace

void check_failed(const char* file, int line, const char* cond, std::string_view msg) {
  const Simulator* s = t_current;
  std::fprintf(stderr, "%s:%d: invariant broken: %s: %.*s (sim time %lld ps)\n", file, line, cond,
               static_cast<int>(msg.size()), msg.data(),
               s ? static_cast<long long>(s->now().count_ps()) : -1LL);
  std::abort();
}

const Simulator* Simulator::current() { return t_current; }

Simulator::EventId Simulator::schedule_checked(Time t, EventHandler& handler, uint64_t tag, Key k,
                                               const void* hint) {
  XOFF_CHECK(t >= now_, "event scheduled in the past: at " + std::to_string(t.count_ps()) +
                            " ps, now " + std::to_string(now_.count_ps()) + " ps");
  // Beyond the horizon (75 minutes; runs are at most an hour): it can never
  // run, so it is not kept (a timer a very long interval ahead).
  // Another part's stream: that part runs it.
  const bool kept = t.count_ps() < (int64_t{1} << kTimeBits) && is_local(handler.stream_);
  if (kept) push(k, handler, tag, hint);
  return k >> kSlotBits;
}

void Simulator::set_local_streams(std::vector<bool> local) {
  XOFF_CHECK(local.empty() || local[kSetupStream],
             "the set-up stream must be local to every process");
  partitioned_ = !local.empty();
  local_.assign(local.begin(), local.end());
}

// The hot path of every schedule: a free slot, then the key onto its bucket's
// filling chunk. Written as one function (the bucket, chunk and bitmap steps
// inlined) so that a schedule costs one call; the rare cases (a new chunk, an
// event for the bucket being run, beyond the window, time to adapt) are out of
// line.
void Simulator::push(Key k, EventHandler& handler, uint64_t tag, const void* hint) {
  EventQueue& q = part_q_.empty() ? queue_ : part_queue(k, handler.stream_);
  uint32_t slot = 0;
  if (!q.free_slots.empty()) [[likely]] {
    slot = q.free_slots.back();
    q.free_slots.pop_back();
    slots_[slot] = Payload{&handler, tag};
    hints_[slot] = hint;
  } else {
    slot = new_slot(handler, tag, hint);
  }
  q.push(k | slot);
}

Simulator::EventQueue& Simulator::part_queue(Key k, StreamId stream) {
  const uint16_t part = stream < part_of_.size() ? part_of_[stream] : kNoPart;
  // Within a window, only the running part's own events may fall inside it.
  if (running_part_ != kNoPart && part != running_part_ && key_time(k) < window_end_) [[unlikely]] {
    XOFF_CHECK(false,
               "windows: an event of part " + std::to_string(running_part_) +
                   " scheduled one of stream " + std::to_string(stream) + " (" +
                   (part == kNoPart ? std::string("global") : "part " + std::to_string(part)) +
                   ") at " + std::to_string(key_time(k).count_ps()) +
                   " ps, inside the window ending at " + std::to_string(window_end_.count_ps()) +
                   " ps: sooner than the lookahead the parts were set with");
  }
  return part == kNoPart ? queue_ : part_q_[part];
}

void Simulator::set_parts(std::vector<uint16_t> part_of_stream, Duration lookahead,
                          int first_shift) {
  XOFF_CHECK(events_ == 0 && part_q_.empty(), "parts are set once, before the run");
  XOFF_CHECK(!partitioned_, "parts are for a run in one process");
  XOFF_CHECK(lookahead > Duration::zero(), "parts need a lookahead above zero");
  size_t parts = 0;
  for (const uint16_t p : part_of_stream)
    if (p != kNoPart) parts = std::max<size_t>(parts, size_t{p} + 1);
  part_of_ = std::move(part_of_stream);
  // A part's calendar is smaller than the whole run's (1,024 buckets, 4 KB
  // of heads instead of 64 KB: its events are a part's share, and 64 parts of
  // 16,384 buckets were 4 MB of heads); its width adapts the same way. 8, 10,
  // 12 and 14 bits ran the 1,024-host permutation equally fast.
  part_q_.clear();
  XOFF_CHECK(first_shift < 40, "set_parts: a first bucket width beyond 2^40 ps");
  for (size_t p = 0; p < parts; ++p) part_q_.emplace_back(EventQueue::kPartBucketBits, first_shift);
  lookahead_ = lookahead;
  // What the set-up scheduled so far moves to its part.
  std::vector<Key> keys;
  while (!queue_.empty()) {
    queue_.top();
    keys.push_back(queue_.pop_top());
  }
  queue_ = EventQueue();
  for (const Key k : keys) part_queue(k, slots_[key_slot(k)].handler->stream_).push(k);
}

uint32_t Simulator::new_slot(EventHandler& handler, uint64_t tag, const void* hint) {
  XOFF_CHECK(slots_.size() < (size_t{1} << kSlotBits), "more than 2^24 events pending");
  slots_.push_back(Payload{&handler, tag});
  hints_.push_back(hint);
  return static_cast<uint32_t>(slots_.size() - 1);
}

Simulator::EventQueue::EventQueue(int bucket_bits, int shift)
    : buckets_(uint32_t{1} << std::max(bucket_bits, 6)),
      head_(buckets_, kNil),
      bits_(buckets_ / 64, 0),
      shift_(shift >= 0 ? shift : std::max(0, kShift + kBucketBits - std::max(bucket_bits, 6))) {}

bool Simulator::EventQueue::place(Key k) {
  if (abs_bucket(k) - start_ >= static_cast<int64_t>(buckets_)) {
    far_.push(k);
    return false;
  }
  insert(k);
  return true;
}

// Into its place in a short run; beside a long one: in a fabric started in
// lockstep a run is thousands of events of one instant, and a key put into
// its sorted place moved half of them (a memmove per event: 7 % of a
// 4,096-host ring's instructions).
void Simulator::EventQueue::insert_run(Key k) {
  if (run_.size() > kShortRun) {
    late_.push(k);
    return;
  }
  run_.insert(std::upper_bound(run_.begin(), run_.end(), k, std::greater<Key>()), k);
}

// The i-th (0 or 1) earliest key of the next non-empty bucket after the
// current run's, as a guess: events scheduled before it runs may come
// first. Without it the deep lookahead guessed the top itself whenever a
// run was about to end, and a 4,096-host ring or permutation, whose runs
// are a few events, then ran one event in nine with nothing prefetched
// (nearly all its wrong guesses; now one in 24). Not in the shallow
// lookahead: a fabric in cache gained nothing and paid the scan (128-host
// permutation 5 % slower). Looks at most five bitmap words (up to 319
// buckets) ahead, and at the bucket's newest chunk only; else the top.
Simulator::Key Simulator::EventQueue::beyond_run(size_t i) const {
  if (run_bucket_ == kNil || i > 1) return top_;
  const uint32_t b = scan((run_bucket_ + 1) & (buckets_ - 1), 4);
  if (b == kNil || b == run_bucket_ || head_[b] == kNil) return top_;
  const Chunk& ch = chunks_[head_[b]];
  // The two earliest keys of the chunk (a few, unsorted).
  Key first = ~Key{0}, second = ~Key{0};
  for (uint32_t j = 0; j < ch.count; ++j) {
    const Key k = ch.keys[j];
    if (k < first) {
      second = first;
      first = k;
    } else if (k < second) {
      second = k;
    }
  }
  const Key k = i == 0 ? first : second;
  return k == ~Key{0} ? top_ : k;
}

uint32_t Simulator::EventQueue::first_bucket() {
  if (found_ == kNil) found_ = scan(static_cast<uint32_t>(start_) & (buckets_ - 1), buckets_ / 64);
  if (found_ != run_bucket_) load(found_);
  return found_;
}

uint32_t Simulator::EventQueue::scan(uint32_t from, uint32_t words) const {
  uint32_t w = from / 64;
  uint64_t bits = bits_[w] & (~uint64_t{0} << (from % 64));
  // Not in from's word's upper part: the next words, wrapping round (after
  // buckets_ / 64 of them, to from's word's lower part: the window's far end).
  for (uint32_t k = 0; bits == 0; ++k) {
    if (k == words) return kNil;
    w = (w + 1) % (buckets_ / 64);
    bits = bits_[w];
  }
  return w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
}

// Bucket b becomes the current run. A run still holding events (an event
// from the far heap ran before them, and earlier events were scheduled after
// it) goes back to its bucket's chunks first.
void Simulator::EventQueue::load(uint32_t b) {
  if (run_bucket_ != kNil) unload();
  take(b, run_);
  // Mostly one or a few events: insertion sort, latest first.
  const size_t m = run_.size();
  if (m > 16) {
    sort_run();
  } else {
    for (size_t i = 1; i < m; ++i) {
      const Key k = run_[i];
      size_t j = i;
      for (; j > 0 && run_[j - 1] < k; --j) run_[j] = run_[j - 1];
      run_[j] = k;
    }
  }
  run_bucket_ = b;
  // Only events at different times can be split by a narrower bucket.
  if (m > 1 && key_time(run_.front()) != key_time(run_.back())) spread_ += m;
  ++runs_;
}

void Simulator::EventQueue::unload() {
  if (run_bucket_ == kNil) return;
  const uint32_t b = run_bucket_;
  for (const Key k : run_) link(b, k);
  run_.clear();
  while (!late_.empty()) link(b, late_.pop());
  run_bucket_ = kNil;
}

Simulator::Key Simulator::EventQueue::find_top() {
  top_valid_ = true;
  if (cal_size_ == 0) return top_ = far_.top();
  first_bucket();
  // The run's next, or an event put beside it (insert_run) if earlier.
  Key k = run_.empty() ? late_.top() : run_.back();
  if (!late_.empty() && late_.top() < k) k = late_.top();
  return top_ = !far_.empty() && far_.top() < k ? far_.top() : k;
}

inline __attribute__((always_inline)) Simulator::Key Simulator::EventQueue::pop_top() {
  const Key k = top_;
  top_valid_ = false;
  // From the current run or beside it (late_), else from the far heap (a
  // top kept from before later pushes may have no run loaded: they landed
  // in later buckets).
  const bool from_run = !run_.empty() && k == run_.back();
  if (from_run || (!late_.empty() && k == late_.top())) {
    if (from_run) [[likely]] {
      run_.pop_back();
    } else {
      late_.pop();
    }
    --cal_size_;
    if (run_.empty() && late_.empty()) {
      bits_[run_bucket_ / 64] &= ~(uint64_t{1} << (run_bucket_ % 64));
      run_bucket_ = kNil;
      found_ = kNil;
    }
  } else {
    far_.pop();
  }
  // Every pending event is at or after this one: the window starts here.
  const int64_t a = abs_bucket(k);
  if (a != start_) {
    start_ = a;
    found_ = kNil;
  }
  return k;
}

// Every 2^16 pushes: over a quarter of them beyond the window doubles the
// width; runs of events at different times averaging over 16 events, with
// under 1/16 of the pushes beyond the window, halve it. (Events at one
// instant share a bucket at any width: a fabric started in lockstep has runs
// of thousands, which halving would not split.) Not also doubled when runs
// are short: with one or two events pending every run is one event at any
// width, so the width would grow unbounded, and a dense phase after it would
// push every event into one ever-growing run, which only a load measures (a
// review reproduced a 20x slowdown). The calendar is then rebuilt: what falls
// beyond the new window moves to the far heap; the heap keeps what it has
// (its top is compared at every pop anyway).
void Simulator::EventQueue::adapt() {
  int shift = shift_;
  if (far_pushes_ * 4 > pushes_ && shift_ < 40) {
    ++shift;
  } else if (spread_ > 16 * runs_ && far_pushes_ * 16 < pushes_ && shift_ > 0) {
    --shift;
  }
  pushes_ = far_pushes_ = spread_ = runs_ = 0;
  if (shift == shift_) return;
  top_valid_ = false;
  unload();
  std::vector<Key>& keys = rebuild_;  // kept: a later rebuild reuses its room
  keys.clear();
  keys.reserve(cal_size_);
  for (uint32_t b = 0; b < buckets_; ++b) take(b, keys);
  std::fill(bits_.begin(), bits_.end(), 0);
  cal_size_ = 0;
  found_ = kNil;
  // The window starts at the last popped key's bucket (every pending key is
  // at or after it), in the new width. Not the clock: with parts (set_parts)
  // another part's event may push here while its clock is past this queue's
  // earliest keys.
  start_ = (start_ << shift_) >> shift;
  shift_ = shift;
  for (const Key k : keys) place(k);
}

// A new first chunk for bucket b (its first one is full, or it has none).
uint32_t Simulator::EventQueue::new_chunk(uint32_t b) {
  uint32_t fresh = 0;
  if (free_chunks_.empty()) {
    fresh = static_cast<uint32_t>(chunks_.size());
    chunks_.emplace_back();
  } else {
    fresh = free_chunks_.back();
    free_chunks_.pop_back();
  }
  chunks_[fresh].next = head_[b];
  chunks_[fresh].count = 0;
  head_[b] = fresh;
  return fresh;
}

// A long run is mostly a few stretches already in order: the events of one
// instant are scheduled by events that ran in key order, so their keys come
// mostly in key order too (a 4,096-host ring: one key in 200 out of place;
// a k = 16 fat-tree: one in six). Its stretches, latest first as take()
// gives them, are merged pairwise, O(m log stretches) instead of a sort's
// O(m log m) with a mispredicted branch per comparison; many short stretches
// get the plain sort.
void Simulator::EventQueue::sort_run() {
  const size_t m = run_.size();
  std::vector<size_t>& at = stretch_;  // where each stretch starts, then m
  at.clear();
  at.push_back(0);
  for (size_t i = 1; i < m; ++i) {
    if (run_[i - 1] < run_[i]) {
      at.push_back(i);
      if (at.size() > m / 8) {  // many short stretches: a plain sort
        std::sort(run_.begin(), run_.end(), std::greater<Key>());
        return;
      }
    }
  }
  at.push_back(m);
  if (at.size() == 2) return;  // in order already
  std::vector<Key>& to = merged_;
  to.resize(m);
  while (at.size() > 2) {
    size_t kept = 1;
    size_t s = 0;
    for (; s + 2 < at.size(); s += 2) {
      std::merge(run_.begin() + static_cast<ptrdiff_t>(at[s]),
                 run_.begin() + static_cast<ptrdiff_t>(at[s + 1]),
                 run_.begin() + static_cast<ptrdiff_t>(at[s + 1]),
                 run_.begin() + static_cast<ptrdiff_t>(at[s + 2]),
                 to.begin() + static_cast<ptrdiff_t>(at[s]), std::greater<Key>());
      at[kept++] = at[s + 2];
    }
    if (s + 2 == at.size()) {  // an odd stretch left over: copied as it is
      std::copy(run_.begin() + static_cast<ptrdiff_t>(at[s]), run_.end(),
                to.begin() + static_cast<ptrdiff_t>(at[s]));
      at[kept++] = m;
    }
    at.resize(kept);
    run_.swap(to);
  }
}

void Simulator::EventQueue::take(uint32_t b, std::vector<Key>& out) {
  for (uint32_t c = head_[b]; c != kNil;) {
    const Chunk& ch = chunks_[c];
    // A few keys (under three per bucket in a fabric): a loop, not a memmove.
    // Latest first: the newest chunk first, each chunk from its end (what
    // was scheduled last, which is mostly the latest).
    for (uint32_t i = ch.count; i-- > 0;) out.push_back(ch.keys[i]);
    free_chunks_.push_back(c);
    c = ch.next;
  }
  head_[b] = kNil;
}

void Simulator::KeyHeap::grow() {
  // Room for 3 keys of padding so that h_ + 1 can sit on a 64-byte line.
  const size_t cap = capacity_ == 0 ? 1024 : capacity_ * 2;
  auto buf = std::make_unique<Key[]>(cap + 3);
  const auto addr = reinterpret_cast<uintptr_t>(buf.get() + 1);
  const size_t skip = ((64 - addr % 64) % 64) / sizeof(Key);
  Key* h = buf.get() + skip;
  std::copy(h_, h_ + size_, h);
  buf_ = std::move(buf);
  h_ = h;
  capacity_ = cap;
}

void Simulator::KeyHeap::push(Key k) {
  if (size_ == capacity_) grow();
  size_t i = size_++;
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!(k < h_[parent])) break;
    h_[i] = h_[parent];
    i = parent;
  }
  h_[i] = k;
}

// Sift-down without a branch per child: the four children are compared as a
// tournament of conditional moves (child order in a heap is random, so a
// branch here would mispredict half the time).
Simulator::Key Simulator::KeyHeap::pop() {
  const Key top = h_[0];
  const Key last = h_[--size_];
  const size_t n = size_;
  if (n == 0) return top;
  size_t i = 0;
  for (;;) {
    const size_t first = 4 * i + 1;
    size_t best = 0;
    if (first + 3 < n) {
      best = min_index(min_index(first, first + 1), min_index(first + 2, first + 3));
    } else {
      if (first >= n) break;
      best = first;
      for (size_t c = first + 1; c < n; ++c) best = min_index(best, c);
    }
    if (!(h_[best] < last)) break;
    h_[i] = h_[best];
    i = best;
  }
  h_[i] = last;
  return top;
}

// One event's hash, added to the sum: order-free, so the sum over the events
// of several processes is the sum over the events of one.
void Simulator::fold(Time t, StreamId origin, const Payload& p) {
  const uint64_t h = mix(0xcbf29ce484222325ULL ^ static_cast<uint64_t>(t.count_ps()),
                         (static_cast<uint64_t>(p.handler->stream_) << 32) | origin);
  fingerprint_ += mix(h, p.tag);
}

uint64_t Simulator::run_until(Time until) { return run_until(until, UINT64_MAX); }

// One event: the body of both run loops.
inline __attribute__((always_inline)) void Simulator::run_event(EventQueue& q, Key k) {
  const uint32_t slot = key_slot(k);
  const Payload e = slots_[slot];
  q.free_slots.push_back(slot);
  // Lookahead: on a large fabric the next handlers and their packets are
  // cold (a port was last served a whole fabric's worth of events ago).
  // While this event runs, the next one (the new top) prefetches what it
  // will touch, and the handler of the one likely after it starts loading;
  // deeper when set_deep_lookahead is on (see there).
  if (!q.empty()) {
    // The top first: finding it may load the next bucket's run, which the
    // events after it are read from.
    const Payload& next = slots_[key_slot(q.top())];
    const uint32_t after = key_slot(q.after_top(1, deep_lookahead_));
    __builtin_prefetch(slots_[after].handler);
    if (deep_lookahead_) {
      const uint32_t third = key_slot(q.after_top(2, true));
      __builtin_prefetch(&slots_[third]);
      __builtin_prefetch(&hints_[third]);
      // (Addresses, not pointer arithmetic: a hint past its object's end is fine.)
      const uintptr_t h = reinterpret_cast<uintptr_t>(hints_[after]);
      __builtin_prefetch(reinterpret_cast<const void*>(h));
      __builtin_prefetch(reinterpret_cast<const void*>(h + 64));
      __builtin_prefetch(reinterpret_cast<const void*>(h + 128));
      next.handler->prefetch_deep(next.tag);
    } else {
      next.handler->prefetch(next.tag);
    }
  }
  // Two events with the same (time, stream, sequence) would run in slot
  // order: still deterministic in one process, but not across partitions.
  // Only possible after 2^34 schedules of one stream with the first still
  // pending at the same picosecond; checked in debug builds.
  const EventId id = k >> kSlotBits;
  XOFF_DCHECK(id != current_id_,
              "two pending events with the same key (a stream wrapped its 2^34 sequence)");
  current_id_ = id;
  now_ = key_time(k);
  const StreamId stream = e.handler->stream_;
  if (setup_replica_ && (stream == kSetupStream || stream == kObserverStream)) [[unlikely]] {
    // runs here too; another part counts it
  } else {
    ++events_;
    if (!e.handler->observer_) fold(now_, key_stream(k), e);
  }
  if (profiling_) [[unlikely]]
    count_kind(e.handler->event_kind(e.tag));
  current_stream_ = stream;
  e.handler->handle_event(e.tag);
}

uint64_t Simulator::run_until(Time until, uint64_t max_events) {
  CurrentGuard guard(this);
  stopped_ = false;
  const uint64_t start = events_;
  const uint64_t last = max_events > UINT64_MAX - start ? UINT64_MAX : start + max_events;
  if (!part_q_.empty()) {
    run_windows(until, last);
  } else {
    while (!queue_.empty() && !stopped_ && events_ < last && key_time(queue_.top()) <= until)
      run_event(queue_, queue_.pop_top());
  }
  current_stream_ = kSetupStream;
  // Reached `until` (not stopped, not cut by max_events): time moves there.
  const bool reached = next_event_time() > until;
  if (!stopped_ && reached && until > now_ && until != Time::max()) now_ = until;
  return events_ - start;
}

// set_parts' loop. The budget (`last`) and stop() are looked at between
// windows and global events.
void Simulator::run_windows(Time until, uint64_t last) {
  // The latest event run: parts run in turn, so the clock after a window is
  // the last part's last event, and an earlier part may have run later ones.
  Time latest = now_;
  while (!stopped_ && events_ < last) {
    EventQueue* first = earliest();
    if (first == nullptr || key_time(first->top()) > until) break;
    const Time t = key_time(first->top());
    const Time global = queue_.empty() ? Time::max() : key_time(queue_.top());
    if (global <= t) {
      // An instant with a global event: everything keyed before it runs
      // first, one event at a time in key order across the queues.
      run_event(*first, first->pop_top());
      latest = std::max(latest, now_);
      continue;
    }
    // A window [t, end): the lookahead, cut at the next global event and
    // after `until`.
    Time end = t + lookahead_;
    if (global < end) end = global;
    if (until < end) end = until + Duration::ps(1);
    window_end_ = end;
    ++windows_;
    // Serpentine: every other window runs the parts in reverse, so that a
    // window starts with the parts the last one ended with, whose lines are
    // still in the cache. In the same order every time, once the parts'
    // lines together exceed the cache, each part is evicted just before it
    // runs again (LRU's cyclic worst case). Parts are independent within a
    // window, so their order changes nothing else.
    const bool reverse = (windows_ & 1) == 0;
    const size_t n = part_q_.size();
    for (size_t i = 0; i < n; ++i) {
      const size_t p = reverse ? n - 1 - i : i;
      EventQueue& q = part_q_[p];
      running_part_ = static_cast<uint16_t>(p);
      if (part_turn_hook_ != nullptr && !q.empty() && key_time(q.top()) < end)
        part_turn_hook_(part_turn_context_, p, end);
      while (!q.empty() && key_time(q.top()) < end) run_event(q, q.pop_top());
      latest = std::max(latest, now_);
    }
    running_part_ = kNoPart;
  }
  // Cut by a budget or stop(): the clock is the latest event run (what ran
  // is every event before the last window's start, and each part's up to
  // its end: all at or before it), so that what the caller reads or
  // schedules at now() is not behind an event that ran.
  now_ = latest;
}

// The queue whose top key is the earliest (keys are unique: no ties), or
// null when nothing is pending.
Simulator::EventQueue* Simulator::earliest() const {
  EventQueue* first = queue_.empty() ? nullptr : &queue_;
  for (EventQueue& q : part_q_)
    if (!q.empty() && (first == nullptr || q.top() < first->top())) first = &q;
  return first;
}

uint64_t Simulator::run() { return run_until(Time::max()); }

std::vector<Simulator::KindCount> Simulator::event_profile() const {
  // Merge by text: two literals with the same text may have two addresses.
  std::unordered_map<std::string, uint64_t> merged;
  for (const auto& [kind, n] : profile_.sorted()) merged[reinterpret_cast<const char*>(kind)] += n;
  std::vector<KindCount> out;
  for (auto& [kind, n] : merged) out.push_back(KindCount{kind, n});
  std::sort(out.begin(), out.end(), [](const KindCount& a, const KindCount& b) {
    return a.events != b.events ? a.events > b.events : a.kind < b.kind;
  });
  return out;
}

}  // namespace xoff::sim
