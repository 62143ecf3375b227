// `schedcheck import --from audit`: the API server's audit log (audit.k8s.io/v1 Event objects,
// one per line as the log backend writes them, or EventList batches as a webhook receives them).
// Most incidents are noticed after the fact, when only the audit log holds what happened.
//
// Only ResponseComplete stages of successful requests (2xx) are read. Each write of a kind the
// importers know becomes the capture event a watch would have shown, timed by its
// stageTimestamp, and goes through the capture pipeline (capture.h): the scheduler's writes
// become observed decisions, redaction and validation apply as for watch captures.
//   create            ADDED: responseObject (RequestResponse level), else requestObject (Request)
//   update            MODIFIED: responseObject, else requestObject (an update sends the object)
//   patch             MODIFIED: responseObject only (a Request-level patch body is not the object)
//   delete            DELETED, or MODIFIED with a deletion mark for a bound pod deleted with a
//                     grace period (it stays Terminating until its kubelet finishes it)
//   pods/binding      the pod as last seen with spec.nodeName set to the Binding's target: an
//                     observed binding
//   pods/status       MODIFIED of the pod (the scheduler's PodScheduled condition and
//                     nominatedNodeName among them)
// What a lower level cannot give (a Metadata-level create or update, a Request-level patch, a
// delete of an object never seen, deletecollection) is counted per verb, resource and level in
// the label `audit.unreconstructed` and said in one warning. README.md "audit".
#ifndef SCHEDCHECK_TRACES_IMPORTERS_AUDIT_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_AUDIT_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

// With a `sink`, the records go there as they are finished and the result has none.
Result<Imported> ImportAudit(const std::vector<std::string>& inputs, const ImportOptions& options,
                             const RecordSink& sink = nullptr);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_AUDIT_IMPORTER_H_
