#pragma once
// FlatMap: an open-addressing hash map from an unsigned key (32-bit by
// default) to a small value, for per-flow state that must live only at a flow's two ends (a NIC's
// receiver state keyed by the global flow id). Memory is proportional to the keys present, not to
// the largest key: a vector indexed by flow id costs hosts x flows over a fabric, this costs flows
// x 2.
//
// Linear probing over a power-of-two table of (key, value) slots, grown at a
// load factor of 1/2; deletion by backward shift (no tombstones), so lookups
// stay short after many inserts and erases. The hash is splitmix64's
// finalizer, so dense keys (flow ids 0, 1, 2, ...) spread. Iteration order is
// never exposed (sorted() lists the entries by key): nothing that depends on
// it can leak into a run's results. Also the simulator's event profile, keyed
// by the address of each kind's literal.
//
// References returned by find/get stay valid until the next insert or erase.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace xoff::sim {

template <typename V, typename K = uint32_t>
class FlatMap {
  static_assert(std::is_unsigned_v<K> && sizeof(K) <= sizeof(uint64_t));

 public:
  // The value of `key`, or null.
  V* find(K key) {
    if (slots_.empty()) return nullptr;
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const V* find(K key) const { return const_cast<FlatMap*>(this)->find(key); }

  // The value of `key`, value-initialised on first use.
  V& get(K key) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.key = key;
        s.value = V{};
        ++size_;
        return s.value;
      }
      if (s.key == key) return s.value;
    }
  }

  // Removes `key`; returns whether it was present.
  bool erase(K key) {
    if (slots_.empty()) return false;
    size_t i = home(key);
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].used) return false;
      if (slots_[i].key == key) break;
    }
    // Backward shift: move later members of the probe run into the hole when
    // their home position does not lie cyclically in (hole, their position].
    size_t hole = i;
    for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].key);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (!stays) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
    return true;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return slots_.size(); }
  // Every entry, by key.
  std::vector<std::pair<K, V>> sorted() const {
    std::vector<std::pair<K, V>> out;
    out.reserve(size_);
    for (const Slot& s : slots_) {
      if (s.used) out.emplace_back(s.key, s.value);
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
  }

 private:
  struct Slot {
    K key = 0;
    bool used = false;
    V value{};
  };

  size_t home(K key) const {
    uint64_t z = static_cast<uint64_t>(key) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(z ^ (z >> 31)) & mask_;
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(old.empty() ? 16 : old.size() * 2);
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (Slot& s : old) {
      if (s.used) get(s.key) = s.value;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace xoff::sim
