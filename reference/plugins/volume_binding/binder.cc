#include "reference/plugins/volume_binding/binder.h"

#include <algorithm>
#include <charconv>

#include "reference/api/quantity.h"
#include "reference/api/selectors.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference::volume_binding {
namespace {

// A storage quantity in bytes (rounded up); absent or unparsable: 0. The API server refuses
// unparsable quantities, so only hand-written inputs reach the fallback.
int64_t StorageBytes(const google::protobuf::Map<std::string, std::string>& list) {
  auto it = list.find("storage");
  if (it == list.end()) return 0;
  Result<int64_t> v = ParseResourceQuantity("storage", it->second);
  return v.ok() ? *v : 0;
}

int64_t ClaimRequest(const Claim& claim) {
  return StorageBytes(claim.spec().resources().requests());
}

std::string Serialized(const google::protobuf::Message& m) {
  std::string out;
  m.SerializeToString(&out);
  return out;
}

// volume.CheckNodeAffinity: the PV's required node affinity against a node that has only the
// node's labels (matchFields never match it).
bool CheckNodeAffinity(const Volume& pv, const Labels& node_labels) {
  if (!pv.spec().has_node_affinity() || !pv.spec().node_affinity().has_required()) return true;
  k8s::Node labels_only;
  *labels_only.mutable_metadata()->mutable_labels() = node_labels;
  return NodeSelectorMatches(pv.spec().node_affinity().required(), labels_only);
}
bool CheckNodeAffinity(const Volume& pv, const Node& node) {
  return CheckNodeAffinity(pv, node.labels());
}

// IsVolumeBoundToClaim.
bool IsVolumeBoundToClaim(const Volume& pv, const Claim& claim) {
  if (!pv.spec().has_claim_ref()) return false;
  const auto& ref = pv.spec().claim_ref();
  if (claim.metadata().name() != ref.name() || ClaimNamespace(claim) != ref.namespace_()) {
    return false;
  }
  return ref.uid().empty() || claim.metadata().uid() == ref.uid();
}

std::string_view VolumeMode(bool has, const std::string& mode) {
  return has ? std::string_view(mode) : std::string_view("Filesystem");
}

// CheckAccessModes: every mode the claim asks for is among the PV's.
bool CheckAccessModes(const Claim& claim, const Volume& pv) {
  for (const std::string& mode : claim.spec().access_modes()) {
    if (!HasAccessMode(pv.spec().access_modes(), mode)) return false;
  }
  return true;
}

// FindMatchingVolume with a node and delayBinding: the PV already bound to the claim if its node
// affinity fits (nullopt if not), else the smallest Available PV of the claim's class that the
// claim's selector, size, volume mode, access modes and the node's labels all accept.
const Volume* FindMatchingVolume(const Claim& claim, const std::vector<Volume>& volumes,
                                 const Node& node, const std::set<std::string>& excluded,
                                 bool* bound_but_misplaced) {
  *bound_but_misplaced = false;
  const int64_t requested = ClaimRequest(claim);
  const std::string requested_class = ClaimStorageClass(claim);
  const Volume* smallest = nullptr;
  int64_t smallest_size = 0;
  for (const Volume& pv : volumes) {
    if (excluded.contains(pv.metadata().name())) continue;
    if (pv.spec().has_claim_ref() && !IsVolumeBoundToClaim(pv, claim)) continue;
    const int64_t size = StorageBytes(pv.spec().capacity());
    if (size < requested) continue;
    if (VolumeMode(claim.spec().has_volume_mode(), claim.spec().volume_mode()) !=
        VolumeMode(pv.spec().has_volume_mode(), pv.spec().volume_mode())) {
      continue;
    }
    if (!pv.metadata().deletion_timestamp().empty()) continue;
    const bool affinity_ok = CheckNodeAffinity(pv, node);
    if (IsVolumeBoundToClaim(pv, claim)) {
      if (!affinity_ok) {
        *bound_but_misplaced = true;
        return nullptr;
      }
      return &pv;
    }
    if (pv.status().phase() != "Available") continue;
    if (claim.spec().has_selector() &&
        !LabelSelectorMatches(claim.spec().selector(), pv.metadata().labels())) {
      continue;
    }
    if (VolumeStorageClass(pv) != requested_class) continue;
    if (!affinity_ok) continue;
    if (!CheckAccessModes(claim, pv)) continue;
    if (smallest == nullptr || smallest_size > size) {
      smallest = &pv;
      smallest_size = size;
    }
  }
  return smallest;
}

// v1helper.MatchTopologySelectorTerms: no terms match every node; otherwise some term whose
// every expression names a label the node has with one of the listed values.
bool MatchTopologySelectorTerms(
    const google::protobuf::RepeatedPtrField<k8s::TopologySelectorTerm>& terms,
    const Labels& labels) {
  if (terms.empty()) return true;
  for (const auto& term : terms) {
    bool all = true;
    for (const auto& req : term.match_label_expressions()) {
      auto it = labels.find(req.key());
      if (it == labels.end() ||
          std::find(req.values().begin(), req.values().end(), it->second) == req.values().end()) {
        all = false;
        break;
      }
    }
    // An empty term (no expressions) matches nothing, as a labels.Selector built from none.
    if (all && !term.match_label_expressions().empty()) return true;
  }
  return false;
}

}  // namespace

