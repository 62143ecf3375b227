// The fast engine's hash map keyed by interned labels (reference/api/label_ids.h).
// IdMap: a hash map from integer ids (interned labels, or PackLabelPair pairs) to a value, held
// in one flat array with open addressing. Plugins build one per scheduling cycle with thousands
// of entries and look one up per node: this keeps the lookup to a multiply and one or two
// adjacent slots, and building or cloning it to one allocation. Entries are never removed.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_BASE_ID_MAP_H_
#define SCHEDCHECK_REFERENCE_ACCEL_BASE_ID_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference/api/label_ids.h"

namespace schedcheck::reference {

// (key, value) as one integer, for hash maps keyed by topology pair.
inline uint64_t PackLabelPair(LabelId key, LabelId value) {
  return (static_cast<uint64_t>(key) << 32) | value;
}

template <typename V>
class IdMap {
 public:
  // The value of `id`, or null when absent.
  const V* Find(uint64_t id) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = Home(id);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.id == id) return &s.value;
    }
  }
  V* Find(uint64_t id) { return const_cast<V*>(static_cast<const IdMap*>(this)->Find(id)); }

  // The value of `id`, inserted as V{} when absent.
  V& operator[](uint64_t id) {
    if ((size_ + 1) * 2 > slots_.size()) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = Home(id);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) {
        s = Slot{id, V{}, true};
        ++size_;
        return s.value;
      }
      if (s.id == id) return s.value;
    }
  }

  // Room for `n` entries without rehashing.
  void Reserve(size_t n) {
    size_t capacity = 16;
    while (capacity < n * 2) capacity *= 2;
    if (capacity > slots_.size()) Rehash(capacity);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Calls f(id, value) for every entry, in no particular order.
  template <typename F>
  void ForEach(F f) const {
    for (const Slot& s : slots_) {
      if (s.used) f(s.id, s.value);
    }
  }

 private:
  struct Slot {
    uint64_t id = 0;
    V value{};
    bool used = false;
  };

  // Multiplicative hashing (Fibonacci): ids are small dense integers, so spread their bits.
  size_t Home(uint64_t id) const {
    return static_cast<size_t>((id * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  // Moves the entries to a table of `capacity` slots (a power of two, at least 16).
  void Rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - __builtin_ctzll(capacity);
    size_ = 0;
    for (const Slot& s : old) {
      if (s.used) (*this)[s.id] = s.value;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t size_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_BASE_ID_MAP_H_
