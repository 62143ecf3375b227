#include "traces/importers/redaction.h"

#include <set>

#include "reference/k8s/json_to_message.h"
#include "reference/k8s/k8s_json.h"
#include "traces/importers/api_validation.h"

namespace schedcheck::trace {
namespace {

// Values that carry no information (proto3 JSON omits them, so their absence is no loss).
bool IsEmptyValue(const nlohmann::json& v) {
  if (v.is_null()) return true;
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_number()) return v.get<double>() == 0;
  if (v.is_string()) return v.get_ref<const std::string&>().empty();
  return v.empty();  // object or array
}

template <typename Message>
Outcome Store(Result<Message> decoded, Message* target, k8s::ObjectMeta** meta) {
  if (!decoded.ok()) return decoded.error();
  *target = std::move(*decoded);
  *meta = target->mutable_metadata();
  return Outcome::Ok();
}

}  // namespace

bool IsTraceKind(const std::string& kind) {
  return kind == "Pod" || kind == "Node" || kind == "Namespace" || kind == "PriorityClass" ||
         kind == "PodDisruptionBudget" || IsSelectorKind(kind) || IsStorageKind(kind) ||
         IsDraKind(kind) || IsPodGroupKind(kind);
}

bool IsSelectorKind(const std::string& kind) {
  return kind == "Service" || kind == "ReplicationController" || kind == "ReplicaSet" ||
         kind == "StatefulSet";
}

bool IsStorageKind(const std::string& kind) {
  return kind == "PersistentVolume" || kind == "PersistentVolumeClaim" || kind == "StorageClass" ||
         kind == "CSINode" || kind == "CSIDriver" || kind == "CSIStorageCapacity";
}

bool IsDraKind(const std::string& kind) {
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "ResourceSlice" ||
         kind == "DeviceClass" || kind == "DeviceTaintRule";
}

bool IsPodGroupKind(const std::string& kind) { return kind == "Workload" || kind == "PodGroup"; }

Redactor::Redactor(const std::vector<std::string>& keep_annotations)
    : keep_annotations_(keep_annotations.begin(), keep_annotations.end()) {}

Outcome Redactor::Decode(const nlohmann::json& object, const std::string& kind,
                         const std::string& where, ApiEvent* event) {
  if (Outcome ok = ValidateTraceObject(object, kind, where); !ok) return ok;
  k8s::ObjectMeta* meta = nullptr;
  const google::protobuf::Message* message = nullptr;
  Outcome ok;
  if (kind == "Pod") {
    ok = Store(k8s::PodFromJson(object, where), event->mutable_pod(), &meta);
    message = &event->pod();
  } else if (kind == "Node") {
    ok = Store(k8s::NodeFromJson(object, where), event->mutable_node(), &meta);
    message = &event->node();
  } else if (kind == "Namespace") {
    ok = Store(k8s::NamespaceFromJson(object, where), event->mutable_namespace_(), &meta);
    message = &event->namespace_();
  } else if (kind == "PriorityClass") {
    ok = Store(k8s::PriorityClassFromJson(object, where), event->mutable_priority_class(), &meta);
    message = &event->priority_class();
  } else if (kind == "PodDisruptionBudget") {
    ok = Store(k8s::PdbFromJson(object, where), event->mutable_pod_disruption_budget(), &meta);
    message = &event->pod_disruption_budget();
  } else if (kind == "Service") {
    ok = Store(k8s::ServiceFromJson(object, where), event->mutable_service(), &meta);
    message = &event->service();
  } else if (kind == "ReplicationController") {
    ok = Store(k8s::ReplicationControllerFromJson(object, where),
               event->mutable_replication_controller(), &meta);
    message = &event->replication_controller();
  } else if (kind == "ReplicaSet") {
    ok = Store(k8s::ReplicaSetFromJson(object, where), event->mutable_replica_set(), &meta);
    message = &event->replica_set();
  } else if (kind == "StatefulSet") {
    ok = Store(k8s::StatefulSetFromJson(object, where), event->mutable_stateful_set(), &meta);
    message = &event->stateful_set();
  } else if (kind == "PersistentVolume") {
    ok = Store(k8s::PersistentVolumeFromJson(object, where), event->mutable_persistent_volume(),
               &meta);
    message = &event->persistent_volume();
  } else if (kind == "PersistentVolumeClaim") {
    ok = Store(k8s::PersistentVolumeClaimFromJson(object, where),
               event->mutable_persistent_volume_claim(), &meta);
    message = &event->persistent_volume_claim();
  } else if (kind == "StorageClass") {
    ok = Store(k8s::StorageClassFromJson(object, where), event->mutable_storage_class(), &meta);
    message = &event->storage_class();
  } else if (kind == "CSINode") {
    ok = Store(k8s::CSINodeFromJson(object, where), event->mutable_csi_node(), &meta);
    message = &event->csi_node();
  } else if (kind == "CSIDriver") {
    ok = Store(k8s::CSIDriverFromJson(object, where), event->mutable_csi_driver(), &meta);
    message = &event->csi_driver();
  } else if (kind == "CSIStorageCapacity") {
    ok = Store(k8s::CSIStorageCapacityFromJson(object, where),
               event->mutable_csi_storage_capacity(), &meta);
    message = &event->csi_storage_capacity();
  } else if (kind == "ResourceClaim") {
    ok = Store(k8s::ResourceClaimFromJson(object, where), event->mutable_resource_claim(), &meta);
    message = &event->resource_claim();
  } else if (kind == "ResourceClaimTemplate") {
    ok = Store(k8s::ResourceClaimTemplateFromJson(object, where),
               event->mutable_resource_claim_template(), &meta);
    message = &event->resource_claim_template();
  } else if (kind == "ResourceSlice") {
    ok = Store(k8s::ResourceSliceFromJson(object, where), event->mutable_resource_slice(), &meta);
    message = &event->resource_slice();
  } else if (kind == "DeviceClass") {
    ok = Store(k8s::DeviceClassFromJson(object, where), event->mutable_device_class(), &meta);
    message = &event->device_class();
  } else if (kind == "DeviceTaintRule") {
    ok = Store(k8s::DeviceTaintRuleFromJson(object, where), event->mutable_device_taint_rule(),
               &meta);
    message = &event->device_taint_rule();
  } else if (kind == "Workload") {
    ok = Store(k8s::WorkloadFromJson(object, where), event->mutable_workload(), &meta);
    message = &event->workload();
  } else if (kind == "PodGroup") {
    ok = Store(k8s::PodGroupFromJson(object, where), event->mutable_pod_group(), &meta);
    message = &event->pod_group();
  } else {
    return Error{where + ": field kind: " + kind + " is not a kind the trace holds"};
  }
  if (!ok) return ok;
  kind_ = kind;
  CountDropped(object, *message, "");
  StripAnnotations(meta);
  return Outcome::Ok();
}

