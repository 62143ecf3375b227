// Loads a whole trace from either form: the binary format (traces/README.md) or the JSON Lines of
// `schedcheck trace cat` (an optional {"header": {...}} line, then one Record per line).
#ifndef SCHEDCHECK_TRACES_TRACE_FILE_H_
#define SCHEDCHECK_TRACES_TRACE_FILE_H_

#include <functional>
#include <string>

#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

// True when `path` starts with the binary format's magic (false too when it cannot be read).
bool IsBinaryTrace(const std::string& path);

// Errors name the file and the byte offset (binary) or line (JSON Lines) and the field. Every
// record and the header are checked against `limits`.
Result<Trace> LoadTrace(const std::string& path, const InputLimits& limits = {});

// The same reading, one record at a time, for callers that keep only some records (a diff keeps
// the decisions of a capture, not its million API events): `header` receives the header (left
// default when a JSON Lines trace has no header line), then `each` every record in file order,
// which it may move from. The first error, the reader's or the one `each` returns, ends the read
// and is returned.
Outcome StreamTrace(const std::string& path, const InputLimits& limits, Header* header,
                    const std::function<Outcome(Record&&)>& each);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_FILE_H_
