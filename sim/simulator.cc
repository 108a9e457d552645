#include "sim/simulator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

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

void Simulator::schedule_at(Time t, EventHandler& handler, uint64_t tag) {
  XOFF_CHECK(t >= now_, "event scheduled in the past: at " + std::to_string(t.count_ps()) +
                            " ps, now " + std::to_string(now_.count_ps()) + " ps");
  if (handler.handler_id_ == 0) handler.handler_id_ = next_handler_id_++;
  push(Entry{t, next_seq_++, &handler, tag});
}

void Simulator::push(const Entry& e) {
  heap_.push_back(e);
  size_t i = heap_.size() - 1;
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!e.before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

// The smaller of two entries' indices, without a branch: (time, seq) compared
// as one 128-bit key becomes cmp/sbb and the choice a conditional move. Child
// order in a heap is random, so a branch here mispredicts half the time.
size_t Simulator::min_index(size_t a, size_t b) const {
  return heap_[b].key() < heap_[a].key() ? b : a;
}

Simulator::Entry Simulator::pop() {
  const Entry top = heap_.front();
  const Entry last = heap_.back();
  heap_.pop_back();
  const size_t n = heap_.size();
  if (n == 0) return top;
  const Key last_key = last.key();
  size_t i = 0;
  for (;;) {
    const size_t first = 4 * i + 1;
    size_t best;
    if (first + 3 < n) {  // all four children: a tournament of conditional moves
      best = min_index(min_index(first, first + 1), min_index(first + 2, first + 3));
    } else {
      if (first >= n) break;
      best = first;
      for (size_t c = first + 1; c < n; ++c) best = min_index(best, c);
    }
    if (!(heap_[best].key() < last_key)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
  return top;
}

void Simulator::fold(const Entry& e) {
  uint64_t h = mix(fingerprint_, static_cast<uint64_t>(e.time.count_ps()));
  h = mix(h, e.handler->handler_id_);
  fingerprint_ = mix(h, e.tag);
}

uint64_t Simulator::run_until(Time until) {
  CurrentGuard guard(this);
  stopped_ = false;
  const uint64_t start = events_;
  while (!heap_.empty() && !stopped_ && heap_.front().time <= until) {
    const Entry e = pop();
    // Lookahead: on a large fabric the next handlers and their packets are
    // cold (a port was last served a whole fabric's worth of events ago).
    // While this event runs, the next one (the new top) prefetches what it
    // will touch, and the handlers of the top's children, one of which runs
    // after it, start loading.
    if (!heap_.empty()) {
      const size_t n = heap_.size() < 5 ? heap_.size() : 5;
      for (size_t c = 1; c < n; ++c) __builtin_prefetch(heap_[c].handler);
      heap_.front().handler->prefetch(heap_.front().tag);
    }
    now_ = e.time;
    ++events_;
    fold(e);
    if (profiling_) [[unlikely]]
      ++profile_[e.handler->event_kind(e.tag)];
    e.handler->handle_event(e.tag);
  }
  if (!stopped_ && until > now_ && until != Time::max()) now_ = until;
  return events_ - start;
}

uint64_t Simulator::run() { return run_until(Time::max()); }

std::vector<Simulator::KindCount> Simulator::event_profile() const {
  // Merge by text: two literals with the same text may have two addresses.
  std::unordered_map<std::string, uint64_t> merged;
  for (const auto& [kind, n] : profile_) merged[kind] += n;
  std::vector<KindCount> out;
  for (auto& [kind, n] : merged) out.push_back(KindCount{kind, n});
  std::sort(out.begin(), out.end(), [](const KindCount& a, const KindCount& b) {
    return a.events != b.events ? a.events > b.events : a.kind < b.kind;
  });
  return out;
}

}  // namespace xoff::sim