void Redactor::CountDropped(const nlohmann::json& in, const google::protobuf::Message& out,
                            const std::string& path) {
  namespace pb = google::protobuf;
  if (!in.is_object()) return;
  const pb::Reflection& reflection = *out.GetReflection();
  for (const auto& [key, value] : in.items()) {
    if (IsEmptyValue(value)) continue;
    std::string child = path.empty() ? key : path + "." + key;
    const pb::FieldDescriptor* field = k8s::FieldOfJsonName(out.GetDescriptor(), key);
    // Printed in JSON: a repeated field with elements, a singular one that is set (for a proto3
    // scalar without presence: not its default value).
    const bool printed =
        field != nullptr && (field->is_repeated() ? reflection.FieldSize(out, field) > 0
                                                  : reflection.HasField(out, field));
    if (!printed) {
      ++fields_;
      ++paths_[kind_ + ":" + child];
      continue;
    }
    // Maps and google.protobuf.Value keep every key they were given; scalars have no fields.
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE || field->is_map() ||
        field->message_type()->file()->package() == "google.protobuf") {
      continue;
    }
    if (!field->is_repeated()) {
      CountDropped(value, reflection.GetMessage(out, field), child);
    } else if (value.is_array() &&
               value.size() == static_cast<size_t>(reflection.FieldSize(out, field))) {
      for (size_t i = 0; i < value.size(); ++i) {
        CountDropped(value[i], reflection.GetRepeatedMessage(out, field, static_cast<int>(i)),
                     child + "[]");
      }
    }
  }
}

namespace {

// The annotations the volume plugins read on storage objects: scheduling fields, kept without
// --keep-annotations (a bound claim without bind-completed would read as prebound, an unbound
// Immediate claim, and its pod would never schedule in replay).
bool IsVolumeSchedulingAnnotation(const std::string& kind, const std::string& key) {
  static const std::set<std::string> kStorageKinds = {"PersistentVolume", "PersistentVolumeClaim",
                                                      "StorageClass", "CSINode"};
  static const std::set<std::string> kKeys = {
      "pv.kubernetes.io/bind-completed",                // claim fully bound (isPVCFullyBound)
      "pv.kubernetes.io/bound-by-controller",           // written back by the binder
      "volume.kubernetes.io/selected-node",             // provisioning already chose a node
      "volume.beta.kubernetes.io/storage-class",        // the beta class field
      "storage.alpha.kubernetes.io/migrated-plugins"};  // CSINode: in-tree plugins migrated
  return kStorageKinds.count(kind) && kKeys.count(key);
}

// The annotations DynamicResources reads on claims: a claim the scheduler made for extended
// resources backed by a DeviceClass (resource/v1 ExtendedResourceClaimAnnotation) and the claim
// controller's pod-claim name (PodResourceClaimAnnotation).
bool IsDraSchedulingAnnotation(const std::string& kind, const std::string& key) {
  return kind == "ResourceClaim" && (key == "resource.kubernetes.io/extended-resource-claim" ||
                                     key == "resource.kubernetes.io/pod-claim-name");
}

}  // namespace

void Redactor::StripAnnotations(k8s::ObjectMeta* meta) {
  auto* annotations = meta->mutable_annotations();
  for (auto it = annotations->begin(); it != annotations->end();) {
    if (keep_annotations_.count(it->first) || IsVolumeSchedulingAnnotation(kind_, it->first) ||
        IsDraSchedulingAnnotation(kind_, it->first)) {
      ++it;
    } else {
      ++annotations_;
      it = annotations->erase(it);
    }
  }
}

int64_t Redactor::skipped() const {
  int64_t n = 0;
  for (const auto& [kind, count] : skipped_kinds_) n += count;
  return n;
}

void Redactor::AddLabels(Imported* imported) const {
  AddToLabel(imported, "redacted.annotations", annotations_);
  AddToLabel(imported, "redacted.fields", fields_);
  if (!paths_.empty()) imported->labels["redacted.paths"] = JoinCounts(paths_);
  if (!skipped_kinds_.empty()) imported->labels["skipped.kinds"] = JoinCounts(skipped_kinds_);
  if (!read_workload_kinds_.empty())
    imported->labels["read.workloads"] = JoinCounts(read_workload_kinds_);
}

}  // namespace schedcheck::trace
