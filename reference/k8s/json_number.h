// Checked reads of numbers from parsed JSON (case files, configurations, Kubernetes objects): an
// integer within a range, or seconds as int64 nanoseconds. nlohmann's get<int64_t>() on a double
// out of range is undefined behaviour and get<int>() narrows silently (4294967297 -> 1); these
// never do either, and their errors name the field and quote the value.
#ifndef SCHEDCHECK_REFERENCE_K8S_JSON_NUMBER_H_
#define SCHEDCHECK_REFERENCE_K8S_JSON_NUMBER_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::k8s {

// The largest |seconds| whose nanoseconds fit in int64 (9223372036.854775807 s).
inline constexpr int64_t kMaxInt64Seconds = 9223372036;

// True, with *out set, when `v` is an integral JSON number (signed or unsigned, never a float)
// within [lo, hi].
bool IntegerIn(const nlohmann::json& v, int64_t lo, int64_t hi, int64_t* out);

// `v` as an integer in [lo, hi]; otherwise
// "FIELD: expected an integer in [lo, hi], got 1e+300".
Result<int64_t> CheckedInteger(const nlohmann::json& v, int64_t lo, int64_t hi,
                               const std::string& field);

// `v`, a number of seconds (fractional allowed) in [lo_s, hi_s], as nanoseconds rounded to the
// nearest; otherwise "FIELD: expected a number of seconds in [lo_s, hi_s], got \"abc\"".
// REQUIRES: -kMaxInt64Seconds <= lo_s <= hi_s <= kMaxInt64Seconds.
Result<int64_t> CheckedSecondsAsNanos(const nlohmann::json& v, int64_t lo_s, int64_t hi_s,
                                      const std::string& field);

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_JSON_NUMBER_H_
