#include "harness/replay/volume_controllers.h"

#include <string>

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::replay {
namespace {

constexpr char kAnnBindCompleted[] = "pv.kubernetes.io/bind-completed";
constexpr char kAnnBoundByController[] = "pv.kubernetes.io/bound-by-controller";
constexpr char kAnnSelectedNode[] = "volume.kubernetes.io/selected-node";
constexpr char kAnnProvisionedBy[] = "pv.kubernetes.io/provisioned-by";
constexpr char kNoProvisioner[] = "kubernetes.io/no-provisioner";

std::string ClaimNamespace(const k8s::PersistentVolumeClaim& claim) {
  return claim.metadata().namespace_().empty() ? "default" : claim.metadata().namespace_();
}

trace::ApiEvent Event(trace::EventType type) {
  trace::ApiEvent e;
  e.set_type(type);
  return e;
}

// The PV controller's bindClaimToVolume and updateClaimStatus, as one write.
trace::ApiEvent BindClaim(k8s::PersistentVolumeClaim claim, const k8s::PersistentVolume& pv) {
  auto& annotations = *claim.mutable_metadata()->mutable_annotations();
  if (claim.spec().volume_name().empty()) annotations[kAnnBoundByController] = "yes";
  annotations[kAnnBindCompleted] = "yes";
  claim.mutable_spec()->set_volume_name(pv.metadata().name());
  claim.mutable_metadata()->clear_resource_version();
  k8s::PersistentVolumeClaimStatus* status = claim.mutable_status();
  status->set_phase("Bound");
  *status->mutable_access_modes() = pv.spec().access_modes();
  *status->mutable_capacity() = pv.spec().capacity();
  trace::ApiEvent e = Event(trace::MODIFIED);
  *e.mutable_persistent_volume_claim() = std::move(claim);
  return e;
}

// A claimRef the claim answers to: the same name and namespace, the same UID when the ref has
// one, and no other volume.
const k8s::PersistentVolumeClaim* ClaimOf(const k8s::PersistentVolume& pv,
                                          const reference::ClusterObjects& objects) {
  if (!pv.spec().has_claim_ref()) return nullptr;
  const k8s::ObjectReference& ref = pv.spec().claim_ref();
  const std::string ns = ref.namespace_().empty() ? "default" : ref.namespace_();
  const k8s::PersistentVolumeClaim* claim = objects.FindClaim(ns, ref.name());
  if (claim == nullptr) return nullptr;
  if (!ref.uid().empty() && ref.uid() != claim->metadata().uid()) return nullptr;
  const std::string& bound_to = claim->spec().volume_name();
  if (!bound_to.empty() && bound_to != pv.metadata().name()) return nullptr;
  return claim;
}

std::vector<trace::ApiEvent> BindStatic(const k8s::PersistentVolume& written,
                                        const reference::ClusterObjects& objects) {
  const k8s::PersistentVolume* pv =
      reference::ClusterObjects::Find(objects.persistent_volumes, written.metadata().name());
  if (pv == nullptr) return {};
  const k8s::PersistentVolumeClaim* claim = ClaimOf(*pv, objects);
  if (claim == nullptr) return {};
  trace::ApiEvent bound = Event(trace::MODIFIED);
  k8s::PersistentVolume* updated = bound.mutable_persistent_volume();
  *updated = *pv;
  updated->mutable_metadata()->clear_resource_version();
  updated->mutable_status()->set_phase("Bound");
  trace::ApiEvent claim_bound = BindClaim(*claim, *updated);
  return {std::move(bound), std::move(claim_bound)};
}

// The provisioned volume's node affinity: each topology key the selected node's CSINode lists for
// the driver, In the node's value of that label (keys the node lacks are left out).
void SetTopology(const std::string& driver, const std::string& node,
                 const reference::ClusterObjects& objects, const reference::Labels* node_labels,
                 k8s::PersistentVolume* pv) {
  const k8s::CSINode* csi_node = reference::ClusterObjects::Find(objects.csi_nodes, node);
  if (csi_node == nullptr || node_labels == nullptr) return;
  k8s::NodeSelectorTerm term;
  for (const k8s::CSINodeDriver& d : csi_node->spec().drivers()) {
    if (d.name() != driver) continue;
    for (const std::string& key : d.topology_keys()) {
      auto label = node_labels->find(key);
      if (label == node_labels->end()) continue;
      k8s::NodeSelectorRequirement* r = term.add_match_expressions();
      r->set_key(key);
      r->set_operator_("In");
      r->add_values(label->second);
    }
    break;
  }
  if (term.match_expressions().empty()) return;
  *pv->mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms() =
      std::move(term);
}

std::vector<trace::ApiEvent> Provision(const k8s::PersistentVolumeClaim& written,
                                       const reference::ClusterObjects& objects,
                                       const reference::Labels* node_labels) {
  const k8s::PersistentVolumeClaim* claim =
      objects.FindClaim(ClaimNamespace(written), written.metadata().name());
  if (claim == nullptr || !claim->spec().volume_name().empty()) return {};
  auto selected = claim->metadata().annotations().find(kAnnSelectedNode);
  if (selected == claim->metadata().annotations().end() || selected->second.empty()) return {};
  const std::string class_name = reference::ClaimStorageClass(*claim);
  const k8s::StorageClass* sc =
      reference::ClusterObjects::Find(objects.storage_classes, class_name);
  if (sc == nullptr || sc->provisioner() == kNoProvisioner) return {};
  const std::string uid = claim->metadata().uid().empty()
                              ? ClaimNamespace(*claim) + "-" + claim->metadata().name()
                              : claim->metadata().uid();
  const std::string name = "pvc-" + uid;
  if (reference::ClusterObjects::Find(objects.persistent_volumes, name) != nullptr) return {};

  trace::ApiEvent added = Event(trace::ADDED);
  k8s::PersistentVolume* pv = added.mutable_persistent_volume();
  pv->set_api_version("v1");
  pv->set_kind("PersistentVolume");
  pv->mutable_metadata()->set_name(name);
  (*pv->mutable_metadata()->mutable_annotations())[kAnnProvisionedBy] = sc->provisioner();
  k8s::PersistentVolumeSpec* spec = pv->mutable_spec();
  auto request = claim->spec().resources().requests().find("storage");
  if (request != claim->spec().resources().requests().end()) {
    (*spec->mutable_capacity())["storage"] = request->second;
  }
  *spec->mutable_access_modes() = claim->spec().access_modes();
  if (claim->spec().has_volume_mode()) spec->set_volume_mode(claim->spec().volume_mode());
  spec->set_storage_class_name(class_name);
  spec->set_persistent_volume_reclaim_policy(
      sc->has_reclaim_policy() && !sc->reclaim_policy().empty() ? sc->reclaim_policy() : "Delete");
  spec->mutable_csi()->set_driver(sc->provisioner());
  spec->mutable_csi()->set_volume_handle(name);
  k8s::ObjectReference* ref = spec->mutable_claim_ref();
  ref->set_kind("PersistentVolumeClaim");
  ref->set_api_version("v1");
  ref->set_namespace_(ClaimNamespace(*claim));
  ref->set_name(claim->metadata().name());
  ref->set_uid(claim->metadata().uid());
  SetTopology(sc->provisioner(), selected->second, objects, node_labels, pv);
  pv->mutable_status()->set_phase("Bound");
  trace::ApiEvent claim_bound = BindClaim(*claim, *pv);
  return {std::move(added), std::move(claim_bound)};
}

}  // namespace

std::vector<trace::ApiEvent> VolumeControllerReactions(const trace::ApiEvent& write,
                                                       const reference::ClusterObjects& objects,
                                                       const reference::Labels* node_labels) {
  if (write.has_persistent_volume()) return BindStatic(write.persistent_volume(), objects);
  if (write.has_persistent_volume_claim()) {
    return Provision(write.persistent_volume_claim(), objects, node_labels);
  }
  return {};
}

}  // namespace schedcheck::replay
