// Loads a whole trace from either form: the binary format (traces/README.md) or the JSON Lines of
// `schedcheck trace cat` (an optional {"header": {...}} line, then one Record per line).
#ifndef SCHEDCHECK_TRACES_TRACE_FILE_H_
#define SCHEDCHECK_TRACES_TRACE_FILE_H_

#include <string>

#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

// Errors name the file and the byte offset (binary) or line (JSON Lines) and the field. Every
// record and the header are checked against `limits`.
Result<Trace> LoadTrace(const std::string& path, const InputLimits& limits = {});

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_FILE_H_
