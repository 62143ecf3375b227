#include "reference/k8s/json_number.h"

#include <cmath>

namespace schedcheck::k8s {
namespace {

// The value as the error quotes it; `replace`: a string with invalid UTF-8 must not make dump()
// throw.
std::string Quote(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Range(int64_t lo, int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

}  // namespace

bool IntegerIn(const nlohmann::json& v, int64_t lo, int64_t hi, int64_t* out) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (hi < 0 || u > static_cast<uint64_t>(hi)) return false;
    *out = static_cast<int64_t>(u);
    return *out >= lo;
  }
  if (!v.is_number_integer()) return false;
  const int64_t n = v.get<int64_t>();
  if (n < lo || n > hi) return false;
  *out = n;
  return true;
}

Result<int64_t> CheckedInteger(const nlohmann::json& v, int64_t lo, int64_t hi,
                               const std::string& field) {
  int64_t n = 0;
  if (!IntegerIn(v, lo, hi, &n))
    return Error{field + ": expected an integer in " + Range(lo, hi) + ", got " + Quote(v)};
  return n;
}

Result<int64_t> CheckedSecondsAsNanos(const nlohmann::json& v, int64_t lo_s, int64_t hi_s,
                                      const std::string& field) {
  const Error error{field + ": expected a number of seconds in " + Range(lo_s, hi_s) + ", got " +
                    Quote(v)};
  if (!v.is_number()) return error;
  // Integers are range-checked as integers: a uint64 beyond int64 would wrap in get<int64_t>().
  if (!v.is_number_float()) {
    int64_t s = 0;
    if (!IntegerIn(v, lo_s, hi_s, &s)) return error;
    return s * 1'000'000'000;
  }
  // NaN fails both comparisons.
  const double s = v.get<double>();
  if (!(s >= static_cast<double>(lo_s) && s <= static_cast<double>(hi_s))) return error;
  // |s * 1e9| <= 9223372036e9 < 2^63: the rounding stays within int64.
  return static_cast<int64_t>(std::llround(s * 1e9));
}

}  // namespace schedcheck::k8s
