// The API server's validation of the resource.k8s.io/v1 objects and a pod's DRA fields, for the
// importers (api_validation.h calls it; README.md "Validation"). Upstream's rules
// (pkg/apis/resource/validation, pkg/apis/core/validation) for the fields DynamicResources reads:
//   claims and claim templates: request names unique DNS labels; exactly one of `exactly` and
//     `firstAvailable` (1 to 8 sub-requests, their names unique DNS labels); a device class name;
//     allocationMode ExactCount or All; count >= 1 with ExactCount and absent with All; CEL
//     selectors with a non-empty expression; toleration operators and effects; constraints that
//     name requests of the claim;
//   slices: a driver and a pool name; exactly one of nodeName, nodeSelector, allNodes and
//     perDeviceNodeSelection (then exactly one of the three on every device, else none); device
//     names unique DNS labels; every attribute value exactly one of int, bool, string, version;
//     taint effects;
//   device classes: CEL selectors with a non-empty expression; device taint rules: a taint key and
//     effect;
//   pods: spec.resourceClaims names unique DNS labels, each with exactly one of
//     resourceClaimName and resourceClaimTemplateName; containers' resources.claims naming one.
// The sizes (devices per slice, requests per claim, CEL expression bytes) are input limits
// (traces/input_limits.h), at upstream's maxima by default.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_DRA_VALIDATION_H_
#define SCHEDCHECK_TRACES_IMPORTERS_DRA_VALIDATION_H_

#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::trace {

// An object of a DRA kind (IsDraKind); errors name `where` and the field.
Outcome ValidateDraObject(const nlohmann::json& object, const std::string& kind,
                          const std::string& where);

// A pod spec's resourceClaims and its containers' resources.claims (`path`: "spec",
// "spec.template.spec").
Outcome ValidatePodResourceClaims(const nlohmann::json& spec, const std::string& where,
                                  const std::string& path);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_DRA_VALIDATION_H_