std::string VolumeStorageClass(const Volume& pv) {
  const auto& annotations = pv.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class");
      it != annotations.end()) {
    return it->second;
  }
  return pv.spec().storage_class_name();
}

std::string ClaimKey(const Claim& claim) {
  return NamespacedName(ClaimNamespace(claim), claim.metadata().name());
}

// ---- AssumeCache

namespace {

// getObjVersion: the resourceVersion as an integer (replay stamps objects that carry none, as the
// adapters' API server does); nullopt when it is not one.
template <typename Object>
std::optional<int64_t> ObjectVersion(const Object& object) {
  const std::string& text = object.metadata().resource_version();
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The assume cache's latestObj: the assumed object until the informer delivers a newer version
// (assumeCache.add replaces it only then). Objects without integer versions fall back to "the
// informer's object changed since the assumption".
template <typename Object, typename Assumed>
const Object* Latest(const Object* informer, const Assumed* assumed) {
  if (assumed == nullptr || informer == nullptr) return informer;
  std::optional<int64_t> delivered = ObjectVersion(*informer);
  std::optional<int64_t> mine = ObjectVersion(assumed->object);
  if (delivered && mine) return *delivered > *mine ? informer : &assumed->object;
  return Serialized(*informer) == assumed->base ? &assumed->object : informer;
}

// assumeCache.Assume: refuses an object the informer no longer holds (deleted since it was
// listed; v1.27 words it as its own errNotFound, v1.37 as the API's NotFound) and, at v1.27, one
// older than the latest ("out of sync"); v1.37's passiveAssumeCache refuses any other version.
template <typename Object>
Outcome CheckAssumable(const Object& object, const Object* latest, std::string_view description,
                       std::string_view resource, const std::string& key, bool passive) {
  if (latest == nullptr) {
    if (passive) {
      return Error{std::string(resource) + " \"" + key + "\" not found"};
    }
    return Error{"could not find " + std::string(description) + " \"" + key + "\""};
  }
  if (passive) {
    // v1.37's passive assume cache: the versions must be equal, and the error names no type.
    const std::string& stored = latest->metadata().resource_version();
    const std::string& assumed = object.metadata().resource_version();
    if (stored != assumed) {
      return Error{"\"" + key + "\" is out of sync (stored: " + stored + ", assume: " + assumed +
                   ")"};
    }
    return Outcome::Ok();
  }
  std::optional<int64_t> stored = ObjectVersion(*latest);
  std::optional<int64_t> assumed = ObjectVersion(object);
  if (stored && assumed && *assumed < *stored) {
    // The cache key: a claim's "namespace/name", a volume's name.
    return Error{std::string(description) + " \"" + key + "\" is out of sync (stored: " +
                 std::to_string(*stored) + ", assume: " + std::to_string(*assumed) + ")"};
  }
  return Outcome::Ok();
}

}  // namespace

const Volume* AssumeCache::GetPV(const ClusterObjects& objects, const std::string& name) const {
  auto it = pvs_.find(name);
  return Latest(objects.AssumeCacheVolume(name), it == pvs_.end() ? nullptr : &it->second);
}

const Claim* AssumeCache::GetPVC(const ClusterObjects& objects, const std::string& key) const {
  auto it = pvcs_.find(key);
  return Latest(objects.AssumeCacheClaim(key), it == pvcs_.end() ? nullptr : &it->second);
}

std::vector<Volume> AssumeCache::ListPVs(const ClusterObjects& objects,
                                         const std::string& class_name) const {
  std::vector<Volume> out;
  for (const auto& [name, informer] : objects.persistent_volumes) {
    const Volume* pv = GetPV(objects, name);
    if (VolumeStorageClass(*pv) == class_name) out.push_back(*pv);
  }
  return out;
}

Outcome AssumeCache::AssumePV(const ClusterObjects& objects, Volume pv, const Features& features) {
  const std::string name = pv.metadata().name();
  if (Outcome ok =
          CheckAssumable(pv, GetPV(objects, name), "v1.PersistentVolume", "persistentvolumes", name,
                         features.volume_assume_cache_is_passive);
      !ok) {
    return ok;
  }
  const Volume* informer = objects.AssumeCacheVolume(name);
  pvs_[name] = {informer == nullptr ? "" : Serialized(*informer), std::move(pv)};
  return Outcome::Ok();
}

Outcome AssumeCache::AssumePVC(const ClusterObjects& objects, Claim pvc, const Features& features) {
  const std::string key = ClaimKey(pvc);
  if (Outcome ok =
          CheckAssumable(pvc, GetPVC(objects, key), "v1.PersistentVolumeClaim",
                         "persistentvolumeclaims", key, features.volume_assume_cache_is_passive);
      !ok) {
    return ok;
  }
  const Claim* informer = objects.AssumeCacheClaim(key);
  pvcs_[key] = {informer == nullptr ? "" : Serialized(*informer), std::move(pvc)};
  return Outcome::Ok();
}

// ---- Binder

const ClusterObjects& Binder::objects() const { return StorageObjectsOf(handle_); }

bool Binder::ArePodVolumesBound(const Pod& pod) const {
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &name, &ephemeral)) continue;
    const Claim* claim = cache_->GetPVC(objects(), NamespacedName(pod.ns(), name));
    if (claim == nullptr) return false;
    if (ephemeral && !EphemeralClaimNotForPod(pod, *claim).empty()) return false;
    // isPVCFullyBound
    if (claim->spec().volume_name().empty() ||
        !claim->metadata().annotations().contains(std::string(kAnnBindCompleted))) {
      return false;
    }
  }
  return true;
}

