// Normalizers for the resource.k8s.io/v1 objects (k8s_json.cc's decoders call them before
// protobuf's JSON parser): quantities written as bare YAML/JSON numbers ("value: 8", "memory:
// 40") become the strings Kubernetes uses, and label values become strings, as for the core kinds.
// Private to reference/k8s.
#ifndef SCHEDCHECK_REFERENCE_K8S_DRA_NORMALIZE_H_
#define SCHEDCHECK_REFERENCE_K8S_DRA_NORMALIZE_H_

#include <nlohmann/json.hpp>

namespace schedcheck::k8s {

void NormalizeResourceClaim(nlohmann::json& claim);
void NormalizeResourceClaimTemplate(nlohmann::json& claim_template);
void NormalizeResourceSlice(nlohmann::json& slice);
// DeviceClass and DeviceTaintRule: metadata only (no quantities).
void NormalizeDraMetadataOnly(nlohmann::json& object);

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_DRA_NORMALIZE_H_
