// DivisibilityTable: an exact "v % d == 0" without a division, for divisors up to the largest
// asked so far. Host selection asks it once per tied node with the running tie count as d, so the
// divisors repeat every cycle while the dividends are fresh random numbers: a table of
// per-divisor constants turns each 64-bit division into a multiply, a rotate and a compare.
//
// The test (Granlund and Montgomery; Hacker's Delight §10-17): write d = m * 2^k with m odd and
// let m' be the inverse of m modulo 2^64. Then d divides v exactly when
// rotr(v * m', k) <= floor((2^64 - 1) / d).
#ifndef SCHEDCHECK_REFERENCE_BASE_DIVISIBILITY_H_
#define SCHEDCHECK_REFERENCE_BASE_DIVISIBILITY_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace schedcheck {

class DivisibilityTable {
 public:
  // v % d == 0. REQUIRES: d > 0.
  bool Divides(uint64_t v, uint64_t d) {
    if (d >= entries_.size()) {
      // Larger divisors than any table would hold are rare enough to divide.
      if (d > kMaxTabled) return v % d == 0;
      Grow(d);
    }
    const Entry& e = entries_[d];
    return std::rotr(v * e.odd_inverse, e.shift) <= e.limit;
  }

 private:
  static constexpr uint64_t kMaxTabled = uint64_t{1} << 24;

  struct Entry {
    uint64_t odd_inverse = 0;  // the inverse of d's odd part modulo 2^64
    uint64_t limit = 0;        // floor((2^64 - 1) / d)
    int shift = 0;             // the power of two in d
  };

  void Grow(uint64_t d) {
    std::size_t size = entries_.empty() ? 64 : entries_.size();
    while (size <= d) size *= 2;
    for (uint64_t n = entries_.size(); n < size; ++n) entries_.push_back(MakeEntry(n));
  }

  static Entry MakeEntry(uint64_t d) {
    if (d == 0) return Entry{};  // never asked: d > 0
    Entry e;
    e.shift = std::countr_zero(d);
    const uint64_t odd = d >> e.shift;
    // Newton's iteration doubles the correct low bits each step; odd * odd == 1 (mod 8) gives
    // three to start with, so five steps reach 96 >= 64.
    uint64_t inverse = odd;
    for (int i = 0; i < 5; ++i) inverse *= 2 - odd * inverse;
    e.odd_inverse = inverse;
    e.limit = std::numeric_limits<uint64_t>::max() / d;
    return e;
  }

  std::vector<Entry> entries_;
};

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_DIVISIBILITY_H_
