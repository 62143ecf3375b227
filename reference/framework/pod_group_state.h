// Pod groups as kube-scheduler's cache tracks them (GenericWorkload): for each PodGroup
// "namespace/name", the PodGroup object when the informer has delivered it and the member pods
// (pods whose spec.schedulingGroup names the group) split into unscheduled, assumed and assigned
// (backend/cache/podgroupstate.go podGroupStateData, and the cache's PodGroupManager around it).
// A group's state exists while it has members or an object, as upstream's.
//
// Who may call: the scheduler keeps it current from its informer handlers, assume and forget;
// plugins (GangScheduling) read it through the Handle. Member pods are kept by UID; every list
// returned is in UID order (upstream ranges over Go maps; the order decides nothing a plugin
// returns, only the order of activations and allows).
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_POD_GROUP_STATE_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_POD_GROUP_STATE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/objects.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// One group (podGroupStateData).
struct PodGroupState {
  std::map<std::string, PodPtr> all_pods;  // by UID: every member the scheduler knows
  std::set<std::string> unscheduled;       // neither assumed nor assigned
  std::map<std::string, PodPtr> assumed;   // reached Reserve, not bound yet
  std::set<std::string> assigned;          // bound (spec.nodeName set)
  std::optional<k8s::PodGroup> pod_group;  // the cached API object

  int AllPodsCount() const { return static_cast<int>(all_pods.size()); }
  // Assumed or assigned.
  int ScheduledPodsCount() const { return static_cast<int>(assumed.size() + assigned.size()); }
  std::vector<PodPtr> UnscheduledPods() const;
  // The assumed pods' UIDs.
  std::vector<std::string> AssumedPods() const;
};

// The pod group's name a pod names in spec.schedulingGroup; empty when it names none.
std::string_view SchedulingGroupName(const Pod& pod);
// fwk.PodGroupKey: "namespace/name".
std::string PodGroupKey(std::string_view ns, std::string_view name);
// The gang policy's minCount; nullopt for a group without a gang policy (Basic).
std::optional<int> GangMinCount(const k8s::PodGroup& group);

// The cache's pod-group bookkeeping (PodGroupManager: PodGroups() and PodGroupStates()).
class PodGroupStates {
 public:
  // Null when the group has no state or no object (the lister's NotFound).
  const k8s::PodGroup* GetPodGroup(std::string_view ns, std::string_view name) const;
  const PodGroupState* GetState(std::string_view ns, std::string_view name) const;

  // The informer's PodGroup events.
  void AddPodGroup(const k8s::PodGroup& group);
  void UpdatePodGroup(const k8s::PodGroup& group) { AddPodGroup(group); }
  void DeletePodGroup(std::string_view ns, std::string_view name);

  // The informer's pod events (AddPodGroupMember, ...); pods without a scheduling group are
  // ignored. An added pod with spec.nodeName counts as assigned.
  void AddPod(const PodPtr& pod);
  // Moves the pod to assigned when it was bound by this update.
  void UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod);
  void DeletePod(const Pod& pod);
  // Assume and forget (the cache's AssumePod / ForgetPod).
  void AssumePod(const PodPtr& pod);
  void ForgetPod(const Pod& pod);

 private:
  PodGroupState* Find(const Pod& pod);
  void EraseIfEmpty(const std::string& key);
  std::map<std::string, PodGroupState, std::less<>> states_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_POD_GROUP_STATE_H_
