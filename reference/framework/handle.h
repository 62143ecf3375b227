// Handle: what a plugin may look at besides its arguments (framework.Handle upstream): the
// cycle's snapshot, the non-node cluster objects, and the run's Features. The runtime owns
// it; plugins keep a reference for their lifetime. Contents change between cycles, never during.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_HANDLE_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_HANDLE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/selectors.h"
#include "reference/base/clock.h"
#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/framework/cycle_state.h"
#include "reference/framework/pod_group_state.h"
#include "reference/framework/snapshot.h"
#include "reference/framework/status.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// Namespaces, PodDisruptionBudgets, PriorityClasses and the selector objects known to the
// scheduler (its informers' listers upstream).
struct ClusterObjects {
  std::map<std::string, k8s::Namespace, std::less<>> namespaces;
  std::map<std::string, k8s::PodDisruptionBudget> pdbs;  // key "namespace/name"
  std::map<std::string, k8s::PriorityClass> priority_classes;
  // Read by PodTopologySpread's default constraints (helper.DefaultSelector). Keyed
  // "namespace/name", so one namespace's objects are a contiguous range in name order.
  std::map<std::string, k8s::Service, std::less<>> services;
  std::map<std::string, k8s::ReplicationController, std::less<>> replication_controllers;
  std::map<std::string, k8s::ReplicaSet, std::less<>> replica_sets;
  std::map<std::string, k8s::StatefulSet, std::less<>> stateful_sets;
  // Storage, read by the volume plugins. Cluster-scoped kinds keyed by name, namespaced ones
  // (claims, capacities) by "namespace/name".
  std::map<std::string, k8s::PersistentVolume, std::less<>> persistent_volumes;
  std::map<std::string, k8s::PersistentVolumeClaim, std::less<>> persistent_volume_claims;
  std::map<std::string, k8s::StorageClass, std::less<>> storage_classes;
  std::map<std::string, k8s::CSINode, std::less<>> csi_nodes;
  std::map<std::string, k8s::CSIDriver, std::less<>> csi_drivers;
  std::map<std::string, k8s::CSIStorageCapacity, std::less<>> csi_storage_capacities;
  // Dynamic Resource Allocation, read by DynamicResources (v1.37). Claims keyed
  // "namespace/name" (as the scheduler's assume cache holds them: with its own status writes),
  // slices, classes and taint rules by name.
  std::map<std::string, k8s::ResourceClaim, std::less<>> resource_claims;
  std::map<std::string, k8s::ResourceSlice, std::less<>> resource_slices;
  std::map<std::string, k8s::DeviceClass, std::less<>> device_classes;
  std::map<std::string, k8s::DeviceTaintRule, std::less<>> device_taint_rules;
  // v1.27's VolumeBinding assume cache keeps the newest version of each PV and claim delivered
  // to it: an update whose resourceVersion is not a newer integer is skipped (assumeCache.add).
  // Where the store took such an update, the object the cache kept, by the store's key (the
  // replay maintains these; empty at v1.37, whose passive cache reads the informer's store).
  std::map<std::string, k8s::PersistentVolume, std::less<>> assume_cache_kept_pvs;
  std::map<std::string, k8s::PersistentVolumeClaim, std::less<>> assume_cache_kept_claims;

  // How often the storage maps changed, for the fast engine's memos (reference/accel/
  // node_volume_limits): a result read from these objects is still right while the counts are
  // those it was read under. Adds (a key that was absent) are counted apart from updates and
  // deletes, since a result whose look-ups all found their object stays right when others are
  // added. Whoever changes one of these maps after plugins have read it bumps its count.
  struct ChangeCount {
    uint64_t adds = 0;
    uint64_t updates = 0;  // updates and deletes
  };
  ChangeCount volume_changes;    // persistent_volumes, persistent_volume_claims, storage_classes
  ChangeCount csi_node_changes;  // csi_nodes

  // Null when absent (the listers' NotFound).
  template <typename Object>
  static const Object* Find(const std::map<std::string, Object, std::less<>>& store,
                            std::string_view key) {
    auto it = store.find(key);
    return it == store.end() ? nullptr : &it->second;
  }
  const k8s::PersistentVolumeClaim* FindClaim(std::string_view ns, std::string_view name) const {
    std::string key;
    key.reserve(ns.size() + 1 + name.size());
    key.append(ns).append("/").append(name);
    return Find(persistent_volume_claims, key);
  }

  // A PV or claim as VolumeBinding's assume cache has it from the informer (its apiObj): the
  // kept object, else the store's. Null when absent.
  const k8s::PersistentVolume* AssumeCacheVolume(std::string_view name) const {
    const k8s::PersistentVolume* kept = Find(assume_cache_kept_pvs, name);
    return kept != nullptr ? kept : Find(persistent_volumes, name);
  }
  const k8s::PersistentVolumeClaim* AssumeCacheClaim(std::string_view key) const {
    const k8s::PersistentVolumeClaim* kept = Find(assume_cache_kept_claims, key);
    return kept != nullptr ? kept : Find(persistent_volume_claims, key);
  }

  // Null when the namespace object is unknown.
  const Labels* NamespaceLabels(std::string_view name) const {
    auto it = namespaces.find(name);
    return it == namespaces.end() ? nullptr : &it->second.metadata().labels();
  }
};

// The pods nominated to a node (the queue's nominator), for filtering with nominated pods and
// for preemption.
class PodNominator {
 public:
  virtual ~PodNominator() = default;
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const = 0;
  // False when no pod is nominated anywhere: filtering then skips the per-node lookup.
  virtual bool HasNominatedPods() const { return true; }
  // Appends the names of the nodes that have nominated pods and returns true; false when this
  // nominator cannot list them (filtering then asks node by node).
  virtual bool ListNominatedNodes([[maybe_unused]] std::vector<std::string>* names) const {
    return false;
  }
};

