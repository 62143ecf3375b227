// The one source of randomness in the reference: a seeded SplitMix64 generator. Its own code, so
// sequences are identical on every standard library.
#ifndef SCHEDCHECK_REFERENCE_BASE_RAND_H_
#define SCHEDCHECK_REFERENCE_BASE_RAND_H_

#include <cstdint>

#include "reference/base/divisibility.h"

namespace schedcheck {

class Rand {
 public:
  explicit Rand(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0 (rejection sampling, no modulo bias). The rejection limit lies
  // above UINT64_MAX - n, so it is only computed (a division) for draws that high.
  uint64_t Uniform(uint64_t n) {
    uint64_t v;
    do {
      v = Next();
    } while (v > UINT64_MAX - n && v >= UINT64_MAX - UINT64_MAX % n);
    return v % n;
  }
  // Uniform(n) == 0, drawing exactly as Uniform does, with the remainder test done by `table`.
  bool UniformIsZero(uint64_t n, DivisibilityTable& table) {
    uint64_t v;
    do {
      v = Next();
    } while (v > UINT64_MAX - n && v >= UINT64_MAX - UINT64_MAX % n);
    return table.Divides(v, n);
  }

 private:
  uint64_t state_;
};

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_RAND_H_