Result<PodVolumeClaims> Binder::GetPodVolumeClaims(const Pod& pod) const {
  PodVolumeClaims out;
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &name, &ephemeral)) continue;
    const std::string key = NamespacedName(pod.ns(), name);
    const Claim* claim = cache_->GetPVC(objects(), key);
    if (claim == nullptr) {
      return Error{"error getting PVC \"" + key + "\": unable to find PVC \"" + key + "\""};
    }
    if (ephemeral) {
      if (std::string err = EphemeralClaimNotForPod(pod, *claim); !err.empty()) return Error{err};
    }
    const bool fully_bound =
        !claim->spec().volume_name().empty() &&
        claim->metadata().annotations().contains(std::string(kAnnBindCompleted));
    if (fully_bound) {
      out.bound.push_back(*claim);
      continue;
    }
    // volume.IsDelayBindingMode: a class that exists with WaitForFirstConsumer.
    bool delay = false;
    const std::string class_name = ClaimStorageClass(*claim);
    if (!class_name.empty()) {
      if (const auto* sc = ClusterObjects::Find(objects().storage_classes, class_name)) {
        if (!sc->has_volume_binding_mode()) {
          return Error{"VolumeBindingMode not set for StorageClass \"" + class_name + "\""};
        }
        delay = sc->volume_binding_mode() == kWaitForFirstConsumer;
      }
    }
    if (delay && claim->spec().volume_name().empty()) {
      out.unbound_delay_binding.push_back(*claim);
    } else {
      out.unbound_immediate.push_back(*claim);
    }
  }
  for (const Claim& claim : out.unbound_delay_binding) {
    const std::string class_name = ClaimStorageClass(claim);
    out.unbound_volumes_delay_binding[class_name] = cache_->ListPVs(objects(), class_name);
  }
  return out;
}

