#include "traces/manifests.h"

#include <algorithm>

#include "reference/k8s/k8s_json.h"
#include "traces/importers/api_validation.h"
#include "traces/importers/workloads.h"

namespace schedcheck::trace {
namespace {

struct Workload {
  nlohmann::json object;
  std::string where;
};

// The limits and the objects decoded so far, for the records limit.
struct Budget {
  const InputLimits& limits;
  int64_t objects = 0;
  int64_t expanded = 0;  // of them made by workload expansion
};

// Counts and checks one decoded object against the limits (`where` names it), then keeps it.
// With `sources`, `where` joins it too.
template <typename Message>
Outcome Append(Result<Message> decoded, const std::string& where, Budget* budget,
               std::vector<Message>* out, std::vector<std::string>* sources = nullptr) {
  if (!decoded.ok()) return decoded.error();
  if (++budget->objects > budget->limits.records)
    return TooManyRecords(where, budget->limits.records);
  if (Outcome ok = CheckMessageLimits(*decoded, budget->limits, where); !ok) return ok;
  out->push_back(std::move(*decoded));
  if (sources != nullptr) sources->push_back(where);
  return Outcome::Ok();
}

Outcome AddObject(const nlohmann::json& obj, const std::string& where, Budget* budget,
                  Manifests* out, std::vector<Workload>* workloads) {
  if (!obj.is_object()) return Error{where + ": expected a Kubernetes object"};
  // Not obj.value("kind", ""): it throws when kind is present but null or not a string (`kind:`).
  const auto kind_it = obj.find("kind");
  if (kind_it != obj.end() && !kind_it->is_string() && !kind_it->is_null()) {
    return Error{where + ": field kind: expected a string"};
  }
  const std::string kind =
      kind_it != obj.end() && kind_it->is_string() ? kind_it->get<std::string>() : "";
  if (kind == "List" || (kind.size() > 4 && kind.compare(kind.size() - 4, 4, "List") == 0)) {
    if (!obj.contains("items") || !obj["items"].is_array())
      return Error{where + ": field items: expected a list"};
    // Typed lists (PodList) may omit each item's kind.
    std::string item_kind = kind == "List" ? "" : kind.substr(0, kind.size() - 4);
    for (size_t i = 0; i < obj["items"].size(); ++i) {
      nlohmann::json item = obj["items"][i];
      if (item.is_object() && !item.contains("kind") && !item_kind.empty())
        item["kind"] = item_kind;
      if (Outcome ok =
              AddObject(item, where + ": items[" + std::to_string(i) + "]", budget, out, workloads);
          !ok)
        return ok;
    }
    return Outcome::Ok();
  }
  if (IsWorkloadKind(kind)) {
    if (Outcome ok = ValidateWorkload(obj, kind, where); !ok) return ok;
  } else if (Outcome ok = ValidateTraceObject(obj, kind, where); !ok) {
    return ok;
  }
  if (workloads != nullptr && IsWorkloadKind(kind)) workloads->push_back(Workload{obj, where});
  if (kind == "Service")
    return Append(k8s::ServiceFromJson(obj, where), where, budget, &out->services);
  if (kind == "ReplicationController") {
    return Append(k8s::ReplicationControllerFromJson(obj, where), where, budget,
                  &out->replication_controllers);
  }
  if (kind == "ReplicaSet")
    return Append(k8s::ReplicaSetFromJson(obj, where), where, budget, &out->replica_sets);
  if (kind == "StatefulSet")
    return Append(k8s::StatefulSetFromJson(obj, where), where, budget, &out->stateful_sets);
  if (kind == "Node") {
    return Append(k8s::NodeFromJson(obj, where), where, budget, &out->nodes, &out->node_sources);
  }
  if (kind == "Pod")
    return Append(k8s::PodFromJson(obj, where), where, budget, &out->pods, &out->pod_sources);
  if (kind == "Namespace")
    return Append(k8s::NamespaceFromJson(obj, where), where, budget, &out->namespaces);
  if (kind == "PriorityClass") {
    return Append(k8s::PriorityClassFromJson(obj, where), where, budget, &out->priority_classes);
  }
  if (kind == "PodDisruptionBudget")
    return Append(k8s::PdbFromJson(obj, where), where, budget, &out->pdbs);
  if (kind == "PersistentVolume") {
    return Append(k8s::PersistentVolumeFromJson(obj, where), where, budget,
                  &out->persistent_volumes);
  }
  if (kind == "PersistentVolumeClaim") {
    return Append(k8s::PersistentVolumeClaimFromJson(obj, where), where, budget,
                  &out->persistent_volume_claims);
  }
  if (kind == "StorageClass") {
    return Append(k8s::StorageClassFromJson(obj, where), where, budget, &out->storage_classes);
  }
  if (kind == "CSINode")
    return Append(k8s::CSINodeFromJson(obj, where), where, budget, &out->csi_nodes);
  if (kind == "CSIDriver")
    return Append(k8s::CSIDriverFromJson(obj, where), where, budget, &out->csi_drivers);
  if (kind == "CSIStorageCapacity") {
    return Append(k8s::CSIStorageCapacityFromJson(obj, where), where, budget,
                  &out->csi_storage_capacities);
  }
  if (kind.empty()) {
    return Error{where + ": field kind: missing"};
  } else if (!IsWorkloadKind(kind)) {
    ++out->skipped;
  }
  return Outcome::Ok();
}

// The same rule as the manifests importer: workloads whose pods are not given become pods.
Outcome ExpandWorkloads(const std::vector<Workload>& workloads, Budget* budget, Manifests* out) {
  GivenOwners owners;
  for (const k8s::Pod& pod : out->pods) owners.AddPod(pod.metadata());
  for (const k8s::ReplicaSet& rs : out->replica_sets) owners.AddReplicaSet(rs.metadata());
  for (const k8s::PersistentVolumeClaim& c : out->persistent_volume_claims) {
    owners.AddClaim(c.metadata());
  }
  for (const Workload& w : workloads) {
    if (owners.Has(w.object)) continue;
    auto objects = ExpandWorkload(w.object, w.where, out->nodes,
                                  RoomFor(budget->limits, budget->objects, budget->expanded));
    if (!objects.ok()) return objects.error();
    budget->expanded += static_cast<int64_t>(objects->size());
    for (const nlohmann::json& obj : *objects) {
      if (owners.HasClaim(obj)) continue;  // a StatefulSet claim given in the input
      // Expanded objects are Pods, claims and a Deployment's ReplicaSet: no further workloads.
      if (Outcome ok = AddObject(
              obj, w.where + ": " + obj.value("kind", "") + " " + obj["metadata"].value("name", ""),
              budget, out, nullptr);
          !ok) {
        return ok;
      }
    }
  }
  return Outcome::Ok();
}

}  // namespace

Result<Manifests> LoadManifests(const std::vector<std::string>& paths, const InputLimits& limits) {
  auto listed = k8s::ListDocumentFiles(paths);
  if (!listed.ok()) return listed.error();
  const std::vector<std::string>& files = *listed;
  Manifests out;
  std::vector<Workload> workloads;
  Budget budget{limits};
  for (const std::string& file : files) {
    auto docs = k8s::ReadDocumentsFile(file, YamlLimitsOf(limits));
    if (!docs.ok()) return docs.error();
    for (const k8s::Document& doc : *docs) {
      std::string where = file + ": line " + std::to_string(doc.line);
      if (doc.json.is_array()) {
        for (size_t i = 0; i < doc.json.size(); ++i) {
          if (Outcome ok = AddObject(doc.json[i], where + ": [" + std::to_string(i) + "]", &budget,
                                     &out, &workloads);
              !ok)
            return ok.error();
        }
      } else if (Outcome ok = AddObject(doc.json, where, &budget, &out, &workloads); !ok) {
        return ok.error();
      }
    }
  }
  if (Outcome ok = ExpandWorkloads(workloads, &budget, &out); !ok) return ok.error();
  return out;
}

}  // namespace schedcheck::trace
