// Whether v1.37's OpportunisticBatching (on by default) could apply under a profile: it reuses the
// previous pod's node scores for a pod with the same signature (framework/runtime/batch.go), and a
// profile signs pods only when every PreFilter, Filter, PreScore and Score plugin implements
// SignPlugin (frameworkImpl.setBatchablePlugins); PodTopologySpread then still refuses every pod
// while it has default constraints, as the default profile's System defaulting gives it.
//
// The reference does not model batching, so replay at 1.37 refuses a profile under which some pod
// could be signed, rather than replaying it differently from upstream.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_

#include <string>

#include "reference/runtime/framework.h"

namespace schedcheck::reference {

// Empty when no pod can be signed under `fw` at v1.37; else why some pod could be.
std::string PodSignaturesPossibleV1_37(const Framework& fw);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_