std::optional<std::set<std::string>> Binder::GetEligibleNodes(
    const std::vector<Claim>& bound) const {
  std::optional<std::set<std::string>> eligible;
  for (const Claim& claim : bound) {
    const Volume* pv = cache_->GetPV(objects(), claim.spec().volume_name());
    if (pv == nullptr) return std::nullopt;  // an error for any claim: no narrowing
    // GetLocalPersistentVolumeNodeNames: per term, the intersection of its hostname In lists;
    // the union over terms.
    std::set<std::string> names;
    if (pv->spec().has_node_affinity() && pv->spec().node_affinity().has_required()) {
      for (const auto& term : pv->spec().node_affinity().required().node_selector_terms()) {
        std::optional<std::set<std::string>> term_nodes;
        for (const auto& expr : term.match_expressions()) {
          if (expr.key() != "kubernetes.io/hostname" || expr.operator_() != "In") continue;
          std::set<std::string> values(expr.values().begin(), expr.values().end());
          if (!term_nodes) {
            term_nodes = std::move(values);
          } else {
            std::set<std::string> both;
            std::set_intersection(term_nodes->begin(), term_nodes->end(), values.begin(),
                                  values.end(), std::inserter(both, both.begin()));
            term_nodes = std::move(both);
          }
        }
        if (term_nodes) names.insert(term_nodes->begin(), term_nodes->end());
      }
    }
    if (names.empty()) continue;
    if (!eligible) {
      eligible = std::move(names);
    } else {
      std::set<std::string> both;
      std::set_intersection(eligible->begin(), eligible->end(), names.begin(), names.end(),
                            std::inserter(both, both.begin()));
      eligible = std::move(both);
    }
  }
  return eligible;
}

const std::string* VolumeLimit(const k8s::CSIStorageCapacity& capacity) {
  if (capacity.has_maximum_volume_size()) return &capacity.maximum_volume_size();
  if (capacity.has_capacity()) return &capacity.capacity();
  return nullptr;
}

bool Binder::HasEnoughCapacity(const std::string& provisioner, const Claim& claim,
                               const k8s::StorageClass& sc, const Node& node,
                               std::optional<k8s::CSIStorageCapacity>* found) const {
  if (!claim.spec().resources().requests().contains("storage")) return true;
  const k8s::CSIDriver* driver = ClusterObjects::Find(objects().csi_drivers, provisioner);
  if (driver == nullptr) return true;
  if (!driver->spec().has_storage_capacity() || !driver->spec().storage_capacity()) return true;
  const int64_t size = ClaimRequest(claim);
  for (const auto& [key, capacity] : objects().csi_storage_capacities) {
    if (capacity.storage_class_name() != sc.metadata().name()) continue;
    // capacitySufficient: no limit is insufficient.
    const std::string* limit = VolumeLimit(capacity);
    if (limit == nullptr) continue;
    Result<int64_t> bytes = ParseResourceQuantity("storage", *limit);
    if (!bytes.ok() || *bytes < size) continue;
    // nodeHasAccess: a nil topology selects no node.
    if (!capacity.has_node_topology()) continue;
    if (!LabelSelectorValid(capacity.node_topology()) ||
        !LabelSelectorMatches(capacity.node_topology(), node.labels())) {
      continue;
    }
    *found = capacity;
    return true;
  }
  return false;
}

