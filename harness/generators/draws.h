// The random draws the trace generators (wide_generators, storage_generators) make. Every draw is
// made at RapidCheck's nominal size, so that the percentages the generators use hold from the
// first case on (RapidCheck scales ranges down for its early, small cases, which would turn every
// Chance() on); shrinking still moves each draw towards its first value.
#ifndef SCHEDCHECK_HARNESS_GENERATORS_DRAWS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_DRAWS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "rapidcheck.h"

namespace schedcheck::generators::draws {

inline constexpr int kNominalSize = 100;

// A value in [lo, hi_exclusive).
template <typename T>
T Uniform(T lo, T hi_exclusive) {
  return *rc::gen::resize(kNominalSize, rc::gen::inRange<T>(lo, hi_exclusive));
}

// True `percent` times in 100.
inline bool Chance(int percent) { return Uniform(0, 100) < percent; }

// One of `values`.
template <typename T>
T Pick(const std::vector<T>& values) {
  return *rc::gen::resize(kNominalSize, rc::gen::elementOf(values));
}

inline std::string PickStr(const std::vector<std::string>& values) { return Pick(values); }

// A value in [lo, hi_inclusive].
inline int Between(int lo, int hi_inclusive) { return Uniform(lo, hi_inclusive + 1); }

// An index into a container of `size` elements. REQUIRES: size > 0.
inline size_t Index(size_t size) { return Uniform<size_t>(0, size); }

}  // namespace schedcheck::generators::draws

#endif  // SCHEDCHECK_HARNESS_GENERATORS_DRAWS_H_
