// RFC 3339 timestamps as Kubernetes writes them ("2023-05-01T12:00:00Z", with optional fraction
// and numeric offset) to and from Unix nanoseconds. Pure arithmetic, no time zone database.
#ifndef SCHEDCHECK_REFERENCE_API_RFC3339_H_
#define SCHEDCHECK_REFERENCE_API_RFC3339_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::reference {

Result<int64_t> ParseRfc3339(std::string_view text);
// UTC, "Z", nanoseconds only when non-zero (as Go's time.RFC3339Nano without trailing zeros).
std::string FormatRfc3339(int64_t unix_ns);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_RFC3339_H_
