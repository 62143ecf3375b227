#include "traces/importers/manifests_importer.h"

#include <array>
#include <set>

#include "reference/k8s/k8s_json.h"
#include "traces/importers/api_validation.h"
#include "traces/importers/input_files.h"
#include "traces/importers/redaction.h"
#include "traces/importers/workloads.h"

namespace schedcheck::trace {
namespace {

// Output groups, in order. Storage comes before the pods that use it, each object after what it
// names: classes and drivers, then volumes (naming a class), then claims (naming a class and a
// volume); CSINodes and capacities describe nodes, so they follow the Nodes.
enum Group {
  kNamespaces,
  kPriorityClasses,
  kPdbs,
  kSelectors,
  kStorageClasses,  // StorageClasses, CSIDrivers and DeviceClasses
  kVolumes,
  kClaims,  // PersistentVolumeClaims, ResourceClaimTemplates, ResourceClaims, Workloads, PodGroups
  kNodes,
  kNodeStorage,  // CSINodes, CSIStorageCapacities, ResourceSlices and DeviceTaintRules
  kBoundPods,
  kPendingPods,
  kGroups
};

class Loader {
 public:
  explicit Loader(const ImportOptions& options)
      : redactor_(options.keep_annotations), limits_(options.limits) {}

  Outcome AddObject(const nlohmann::json& obj, const std::string& where);
  // Expands the workloads that no given pod belongs to (README.md "Workloads"); call once, after
  // every object was added.
  Outcome ExpandWorkloads();
  Imported Take(int64_t time_ns);

 private:
  struct Workload {
    nlohmann::json object;
    std::string where;
  };
  Outcome AddDecoded(const nlohmann::json& obj, const std::string& kind, const std::string& where);

