// The API server's validation of the fields the importers read, applied to the JSON of an imported
// object before it is decoded or expanded (README.md "Validation"). A capture or manifest holds
// what an API server accepted; an object it would have refused (`suspend: "true"`, `tolerations:
// all`, an unknown enum value, duplicate names) is a sign of a hand-edited or corrupt input, and
// replaying it would model a cluster that cannot exist. Errors name `where` (file and line) and
// the field in Kubernetes' JSON names, e.g.
//   jobs.yaml: line 3: field spec.template.spec.tolerations[0].operator: unsupported value
//   "Maybe" (supported: "Exists", "Equal")
// Only rules of the fields the model reads (or that decide what a controller creates) are checked;
// unknown fields stay ignored, as decoding ignores them.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_API_VALIDATION_H_
#define SCHEDCHECK_TRACES_IMPORTERS_API_VALIDATION_H_

#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::trace {

// A pod spec at `path` ("spec", "spec.template.spec"): the boolean host namespaces, restartPolicy
// and preemptionPolicy values, containers' and init containers' restartPolicy (an init container
// only "Always": a sidecar), unique volume names, tolerations (pkg/apis/core/validation:
// ValidateTolerations), resourceClaims (dra_validation.h) and schedulingGroup
// (pod_group_validation.h).
Outcome ValidatePodSpec(const nlohmann::json& spec, const std::string& where,
                        const std::string& path);

// An object of a kind the trace holds (a Pod, a Node's taints, a CSINode's drivers, the DRA kinds
// of dra_validation.h, Workloads and PodGroups of pod_group_validation.h; other kinds have no rule
// here yet).
Outcome ValidateTraceObject(const nlohmann::json& object, const std::string& kind,
                            const std::string& where);

// A workload (IsWorkloadKind): its own fields that decide what its controller creates (a Job's
// suspend and completionMode, a StatefulSet's ordinals, podManagementPolicy and claim templates)
// and its pod template, including the restartPolicy its kind allows.
Outcome ValidateWorkload(const nlohmann::json& workload, const std::string& kind,
                         const std::string& where);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_API_VALIDATION_H_
