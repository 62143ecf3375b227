// `schedcheck import --from kss`: kube-scheduler-simulator recorder output, records
// {"time": "<RFC 3339>", "event": "Add"|"Update"|"Delete", "resource": {<object with kind>}} as
// JSON Lines (also accepted: concatenated objects, or one JSON array of records), one or more
// files or folders merged by time. "time" is the event's time (rule 1 of capture.h); kinds the
// trace does not hold (redaction.h IsTraceKind) are counted and skipped.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_KSS_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_KSS_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

// With a `sink`, the records go there as they are finished and the result has none.
Result<Imported> ImportKss(const std::vector<std::string>& inputs, const ImportOptions& options,
                           const RecordSink& sink = nullptr);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_KSS_IMPORTER_H_
