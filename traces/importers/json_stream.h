// Streams of concatenated JSON values, as `kubectl get --watch -o json` prints them: objects one
// after another, pretty-printed over many lines or several per line, separated by whitespace
// only. Also reads JSON Lines and a single top-level array (its elements become the values).
#ifndef SCHEDCHECK_TRACES_IMPORTERS_JSON_STREAM_H_
#define SCHEDCHECK_TRACES_IMPORTERS_JSON_STREAM_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::trace {

// Splits `text` into its top-level JSON values; each Document carries the line its value starts
// on. With `unwrap_array`, a text that is exactly one array yields the array's elements. Errors
// name `source`, the line and the column: "w.json: line 7, column 12: JSON: ...".
Result<std::vector<k8s::Document>> ParseJsonStream(std::string_view text, const std::string& source,
                                                   bool unwrap_array = false);

// The same values one at a time, each parsed only when `visit` has returned for the one before:
// memory for one value, not the stream (a day's capture is a million values). Stops at the first
// error, of the stream or of `visit`. `done_before(offset)`, when given, is told before each value
// that nothing before `offset` will be read again (but to place an error).
Outcome ForEachJsonValue(std::string_view text, const std::string& source,
                         const std::function<Outcome(k8s::Document&&)>& visit,
                         const std::function<void(size_t offset)>& done_before = nullptr);

// Reads a whole file ("F: cannot open file" on failure).
Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_JSON_STREAM_H_
