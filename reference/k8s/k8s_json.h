// Kubernetes JSON / YAML <-> the objects of k8s.proto. YAML is read with yaml-cpp into the
// same JSON tree (nlohmann::json) that JSON files produce, so both share one decoder: protobuf's
// proto3 JSON mapping, which uses Kubernetes' field names. Unknown fields are dropped (captures
// hold far more than scheduling reads); type errors name the field.
#ifndef SCHEDCHECK_REFERENCE_K8S_K8S_JSON_H_
#define SCHEDCHECK_REFERENCE_K8S_K8S_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"
#include "reference/k8s/yaml_limits.h"

namespace schedcheck::k8s {

// One YAML or JSON document, with the line it starts on (1-based) for error messages.
struct Document {
  nlohmann::json json;
  int line = 1;
};

// Parses every document of a YAML stream ("---" separated). Plain scalars become JSON numbers,
// booleans and null by the YAML 1.2 core schema; quoted scalars stay strings. Errors carry
// `source` and the line and column; a limit exceeded names it and its `--limit` option.
Result<std::vector<Document>> ParseYamlDocuments(std::string_view text, const std::string& source,
                                                 const YamlLimits& limits = {});
// The line (1-based) of the key or list item that `path` names ("profiles[1].plugins.score",
// decoders' field paths) in the first non-empty document of YAML `text`; when part of the path is
// absent, the line of the deepest part present; 0 when there is none or `text` does not parse.
// Parses `text` again: for error messages. REQUIRES: `text` passed ParseYamlDocuments (limits).
int YamlFieldLine(std::string_view text, std::string_view path);
// The deepest nesting of JSON objects and arrays any reader accepts. nlohmann's parser takes any
// depth, but copying the value recurses once per level: 10^4 levels (20 KB of brackets)
// overflowed the stack. Kubernetes objects nest about 20 deep; this is not an option to raise.
inline constexpr int kMaxJsonDepth = 1000;
// Scans `text` from `begin` (strings skipped) for the nesting of objects and arrays: returns the
// offset just past the '}' or ']' that brings it back to level 0 (from an opening bracket at
// `begin`: the end of that value), or std::string_view::npos; sets *too_deep_at, if still npos, to
// the first '{' or '[' that opens level kMaxJsonDepth + 1. One pass over the bytes, no parse.
size_t ScanJsonNesting(std::string_view text, size_t begin, size_t* too_deep_at);
// The byte offset of the first '{' or '[' in `text` (one JSON value) that opens level
// kMaxJsonDepth + 1, or std::string_view::npos.
size_t JsonTooDeepAt(std::string_view text);
// The error for it: "<where>: byte N: JSON: nested deeper than 1000 levels (kMaxJsonDepth)".
Error JsonTooDeep(const std::string& where, size_t at);

// Parses a JSON text (one value). Errors carry `source` and the byte position.
Result<nlohmann::json> ParseJson(std::string_view text, const std::string& source);
// Reads a file and parses it by extension: .yaml/.yml as YAML documents, .json as one JSON value,
// .jsonl as one value per non-empty line (each a Document with its line). `limits` bound YAML.
Result<std::vector<Document>> ReadDocumentsFile(const std::string& path,
                                                const YamlLimits& limits = {});

// The document files named by `paths`: files as given, directories searched recursively for
// .yaml/.yml/.json/.jsonl files (each directory's files in name order). Errors name the path.
Result<std::vector<std::string>> ListDocumentFiles(const std::vector<std::string>& paths);

// Decoders: `where` prefixes errors ("cases.yaml: line 12: pods[3]").
Result<k8s::Pod> PodFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::Node> NodeFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::Namespace> NamespaceFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::PriorityClass> PriorityClassFromJson(const nlohmann::json& json,
                                                 const std::string& where);
Result<k8s::PodDisruptionBudget> PdbFromJson(const nlohmann::json& json, const std::string& where);
// Selector objects: namespace, name and selector survive; replicas, templates and status are
// dropped as unknown fields.
Result<k8s::Service> ServiceFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::ReplicationController> ReplicationControllerFromJson(const nlohmann::json& json,
                                                                 const std::string& where);
Result<k8s::ReplicaSet> ReplicaSetFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::StatefulSet> StatefulSetFromJson(const nlohmann::json& json, const std::string& where);

// Storage objects: core/v1 PersistentVolume and PersistentVolumeClaim, storage.k8s.io/v1
// StorageClass, CSINode, CSIDriver and CSIStorageCapacity. Quantities and label values written
// as YAML numbers become strings.
Result<k8s::PersistentVolume> PersistentVolumeFromJson(const nlohmann::json& json,
                                                       const std::string& where);
Result<k8s::PersistentVolumeClaim> PersistentVolumeClaimFromJson(const nlohmann::json& json,
                                                                 const std::string& where);
Result<k8s::StorageClass> StorageClassFromJson(const nlohmann::json& json,
                                               const std::string& where);
Result<k8s::CSINode> CSINodeFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::CSIDriver> CSIDriverFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::CSIStorageCapacity> CSIStorageCapacityFromJson(const nlohmann::json& json,
                                                           const std::string& where);

// Dynamic Resource Allocation (resource.k8s.io/v1): ResourceClaim, ResourceClaimTemplate,
// ResourceSlice, DeviceClass, DeviceTaintRule. What k8s.proto leaves out (opaque parameters, alpha
// fields) is dropped as unknown; quantities written as numbers become strings.
Result<k8s::ResourceClaim> ResourceClaimFromJson(const nlohmann::json& json,
                                                 const std::string& where);
Result<k8s::ResourceClaimTemplate> ResourceClaimTemplateFromJson(const nlohmann::json& json,
                                                                 const std::string& where);
Result<k8s::ResourceSlice> ResourceSliceFromJson(const nlohmann::json& json,
                                                 const std::string& where);
Result<k8s::DeviceClass> DeviceClassFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::DeviceTaintRule> DeviceTaintRuleFromJson(const nlohmann::json& json,
                                                     const std::string& where);

// Workload-aware scheduling (scheduling.k8s.io/v1beta1): Workload and PodGroup. Fields of the
// alpha CompositePodGroup gate are dropped as unknown.
Result<k8s::Workload> WorkloadFromJson(const nlohmann::json& json, const std::string& where);
Result<k8s::PodGroup> PodGroupFromJson(const nlohmann::json& json, const std::string& where);

// Kubernetes JSON of any message (compact, one line, map keys sorted: deterministic).
std::string ToJson(const google::protobuf::Message& message);

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_K8S_JSON_H_
