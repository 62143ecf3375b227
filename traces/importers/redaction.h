// Redacting decoder shared by the manifests, watch and kss importers: turns one Kubernetes object
// (JSON tree) into the ApiEvent object of its kind, keeping only what reference/k8s/k8s.proto holds
// (the scheduling-relevant subset) and only the annotations asked for, and counts what was dropped:
//   redacted.annotations  annotations removed
//   redacted.fields       input fields with a non-empty value that did not survive decoding
//   redacted.paths        the same per field path, e.g. "Pod:spec.containers[].env=3"
//   skipped.kinds         objects of kinds the trace does not hold, e.g. "Secret=1,Service=3"
#ifndef SCHEDCHECK_TRACES_IMPORTERS_REDACTION_H_
#define SCHEDCHECK_TRACES_IMPORTERS_REDACTION_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "google/protobuf/message.h"

#include "reference/base/result.h"
#include "traces/importers/imported.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {

// True for the kinds an ApiEvent can hold: Pod, Node, Namespace, PriorityClass,
// PodDisruptionBudget, and the selector, storage, DRA and pod group kinds below.
bool IsTraceKind(const std::string& kind);
// Service, ReplicationController, ReplicaSet, StatefulSet: kept with namespace, name and selector
// only (their replicas and templates count as redacted fields).
bool IsSelectorKind(const std::string& kind);
// PersistentVolume, PersistentVolumeClaim (core/v1), StorageClass, CSINode, CSIDriver,
// CSIStorageCapacity (storage.k8s.io/v1): kept with what the volume plugins read (k8s.proto), by
// the same rule as pods (unknown fields dropped and counted, annotations only when asked for).
bool IsStorageKind(const std::string& kind);
// ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceClass, DeviceTaintRule
// (resource.k8s.io/v1): kept with what DynamicResources and its allocator read (k8s.proto), by the
// same rule. Names (of objects, drivers, pools, devices, nodes) are kept as given: they are how
// claims, slices and nodes refer to each other.
bool IsDraKind(const std::string& kind);
// Workload and PodGroup (scheduling.k8s.io/v1beta1): kept with what the scheduler reads of pod
// groups (k8s.proto), by the same rule; names are kept (pods name their group).
bool IsPodGroupKind(const std::string& kind);

class Redactor {
 public:
  explicit Redactor(const std::vector<std::string>& keep_annotations);

  // Decodes `object` (REQUIRES: IsTraceKind(kind)) into the matching field of `event`. Errors
  // name `where` and the field.
  Outcome Decode(const nlohmann::json& object, const std::string& kind, const std::string& where,
                 ApiEvent* event);
  // Counts an object of a kind the trace does not hold.
  void SkipKind(const std::string& kind) { ++skipped_kinds_[kind.empty() ? "(none)" : kind]; }
  // Counts an object of a workload kind the trace does not hold but the importer reads (it is
  // expanded into its pods, or its pods are in the input): `read.workloads`, not skipped.
  void ReadWorkloadKind(const std::string& kind) { ++read_workload_kinds_[kind]; }
  int64_t skipped() const;

  // Writes the labels listed above into `imported` (skipped.kinds only when something was).
  void AddLabels(Imported* imported) const;

 private:
  // Counts the non-empty fields of `in` that `out` (decoded from it) does not print in JSON: no
  // field of that JSON name, or a field left at its default. Walks the message by reflection
  // rather than printing it and parsing the text back.
  void CountDropped(const nlohmann::json& in, const google::protobuf::Message& out,
                    const std::string& path);
  void StripAnnotations(k8s::ObjectMeta* meta);

  std::set<std::string> keep_annotations_;
  std::string kind_;  // of the object being decoded, prefixes paths_
  int64_t annotations_ = 0;
  int64_t fields_ = 0;
  std::map<std::string, int64_t> paths_;
  std::map<std::string, int64_t> skipped_kinds_;
  std::map<std::string, int64_t> read_workload_kinds_;
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_REDACTION_H_