Result<std::vector<std::string>> Binder::FindPodVolumes(const Pod&, const PodVolumeClaims& claims,
                                                        const Node& node, PodVolumes* out) const {
  bool unbound_satisfied = true;
  bool bound_satisfied = true;
  bool sufficient_storage = true;
  bool bound_pvs_found = true;
  auto reasons = [&]() {
    std::vector<std::string> r;
    if (!bound_satisfied) {
      r.emplace_back(handle_.features.reworded_messages ? kErrReasonNodeConflictV1_37
                                                        : kErrReasonNodeConflict);
    }
    if (!unbound_satisfied) r.emplace_back(kErrReasonBindConflict);
    if (!sufficient_storage) r.emplace_back(kErrReasonNotEnoughSpace);
    if (!bound_pvs_found) r.emplace_back(kErrReasonPVNotExist);
    return r;
  };
  // checkBoundClaims (in-tree PVs migrated on the node are not translated: docs/DEVIATIONS.md).
  for (const Claim& claim : claims.bound) {
    const Volume* pv = cache_->GetPV(objects(), claim.spec().volume_name());
    if (pv == nullptr) {
      bound_pvs_found = false;
      break;
    }
    if (!CheckNodeAffinity(*pv, node)) {
      bound_satisfied = false;
      break;
    }
  }
  if (!claims.unbound_delay_binding.empty()) {
    std::vector<Claim> to_find_matching;
    std::vector<Claim> to_provision;
    for (const Claim& claim : claims.unbound_delay_binding) {
      auto it = claim.metadata().annotations().find(std::string(kAnnSelectedNode));
      if (it != claim.metadata().annotations().end()) {
        if (it->second != node.name()) {
          unbound_satisfied = false;
          return reasons();
        }
        to_provision.push_back(claim);
      } else {
        to_find_matching.push_back(claim);
      }
    }
    if (!to_find_matching.empty()) {
      // findMatchingVolumes: smaller claims first; each chosen PV is taken.
      std::stable_sort(
          to_find_matching.begin(), to_find_matching.end(),
          [](const Claim& a, const Claim& b) { return ClaimRequest(a) < ClaimRequest(b); });
      std::set<std::string> chosen;
      bool found_all = true;
      for (const Claim& claim : to_find_matching) {
        auto pvs = claims.unbound_volumes_delay_binding.find(ClaimStorageClass(claim));
        static const std::vector<Volume> kNone;
        bool misplaced = false;
        const Volume* pv = FindMatchingVolume(
            claim, pvs == claims.unbound_volumes_delay_binding.end() ? kNone : pvs->second, node,
            chosen, &misplaced);
        if (pv == nullptr) {
          to_provision.push_back(claim);
          found_all = false;
          continue;
        }
        chosen.insert(pv->metadata().name());
        out->static_bindings.push_back(Binding{*pv, claim});
      }
      unbound_satisfied = found_all;
    }
    if (!to_provision.empty()) {
      // checkVolumeProvisions
      std::vector<DynamicProvision> provisions;
      for (const Claim& claim : to_provision) {
        const std::string class_name = ClaimStorageClass(claim);
        if (class_name.empty()) return Error{"no class for claim \"" + ClaimKey(claim) + "\""};
        const k8s::StorageClass* sc = ClusterObjects::Find(objects().storage_classes, class_name);
        if (sc == nullptr) return Error{"failed to find storage class \"" + class_name + "\""};
        const std::string& provisioner = sc->provisioner();
        if (provisioner.empty() || provisioner == kNotSupportedProvisioner ||
            !MatchTopologySelectorTerms(sc->allowed_topologies(), node.labels())) {
          unbound_satisfied = false;
          out->dynamic_provisions.clear();
          return reasons();
        }
        std::optional<k8s::CSIStorageCapacity> capacity;
        if (!HasEnoughCapacity(provisioner, claim, *sc, node, &capacity)) {
          unbound_satisfied = true;
          sufficient_storage = false;
          return reasons();
        }
        provisions.push_back(DynamicProvision{claim, std::move(capacity)});
      }
      unbound_satisfied = true;
      out->dynamic_provisions = std::move(provisions);
    }
  }
  return reasons();
}

