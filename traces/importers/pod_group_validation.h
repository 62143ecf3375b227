// The API server's validation of the scheduling.k8s.io/v1beta1 Workload and PodGroup objects and of
// a pod's spec.schedulingGroup, for the importers (api_validation.h calls it; README.md
// "Validation"). Upstream's declarative rules (pkg/apis/scheduling/v1beta1
// zz_generated.validations.go, core/v1 PodSchedulingGroup) for the fields kube-scheduler v1.37.2
// reads:
//   both kinds: apiVersion scheduling.k8s.io/v1beta1 when given (v1alpha3 objects have another
//     shape, and the scheduler reads v1beta1);
//   a pod group's policy (a PodGroup's spec, a Workload template): exactly one of `basic` and
//     `gang`; gang.minCount required and >= 1; at most one topology constraint, with a key; at
//     most 4 resourceClaims, names unique DNS labels, each with exactly one of resourceClaimName
//     and resourceClaimTemplateName; disruptionMode exactly one of `single` and `all`; priority at
//     most 1000000000; preemptionPolicy PreemptLowerPriority or Never;
//   a PodGroup's workloadRef: workloadName and templateName;
//   a Workload: 1 to 8 podGroupTemplates, names unique DNS labels; controllerRef kind and name;
//   pods: spec.schedulingGroup.podGroupName required, a DNS subdomain.
// A gang's size is an input limit (group-pods, traces/input_limits.h), checked after decoding.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_POD_GROUP_VALIDATION_H_
#define SCHEDCHECK_TRACES_IMPORTERS_POD_GROUP_VALIDATION_H_

#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::trace {

// A Workload or a PodGroup (IsPodGroupKind); errors name `where` and the field.
Outcome ValidatePodGroupObject(const nlohmann::json& object, const std::string& kind,
                               const std::string& where);

// A pod spec's schedulingGroup (`path`: "spec", "spec.template.spec").
Outcome ValidatePodSchedulingGroup(const nlohmann::json& spec, const std::string& where,
                                   const std::string& path);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_POD_GROUP_VALIDATION_H_
