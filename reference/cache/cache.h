// Cache: the scheduler's own view of nodes and pods, including pods it has assumed onto nodes
// before their binding is confirmed (internal/cache/cache.go). Single-threaded; the replay and
// the check runner drive it in a deterministic order.
#ifndef SCHEDCHECK_REFERENCE_CACHE_CACHE_H_
#define SCHEDCHECK_REFERENCE_CACHE_CACHE_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/cache/node_tree.h"
#include "reference/framework/node_info.h"
#include "reference/framework/pod_group_state.h"
#include "reference/framework/snapshot.h"

namespace schedcheck::reference {

class Cache {
 public:
  // With snapshot_refreshes_image_counts (v1.37), each image's nodes are counted when a changed
  // node is copied into the snapshot (ImageStateSummary.Snapshot: Nodes.Len()); else (v1.27)
  // when the node was added or updated.
  explicit Cache(const Features& features)
      : refreshes_image_counts_(features.snapshot_refreshes_image_counts) {}

  // Nodes. Errors for a duplicate add or an unknown node.
  Outcome AddNode(NodePtr node);
  Outcome UpdateNode(NodePtr node);
  // Pods still on a removed node keep a node-less ("ghost") NodeInfo, outside the snapshot.
  Outcome RemoveNode(const std::string& name);

  // Assigned pods from the API (spec.nodeName set). AddPod confirms an assumed pod (moving it
  // if the API placed it elsewhere).
  Outcome AddPod(PodPtr pod);
  Outcome UpdatePod(PodPtr new_pod);
  Outcome RemovePod(const Pod& pod);

  // The scheduler's optimistic placement: REQUIRES pod->node_name() set.
  Outcome AssumePod(PodPtr pod);
  Outcome FinishBinding(const Pod& pod);
  // Drops an assumed pod (failed reserve, permit or binding).
  Outcome ForgetPod(const Pod& pod);
  bool IsAssumedPod(const std::string& uid) const;
  // The pod as the cache holds it (assumed or confirmed), or null.
  PodPtr GetPod(const std::string& uid) const;

  // Brings `snapshot` up to date: NodeInfos are shared copy-on-write, so this swaps the pointers
  // of the nodes changed since the last call (all of them after nodes were added or removed).
  // REQUIRES: the same snapshot is passed every time.
  void UpdateSnapshot(Snapshot* snapshot);
  const NodeInfo* GetNodeInfo(const std::string& name) const;
  // GenericWorkload: the pod groups (the cache's PodGroupManager). The scheduler's informer
  // handlers add members and PodGroup objects; AssumePod and ForgetPod move members between
  // unscheduled and assumed, as upstream's cache does.
  PodGroupStates& pod_groups() { return pod_groups_; }
  const PodGroupStates& pod_groups() const { return pod_groups_; }
  size_t NodeCount() const { return tree_.size(); }
  std::vector<std::string> NodeNames() const { return tree_.List(); }

 private:
  struct PodState {
    PodPtr pod;
    bool assumed = false;
    bool binding_finished = false;
  };
  struct ImageState {
    int64_t size = 0;
    std::set<std::string> nodes;
  };

  // The NodeInfo to modify, cloned first if a snapshot still shares it.
  NodeInfo& Mutable(const std::string& node_name);
  void AddPodToNode(const PodPtr& pod);
  void RemovePodFromNode(const Pod& pod);
  void AddNodeImageStates(const Node& node, NodeInfo& info);
  void RemoveNodeImageStates(const Node& node);

  std::map<std::string, std::shared_ptr<NodeInfo>> nodes_;
  std::map<std::string, PodState> pods_;  // by uid
  std::map<std::string, ImageState> image_states_;
  NodeTree tree_;
  std::vector<std::string> snapshot_order_;
  bool order_changed_ = true;
  // Nodes changed since the last UpdateSnapshot (upstream tracks this with generations).
  std::set<std::string> dirty_;
  bool refreshes_image_counts_;
  PodGroupStates pod_groups_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_CACHE_CACHE_H_