// The informer's latest version of a pod (upstream's pod lister), for plugins that re-read the
// pod they are running for: DefaultPreemption fetches the preemptor again before it preempts.
class PodLister {
 public:
  virtual ~PodLister() = default;
  // The pod "namespace/name" as the scheduler's informer holds it now; null when it holds none.
  virtual PodPtr Get(const std::string& key) const = 0;
};

// What a plugin may ask of its own framework: preemption's dry runs filter nodes with pods
// removed and re-added. Implemented by runtime::Framework.
class FrameworkRunner {
 public:
  virtual ~FrameworkRunner() = default;
  virtual Status RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                   const NodeInfo& node) const = 0;
  virtual Status RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod,
                                             const PodInfo& to_add, const NodeInfo& node) const = 0;
  virtual Status RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod,
                                                const PodInfo& to_remove,
                                                const NodeInfo& node) const = 0;
};

// The API server as VolumeBinding's PreBind writes to it, with the controllers behind it (the
// replay's volume controllers model, docs/FORMATS.md "Volume controllers"). Null in the Handle:
// there is no API server holding volumes, and PreBind's first write fails as NotFound.
class VolumeApi {
 public:
  virtual ~VolumeApi() = default;
  // The object as the API server stored it (a new resourceVersion), or the API's error (NotFound,
  // Conflict) as its text. Nothing reaches the informers before Settle.
  virtual Result<k8s::PersistentVolume> UpdatePersistentVolume(const k8s::PersistentVolume& pv) = 0;
  virtual Result<k8s::PersistentVolumeClaim> UpdatePersistentVolumeClaim(
      const k8s::PersistentVolumeClaim& claim) = 0;
  // PreBind's wait begins: the writes reach the informers (and the queue), in order. What the PV
  // controller and the provisioner make of them follows at once, write by write, or, when they
  // answer later, that much virtual time later.
  virtual void Settle() = 0;
  // Whether the controllers answer later than Settle (the model's latency, `--volume-latency`).
  // PreBind then polls as upstream does: it returns Wait and is run again every second.
  virtual bool AnswersLater() const = 0;
  // The node as the API server (the scheduler's node lister) holds it now; null when it holds
  // none. checkBindings reads it, not the cycle's snapshot.
  virtual const k8s::Node* GetNode(const std::string& name) const = 0;
};

// The framework's pods waiting on Permit and the queue's Activate, as a Permit plugin reaches
// them (framework.Handle's GetWaitingPod(uid).Allow(plugin) and Activate upstream). The
// scheduler implements it over its waiting binding cycles. Null in the Handle: no pod waits
// (plugin tests, check) and nothing is activated.
class WaitingPods {
 public:
  virtual ~WaitingPods() = default;
  // WaitingPod.Allow(plugin) for the pod `uid` if it waits on Permit: once every plugin it waits
  // for has allowed it, its binding cycle goes on at once. False when no pod `uid` waits.
  virtual bool Allow(const std::string& uid, std::string_view plugin) = 0;
  // Handle.Activate: each pod that waits in the queue's unschedulable pool or backoffQ moves to
  // activeQ now.
  virtual void Activate(const std::vector<PodPtr>& pods) = 0;
};

// The API server as DynamicResources writes ResourceClaims to it (PreBind's allocation and
// reservation, Unreserve's removal of a reservation, PostFilter's deallocation). Implemented by the
// Scheduler: the claim is stored at once (upstream's assume cache takes the written object) and
// its informer event reaches the queue later, as the kube adapter's fake API server delivers it
// (after PreBind, before the pod's binding; after the failure handling).
class DraApi {
 public:
  virtual ~DraApi() = default;
  // The claim as stored (the status written, the rest as the API server has it), or the API's
  // error text (NotFound).
  virtual Result<k8s::ResourceClaim> UpdateResourceClaimStatus(const k8s::ResourceClaim& claim) = 0;
};

struct Handle {
  // REQUIRES: `features` is the run's (FeaturesFor): there is no default level.
  explicit Handle(const Features& run_features) : features(run_features) {}

  // Set by whoever creates the Framework, right after creating it.
  const FrameworkRunner* framework = nullptr;
  const Snapshot* snapshot = nullptr;
  const PodNominator* nominator = nullptr;  // null: no nominated pods
  const ClusterObjects* objects = nullptr;
  const PodLister* pods = nullptr;  // null: the pod a plugin runs for is the latest (tests, check)
  // What the run's level and feature gates switch on (upstream hands its feature.Features to
  // every plugin factory): plugins branch on these, never on the level.
  Features features;
  // Virtual time (replay) and the wall-clock instant its zero stands for, so plugins can compare
  // object timestamps with "now". Null clock: time is not available (plugin tests, check).
  const Clock* clock = nullptr;
  int64_t epoch_unix_ns = 0;
  // v1.37: the UIDs of preemptors whose asynchronous preemption has not finished (upstream's
  // Executor.preempting), which DefaultPreemption's PreEnqueue holds back. Null: not tracked.
  std::set<std::string>* async_preemptions = nullptr;
  // VolumeBinding's PreBind writes (null: no API server for volumes, the writes fail).
  VolumeApi* volume_api = nullptr;
  // GenericWorkload: the cache's pod groups (null: none known) and the waiting pods.
  const PodGroupStates* pod_groups = nullptr;
  WaitingPods* waiting_pods = nullptr;
  // DynamicResources' claim writes (null: no API server for claims, the writes fail).
  DraApi* dra_api = nullptr;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_HANDLE_H_
