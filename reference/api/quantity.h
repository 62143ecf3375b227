// Kubernetes resource quantities ("100m", "1.5Gi", "2e3", "20"): parsing into the integer views
// the scheduler uses. Pure functions, no I/O.
#ifndef SCHEDCHECK_REFERENCE_API_QUANTITY_H_
#define SCHEDCHECK_REFERENCE_API_QUANTITY_H_

#include <cstdint>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::reference {

// A parsed quantity, kept exactly as value = mantissa * 10^exp10 * 1024^exp1024 (sign applied).
class Quantity {
 public:
  // Parses the Kubernetes quantity grammar: sign, digits with an optional fraction, then an
  // optional suffix: binary (Ki Mi Gi Ti Pi Ei), decimal SI (n u m k M G T P E) or a decimal
  // exponent (e3, E-2). Errors name the offending text.
  static Result<Quantity> Parse(std::string_view text);

  // The value in thousandths, rounded up (away from zero for positives), as Kubernetes'
  // MilliValue(); saturates at the int64 range. Used for cpu.
  int64_t MilliValue() const;
  // The value rounded up to an integer, as Kubernetes' Value(); saturates. Used for everything
  // but cpu (memory and storage in bytes, counts, extended resources).
  int64_t Value() const;

 private:
  int64_t ScaledCeil(int extra_exp10) const;

  bool negative_ = false;
  unsigned __int128 mantissa_ = 0;
  int exp10_ = 0;
  int exp1024_ = 0;
};

// The integer a resource name is measured in: millis for "cpu", rounded-up units otherwise.
Result<int64_t> ParseResourceQuantity(std::string_view resource_name, std::string_view text);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_QUANTITY_H_
