// Exact quantities for DRA's counters and device capacity: the value of a Kubernetes quantity in
// units of 10^-9, in 128 bits, so sums and comparisons are exact as resource.Quantity's are (its
// int64 views round and saturate).
#ifndef SCHEDCHECK_REFERENCE_DRA_NANOS_H_
#define SCHEDCHECK_REFERENCE_DRA_NANOS_H_

#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::reference::dra {

// The quantity (reference/api/quantity.h's grammar and errors) in nanos, rounded up (away from
// zero) as ParseQuantity rounds to nano; a binary-suffixed amount capped at 2^63-1 units as
// ParseQuantity caps it. An Error beyond 2^126 nanos (about 10^28 units).
Result<__int128> ParseNanos(std::string_view text);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_NANOS_H_
