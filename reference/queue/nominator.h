// The nominator embedded in the scheduling queue (v1.27 internal/queue/scheduling_queue.go
// nominator, docs/SEMANTICS.md#nominated-pods): which pending pods are nominated to which node, in
// nomination order per node.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_NOMINATOR_H_
#define SCHEDCHECK_REFERENCE_QUEUE_NOMINATOR_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/pod_info.h"

namespace schedcheck::reference {

class Nominator final : public PodNominator {
 public:
  // Upstream consults the pod informer before nominating: a pod that no longer exists or is
  // already bound is not nominated. `current_pod` returns the informer's current copy of a pod
  // by "namespace/name" (null = gone); unset = no such check.
  using PodLookup = std::function<PodPtr(const std::string& key)>;
  explicit Nominator(PodLookup current_pod = nullptr) : current_pod_(std::move(current_pod)) {}

  // Noop (or nullopt): nominate to pod.status.nominatedNodeName when set. Override: nominate to
  // the given node, "" included (which parks the pod under the "" key). Any previous nomination
  // of the same UID is removed first.
  void AddNominatedPod(PodInfoPtr info, const std::optional<NominatingInfo>& nominating);
  void DeleteNominatedPodIfExists(const Pod& pod);
  // Keeps an in-memory nomination when neither the old nor the new object names a node.
  void UpdateNominatedPod(const Pod& old_pod, PodInfoPtr new_info);

  std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const override;
  bool HasNominatedPods() const override { return !nominated_pods_.empty(); }
  bool ListNominatedNodes(std::vector<std::string>* names) const override;
  // The node a pod (by UID) is nominated to, if any.
  std::optional<std::string> NominatedNodeFor(const std::string& uid) const;

 private:
  void Delete(const std::string& uid);

  PodLookup current_pod_;
  std::map<std::string, std::vector<PodInfoPtr>> nominated_pods_;  // node -> pods
  std::map<std::string, std::string> pod_to_node_;                 // uid -> node
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_NOMINATOR_H_
