// The scheduler's volume binder at v1.27 (volumebinding/binder.go, assume_cache.go and
// component-helpers storage/volume): which claims of a pod are bound, which PVs a node could
// bind them to, whether a class can provision there, and the assumed PV / PVC versions a
// reservation leaves until the informers catch up.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_BINDER_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_BINDER_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference/api/objects.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"

namespace schedcheck::reference::volume_binding {

// ConflictReasons, in FindPodVolumes' order. v1.37 words the node affinity conflict after the
// PersistentVolume (kErrReasonNodeConflictV1_37).
inline constexpr std::string_view kErrReasonNodeConflict =
    "node(s) had volume node affinity conflict";
inline constexpr std::string_view kErrReasonNodeConflictV1_37 =
    "node(s) didn't match PersistentVolume's node affinity";
inline constexpr std::string_view kErrReasonBindConflict =
    "node(s) didn't find available persistent volumes to bind";
inline constexpr std::string_view kErrReasonNotEnoughSpace =
    "node(s) did not have enough free storage";
inline constexpr std::string_view kErrReasonPVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

inline constexpr std::string_view kAnnSelectedNode = "volume.kubernetes.io/selected-node";
inline constexpr std::string_view kAnnBindCompleted = "pv.kubernetes.io/bind-completed";
inline constexpr std::string_view kAnnBoundByController = "pv.kubernetes.io/bound-by-controller";
inline constexpr std::string_view kNotSupportedProvisioner = "kubernetes.io/no-provisioner";

using Claim = k8s::PersistentVolumeClaim;
using Volume = k8s::PersistentVolume;

// PodVolumeClaims: the pod's claims by state; unbound PVs of each delayed claim's class.
struct PodVolumeClaims {
  std::vector<Claim> bound;
  std::vector<Claim> unbound_immediate;
  std::vector<Claim> unbound_delay_binding;
  std::map<std::string, std::vector<Volume>> unbound_volumes_delay_binding;  // by class
};

struct Binding {
  Volume pv;
  Claim pvc;
};

// DynamicProvision: a claim to provision and, at v1.37, the CSIStorageCapacity that showed the
// node has room for it (none when the driver does not track capacity, and after Reserve).
struct DynamicProvision {
  Claim pvc;
  std::optional<k8s::CSIStorageCapacity> node_capacity;
};

// PodVolumes: what a node needs done for the pod.
struct PodVolumes {
  std::vector<Binding> static_bindings;
  std::vector<DynamicProvision> dynamic_provisions;
};

// The PV and PVC assume caches: an assumed version hides the informer's until the informer
// delivers a newer resourceVersion for that key, or the assumption is restored.
class AssumeCache {
 public:
  const Volume* GetPV(const ClusterObjects& objects, const std::string& name) const;
  const Claim* GetPVC(const ClusterObjects& objects, const std::string& key) const;
  // ListPVs(class): the PVs of that class (GetPersistentVolumeClass), assumed versions first
  // applied, in name order (upstream lists an index in Go map order).
  std::vector<Volume> ListPVs(const ClusterObjects& objects, const std::string& class_name) const;
  // Assume: an error when the informer no longer holds the object or holds a newer
  // resourceVersion of it (the checks and error texts of v1.27's assume cache, or of v1.37's
  // passive one: Features::volume_assume_cache_is_passive).
  Outcome AssumePV(const ClusterObjects& objects, Volume pv, const Features& features);
  Outcome AssumePVC(const ClusterObjects& objects, Claim pvc, const Features& features);
  void RestorePV(const std::string& name) { pvs_.erase(name); }
  void RestorePVC(const std::string& key) { pvcs_.erase(key); }

 private:
  template <typename Object>
  struct Assumed {
    std::string base;  // the informer's object (serialized) when assumed; "" when it had none
    Object object;
  };
  std::map<std::string, Assumed<Volume>> pvs_;
  std::map<std::string, Assumed<Claim>> pvcs_;
};

// storagehelpers.GetPersistentVolumeClass.
std::string VolumeStorageClass(const Volume& pv);
// "namespace/name" of a claim (namespace "default" when empty).
std::string ClaimKey(const Claim& claim);

// volumeLimit: maximumVolumeSize when set, else capacity; nullptr when neither is.
const std::string* VolumeLimit(const k8s::CSIStorageCapacity& capacity);

// The volume binder over the cluster objects and one plugin's assume cache (under the handle's
// Features).
class Binder {
 public:
  Binder(const Handle& handle, AssumeCache* cache) : handle_(handle), cache_(cache) {}

  // GetPodVolumeClaims. Errors: VolumeBindingMode missing on a class, an ephemeral claim that is
  // not the pod's.
  Result<PodVolumeClaims> GetPodVolumeClaims(const Pod& pod) const;
  // GetEligibleNodes: the hostnames the bound PVs' node affinity names (intersected across
  // claims); nullopt for no narrowing.
  std::optional<std::set<std::string>> GetEligibleNodes(const std::vector<Claim>& bound) const;
  // FindPodVolumes: the reasons the node fails (empty = fits), or an error.
  Result<std::vector<std::string>> FindPodVolumes(const Pod& pod, const PodVolumeClaims& claims,
                                                  const Node& node, PodVolumes* out) const;
  // AssumePodVolumes: true when every volume is already bound; else assumes the bindings and
  // provisions for `node` (the PV claimRefs, the claims' selected-node annotation).
  Result<bool> AssumePodVolumes(const Pod& pod, const std::string& node, PodVolumes* volumes);
  void RevertAssumedPodVolumes(const PodVolumes& volumes);

  // isVolumeBound for each volume of the pod (the claims as the assume cache has them).
  bool ArePodVolumesBound(const Pod& pod) const;

  // checkBindings, after PreBind's writes (`written`: the PVs and claims as the API server
  // returned them): true when every claim is fully bound in the informers' objects (not the
  // assumed ones), false to wait longer, an error when the binding must be retried. In-tree PVs
  // are not translated to CSI first (as in FindPodVolumes: docs/DEVIATIONS.md).
  Result<bool> CheckBindings(const Pod& pod, const std::string& node_name,
                             const PodVolumes& written) const;

 private:
  const ClusterObjects& objects() const;
  // hasEnoughCapacity; `*capacity` is the CSIStorageCapacity found (unset when none was needed).
  bool HasEnoughCapacity(const std::string& provisioner, const Claim& claim,
                         const k8s::StorageClass& sc, const Node& node,
                         std::optional<k8s::CSIStorageCapacity>* capacity) const;

  const Handle& handle_;
  AssumeCache* cache_;
};

}  // namespace schedcheck::reference::volume_binding

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_BINDER_H_
