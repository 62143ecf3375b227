// PodInfo: a pod plus its pod (anti-)affinity terms parsed once (framework/types.go PodInfo and
// AffinityTerm). Shared by NodeInfo, the queue and the plugins.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_POD_INFO_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_POD_INFO_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "reference/api/objects.h"
#include "reference/api/selectors.h"

namespace schedcheck::reference {

struct AffinityTerm {
  // Namespaces the term applies to: the term's list, or the pod's own namespace when the list is
  // empty and there is no namespaceSelector.
  std::set<std::string, std::less<>> namespaces;
  // The term's labelSelector; absent (nil) matches nothing.
  bool has_selector = false;
  k8s::LabelSelector selector;
  std::string topology_key;
  // The namespaceSelector; absent = not used. An empty one matches every namespace.
  bool has_namespace_selector = false;
  k8s::LabelSelector namespace_selector;

  // framework/types.go AffinityTerm.Matches: (pod.namespace in namespaces OR namespaceSelector
  // matches the pod's namespace labels) AND labelSelector matches pod labels. `ns_labels` is null
  // when the namespace is unknown.
  bool Matches(const Pod& pod, const Labels* ns_labels) const;
};

struct WeightedAffinityTerm {
  AffinityTerm term;
  int32_t weight = 0;
};

struct PodInfo {
  PodPtr pod;
  std::vector<AffinityTerm> required_affinity_terms;
  std::vector<AffinityTerm> required_anti_affinity_terms;
  std::vector<WeightedAffinityTerm> preferred_affinity_terms;
  std::vector<WeightedAffinityTerm> preferred_anti_affinity_terms;
};
using PodInfoPtr = std::shared_ptr<const PodInfo>;

AffinityTerm MakeAffinityTerm(const Pod& pod, const k8s::PodAffinityTerm& term);
PodInfoPtr MakePodInfo(PodPtr pod);
// PodInfo.Update: `old_info` with `new_pod` when it is the same pod (same UID), keeping the parsed
// affinity terms (immutable fields); else a PodInfo made afresh.
PodInfoPtr UpdatedPodInfo(const PodInfoPtr& old_info, PodPtr new_pod);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_POD_INFO_H_
