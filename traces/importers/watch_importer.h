// `schedcheck import --from watch`: streams printed by `kubectl get pods,nodes,... -A --watch
// -o json --output-watch-events` (concatenated JSON objects {"type", "object"}, optionally with a
// top-level "time" (RFC 3339, wins over the object's times) and "duringAttempt"), one or more
// files or folders merged by time. BOOKMARK entries are ignored, ERROR entries counted and
// reported. Objects printed without the event wrapper (plain --watch) are ADDED the first time
// their kind/namespace/name appears and MODIFIED after. A `kubectl version -o json` object (with
// serverVersion) among the inputs gives the trace's compatibility level. Times, observed
// decisions and bindings: capture.h and README.md.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_WATCH_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_WATCH_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

// With a `sink`, the records go there as they are finished and the result has none.
Result<Imported> ImportWatch(const std::vector<std::string>& inputs, const ImportOptions& options,
                             const RecordSink& sink = nullptr);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_WATCH_IMPORTER_H_
