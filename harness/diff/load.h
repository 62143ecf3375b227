// Reading the two sides of a diff: a JSON Lines decision log (docs/FORMATS.md#decision-logs; e.g. a
// golden file), a binary decision trace of `schedcheck replay -o`, or any trace (binary or the JSON
// Lines of `trace cat`) holding decision records, such as an imported capture with observed
// decisions.
#ifndef SCHEDCHECK_HARNESS_DIFF_LOAD_H_
#define SCHEDCHECK_HARNESS_DIFF_LOAD_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::diff {

// The decision records of `path` in file order (API records are dropped). A file whose first
// non-empty line is a JSON object with "t" and "type" is read as a decision log, anything else as
// a trace. Errors name the file, the line or byte offset, and the field. `limits` bound the
// records and every record's strings and maps (harness/fuzz/README.md). With `level`, it gets the
// compatibility level the file states: a trace's header.compat, "" for a decision log (whose
// lines have no header).
// Refused as bad input: an incomplete log (a JSON Lines log's "incomplete" line, a trace's header
// label "incomplete": the scheduler process failed before the run ended), and a log whose
// bindings contradict its attempts (CheckBindings in bindings_check.h).
// With `header`, it gets a trace's header (a decision log has none: cleared).
Result<std::vector<trace::Record>> LoadDecisions(const std::string& path,
                                                 const trace::InputLimits& limits = {},
                                                 std::string* level = nullptr,
                                                 trace::Header* header = nullptr);

// Parses decision-log JSON Lines text; `source` names it in errors ("a.jsonl:3: field t: ...").
// Checks each line, not the bindings against the attempts (LoadDecisions does).
Result<std::vector<trace::Record>> ParseDecisionLog(const std::string& text,
                                                    const std::string& source,
                                                    const trace::InputLimits& limits = {});

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_LOAD_H_