  Redactor redactor_;
  InputLimits limits_;
  int64_t objects_ = 0;  // decoded so far, for limits_.records
  std::vector<Workload> workloads_;
  int64_t expanded_pods_ = 0;
  int64_t expanded_objects_ = 0;  // for limits_.expanded_objects
  std::array<std::vector<ApiEvent>, kGroups> groups_;
  std::set<std::string> warned_kinds_;
  std::vector<std::string> warnings_;
};

Outcome Loader::AddObject(const nlohmann::json& obj, const std::string& where) {
  if (!obj.is_object()) return Error{where + ": expected a Kubernetes object"};
  auto kind_it = obj.find("kind");
  std::string kind =
      kind_it != obj.end() && kind_it->is_string() ? kind_it->get<std::string>() : "";
  if (kind.empty()) return Error{where + ": field kind: missing"};
  if (kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0) {
    if (!obj.contains("items") || !obj["items"].is_array())
      return Error{where + ": field items: expected a list"};
    std::string item_kind =
        kind == "List" ? "" : kind.substr(0, kind.size() - 4);  // PodList items may omit kind
    for (size_t i = 0; i < obj["items"].size(); ++i) {
      nlohmann::json item = obj["items"][i];
      if (item.is_object() && !item.contains("kind") && !item_kind.empty())
        item["kind"] = item_kind;
      if (Outcome ok = AddObject(item, where + ": items[" + std::to_string(i) + "]"); !ok)
        return ok;
    }
    return Outcome::Ok();
  }
  if (IsWorkloadKind(kind)) {
    if (Outcome ok = ValidateWorkload(obj, kind, where); !ok) return ok;
    workloads_.push_back(Workload{obj, where});
  }
  if (!IsTraceKind(kind)) {
    if (IsWorkloadKind(kind)) {
      redactor_.ReadWorkloadKind(kind);
      return Outcome::Ok();
    }
    if (warned_kinds_.insert(kind).second) {
      warnings_.push_back(where + ": skipping objects of kind " + kind +
                          " (counted in skipped.kinds)");
    }
    redactor_.SkipKind(kind);
    return Outcome::Ok();
  }
  return AddDecoded(obj, kind, where);
}

Outcome Loader::AddDecoded(const nlohmann::json& obj, const std::string& kind,
                           const std::string& where) {
  ApiEvent event;
  event.set_type(ADDED);
  if (Outcome ok = redactor_.Decode(obj, kind, where, &event); !ok) return ok;
  if (++objects_ > limits_.records) return TooManyRecords(where, limits_.records);
  if (Outcome ok = CheckMessageLimits(event, limits_, where); !ok) return ok;
  Group group = kNamespaces;
  switch (event.object_case()) {
    case ApiEvent::kPod:
      group = event.pod().spec().node_name().empty() ? kPendingPods : kBoundPods;
      break;
    case ApiEvent::kNode:
      group = kNodes;
      break;
    case ApiEvent::kPriorityClass:
      group = kPriorityClasses;
      break;
    case ApiEvent::kPodDisruptionBudget:
      group = kPdbs;
      break;
    case ApiEvent::kService:
    case ApiEvent::kReplicationController:
    case ApiEvent::kReplicaSet:
    case ApiEvent::kStatefulSet:
      group = kSelectors;
      break;
    case ApiEvent::kStorageClass:
    case ApiEvent::kCsiDriver:
    case ApiEvent::kDeviceClass:
      group = kStorageClasses;
      break;
    case ApiEvent::kPersistentVolume:
      group = kVolumes;
      break;
    case ApiEvent::kPersistentVolumeClaim:
    case ApiEvent::kResourceClaimTemplate:
    case ApiEvent::kResourceClaim:
    // A pod group before its pods, as a controller creates it (the scheduler holds a pod whose
    // group does not exist yet, so the order is what a replay of the manifests shows).
    case ApiEvent::kWorkload:
    case ApiEvent::kPodGroup:
      group = kClaims;
      break;
    case ApiEvent::kCsiNode:
    case ApiEvent::kCsiStorageCapacity:
    case ApiEvent::kResourceSlice:
    case ApiEvent::kDeviceTaintRule:
      group = kNodeStorage;
      break;
    case ApiEvent::kNamespace:
    case ApiEvent::OBJECT_NOT_SET:
      break;
  }
  groups_[group].push_back(std::move(event));
  return Outcome::Ok();
}

Outcome Loader::ExpandWorkloads() {
  GivenOwners owners;
  for (Group g : {kBoundPods, kPendingPods}) {
    for (const ApiEvent& e : groups_[g]) owners.AddPod(e.pod().metadata());
  }
  for (const ApiEvent& e : groups_[kSelectors]) {
    if (e.has_replica_set()) owners.AddReplicaSet(e.replica_set().metadata());
  }
  for (const ApiEvent& e : groups_[kClaims])
    owners.AddClaim(e.persistent_volume_claim().metadata());
  std::vector<k8s::Node> nodes;
  for (const ApiEvent& e : groups_[kNodes]) nodes.push_back(e.node());
  for (const Workload& w : workloads_) {
    if (owners.Has(w.object)) continue;  // its pods are given: keep them
    auto objects =
        ExpandWorkload(w.object, w.where, nodes, RoomFor(limits_, objects_, expanded_objects_));
    if (!objects.ok()) return objects.error();
    expanded_objects_ += static_cast<int64_t>(objects->size());
    for (const nlohmann::json& obj : *objects) {
      if (owners.HasClaim(obj)) continue;  // the controller would use the given claim
      const std::string kind = obj.value("kind", "");
      if (Outcome ok = AddDecoded(obj, kind,
                                  w.where + ": " + kind + " " + obj["metadata"].value("name", ""));
          !ok) {
        return ok;
      }
      if (kind == "Pod") ++expanded_pods_;
    }
  }
  return Outcome::Ok();
}

Imported Loader::Take(int64_t time_ns) {
  Imported out;
  for (auto& group : groups_) {
    for (ApiEvent& event : group) {
      Record r;
      r.set_time_ns(time_ns);
      *r.mutable_api() = std::move(event);
      out.records.push_back(std::move(r));
    }
  }
  AddToLabel(&out, "imported.pods",
             static_cast<int64_t>(groups_[kBoundPods].size() + groups_[kPendingPods].size()));
  AddToLabel(&out, "imported.nodes", static_cast<int64_t>(groups_[kNodes].size()));
  if (!workloads_.empty()) AddToLabel(&out, "expanded.pods", expanded_pods_);
  redactor_.AddLabels(&out);
  out.warnings = std::move(warnings_);
  return out;
}

}  // namespace

Result<Imported> ImportManifests(const std::vector<std::string>& inputs,
                                 const ImportOptions& options) {
  auto files = ExpandInputs(inputs, {".yaml", ".yml", ".json", ".jsonl"});
  if (!files.ok()) return files.error();
  Loader loader(options);
  for (const std::string& file : *files) {
    auto docs = k8s::ReadDocumentsFile(file, YamlLimitsOf(options.limits));
    if (!docs.ok()) return docs.error();
    for (const k8s::Document& doc : *docs) {
      std::string where = file + ": line " + std::to_string(doc.line);
      if (doc.json.is_array()) {
        for (size_t i = 0; i < doc.json.size(); ++i) {
          if (Outcome ok = loader.AddObject(doc.json[i], where + ": [" + std::to_string(i) + "]");
              !ok)
            return ok.error();
        }
      } else if (Outcome ok = loader.AddObject(doc.json, where); !ok) {
        return ok.error();
      }
    }
  }
  if (Outcome ok = loader.ExpandWorkloads(); !ok) return ok.error();
  int64_t start = options.start_unix_ns.value_or(0);
  Imported imported = loader.Take(start);
  if (Outcome ok = Finalize(start, &imported); !ok) return ok.error();
  return imported;
}

}  // namespace schedcheck::trace