Result<bool> Binder::AssumePodVolumes(const Pod& pod, const std::string& node,
                                      PodVolumes* volumes) {
  if (ArePodVolumesBound(pod)) return true;
  std::vector<Binding> bindings;
  for (const Binding& b : volumes->static_bindings) {
    // GetBindVolumeToClaim: the PV with a claimRef to the claim and, when it was not bound to it
    // before, the bound-by-controller annotation.
    Volume pv = b.pv;
    const bool was_bound = IsVolumeBoundToClaim(b.pv, b.pvc);
    bool dirty = false;
    const std::string claim_ns(ClaimNamespace(b.pvc));
    const auto& ref = b.pv.spec().claim_ref();
    if (!b.pv.spec().has_claim_ref() || ref.name() != b.pvc.metadata().name() ||
        ref.namespace_() != claim_ns || ref.uid() != b.pvc.metadata().uid()) {
      k8s::ObjectReference* claim_ref = pv.mutable_spec()->mutable_claim_ref();
      claim_ref->Clear();
      claim_ref->set_kind("PersistentVolumeClaim");
      claim_ref->set_api_version("v1");
      claim_ref->set_namespace_(claim_ns);
      claim_ref->set_name(b.pvc.metadata().name());
      claim_ref->set_uid(b.pvc.metadata().uid());
      claim_ref->set_resource_version(b.pvc.metadata().resource_version());
      dirty = true;
    }
    if (!was_bound && !pv.metadata().annotations().contains(std::string(kAnnBoundByController))) {
      (*pv.mutable_metadata()->mutable_annotations())[std::string(kAnnBoundByController)] = "yes";
      dirty = true;
    }
    if (dirty) {
      if (Outcome ok = cache_->AssumePV(objects(), pv, handle_.features); !ok) {
        for (const Binding& done : bindings) cache_->RestorePV(done.pv.metadata().name());
        return ok.error();
      }
    }
    bindings.push_back(Binding{std::move(pv), b.pvc});
  }
  std::vector<DynamicProvision> provisions;
  for (const DynamicProvision& provision : volumes->dynamic_provisions) {
    Claim clone = provision.pvc;
    (*clone.mutable_metadata()->mutable_annotations())[std::string(kAnnSelectedNode)] = node;
    if (Outcome ok = cache_->AssumePVC(objects(), clone, handle_.features); !ok) {
      for (const Binding& done : bindings) cache_->RestorePV(done.pv.metadata().name());
      for (const DynamicProvision& done : provisions) cache_->RestorePVC(ClaimKey(done.pvc));
      return ok.error();
    }
    provisions.push_back(DynamicProvision{std::move(clone), std::nullopt});
  }
  volumes->static_bindings = std::move(bindings);
  volumes->dynamic_provisions = std::move(provisions);
  return false;
}

void Binder::RevertAssumedPodVolumes(const PodVolumes& volumes) {
  for (const Binding& b : volumes.static_bindings) cache_->RestorePV(b.pv.metadata().name());
  for (const DynamicProvision& provision : volumes.dynamic_provisions) {
    cache_->RestorePVC(ClaimKey(provision.pvc));
  }
}

namespace {

// CompareResourceVersion(written, informer) > 0: the informer has not caught up with the write.
template <typename Object>
bool InformerBehind(const Object& written, const Object& informer) {
  std::optional<int64_t> w = ObjectVersion(written);
  std::optional<int64_t> i = ObjectVersion(informer);
  return w && i && *w > *i;
}

// isPVCFullyBound.
bool IsClaimFullyBound(const Claim& claim) {
  return !claim.spec().volume_name().empty() &&
         claim.metadata().annotations().contains(std::string(kAnnBindCompleted));
}

}  // namespace

