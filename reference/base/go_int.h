// int64 arithmetic as Go defines it: two's complement, wrapping on overflow. C++ leaves signed
// overflow undefined, and upstream adds, subtracts and multiplies int64 quantities (requests,
// allocatable, scores) that untrusted input can make as large as int64 allows. Where upstream's
// expression is `a + b` on int64, the reference writes GoAdd(a, b): the same result in every case
// Go defines, which is every case. Adding then subtracting a pod's requests stays exact, as in Go.
#ifndef SCHEDCHECK_REFERENCE_BASE_GO_INT_H_
#define SCHEDCHECK_REFERENCE_BASE_GO_INT_H_

#include <cstdint>
#include <limits>

namespace schedcheck {

// Unsigned arithmetic wraps modulo 2^64, and since C++20 converting back to int64_t is modular too.
constexpr int64_t GoAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
constexpr int64_t GoSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
constexpr int64_t GoMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// Go's int32 product (affinity weight x multiplier): wraps as the int64 ones do.
constexpr int32_t GoMul32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}
// Go's a / b for b != 0: truncated toward zero, and math.MinInt64 / -1 is math.MinInt64 (C++:
// undefined).
constexpr int64_t GoDiv(int64_t a, int64_t b) { return b == -1 ? GoSub(0, a) : a / b; }

// Go's int64(f) as the amd64 release builds compute it (CVTTSD2SQ): truncation toward zero, and
// math.MinInt64 for NaN and for values int64 cannot hold, where the Go spec leaves the result to
// the implementation (C++: undefined).
constexpr int64_t GoFloat64ToInt64(double f) {
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(f);
}

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_GO_INT_H_