Result<bool> Binder::CheckBindings(const Pod& pod, const std::string& node_name,
                                   const PodVolumes& written) const {
  // The listers' NotFound (the assume cache's GetAPIObj words it at v1.27 as its own errNotFound).
  auto not_found = [&](std::string_view resource, std::string_view description,
                       const std::string& key) {
    if (handle_.features.volume_assume_cache_is_passive)
      return std::string(resource) + " \"" + key + "\" not found";
    return "could not find " + std::string(description) + " \"" + key + "\"";
  };
  // The node lister's node (the API's), as upstream reads it; the cycle's snapshot without an
  // API server.
  const Labels* node_labels = nullptr;
  if (handle_.volume_api != nullptr) {
    if (const k8s::Node* node = handle_.volume_api->GetNode(node_name)) {
      node_labels = &node->metadata().labels();
    }
  } else if (handle_.snapshot != nullptr) {
    const NodeInfo* info = handle_.snapshot->Get(node_name);
    if (info != nullptr && info->node() != nullptr) node_labels = &info->node()->labels();
  }
  if (node_labels == nullptr) {
    return Error{"failed to get node \"" + node_name + "\": node \"" + node_name + "\" not found"};
  }
  if (handle_.pods != nullptr && handle_.pods->Get(pod.key) == nullptr) {
    return Error{"pod does not exist any more: pod \"" + pod.name() + "\" not found"};
  }
  auto affinity_error = [&](const Volume& pv) {
    return Error{"pv \"" + pv.metadata().name() + "\" node affinity doesn't match node \"" +
                 node_name + "\": no matching NodeSelectorTerms"};
  };
  for (const Binding& b : written.static_bindings) {
    const std::string& pv_name = b.pv.metadata().name();
    const Volume* pv = objects().AssumeCacheVolume(pv_name);
    if (pv == nullptr) {
      return Error{"failed to check binding: " +
                   not_found("persistentvolumes", "v1.PersistentVolume", pv_name)};
    }
    const std::string claim_key = ClaimKey(b.pvc);
    const Claim* claim = objects().AssumeCacheClaim(claim_key);
    if (claim == nullptr) {
      return Error{"failed to check binding: " +
                   not_found("persistentvolumeclaims", "v1.PersistentVolumeClaim", claim_key)};
    }
    if (InformerBehind(b.pv, *pv)) return false;
    if (!CheckNodeAffinity(*pv, *node_labels)) return affinity_error(*pv);
    if (!pv->spec().has_claim_ref() || pv->spec().claim_ref().uid().empty()) {
      return Error{"ClaimRef got reset for pv \"" + pv_name + "\""};
    }
    if (!IsClaimFullyBound(*claim)) return false;
  }
  for (const DynamicProvision& provision : written.dynamic_provisions) {
    const std::string claim_key = ClaimKey(provision.pvc);
    const Claim* claim = objects().AssumeCacheClaim(claim_key);
    if (claim == nullptr) {
      return Error{"failed to check provisioning pvc: " +
                   not_found("persistentvolumeclaims", "v1.PersistentVolumeClaim", claim_key)};
    }
    if (InformerBehind(provision.pvc, *claim)) return false;
    const auto& annotations = claim->metadata().annotations();
    if (annotations.empty()) {
      return Error{"selectedNode annotation reset for PVC \"" + claim->metadata().name() + "\""};
    }
    auto selected = annotations.find(std::string(kAnnSelectedNode));
    if (selected == annotations.end() || selected->second != pod.node_name()) {
      // The provisioner removes the annotation when provisioning fails.
      return Error{"provisioning failed for PVC \"" + claim->metadata().name() + "\""};
    }
    if (!claim->spec().volume_name().empty()) {
      const Volume* pv = objects().AssumeCacheVolume(claim->spec().volume_name());
      if (pv == nullptr) return false;  // not delivered yet: tolerated
      if (!CheckNodeAffinity(*pv, *node_labels)) return affinity_error(*pv);
    }
    if (!IsClaimFullyBound(*claim)) return false;
  }
  return true;
}

}  // namespace schedcheck::reference::volume_binding
