// NodeInfo: a node with the aggregates kube-scheduler keeps for it (framework/types.go): its
// pods (assumed ones included), requested and non-zero requested resources, used host ports,
// image states and the pods carrying (anti-)affinity.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_NODE_INFO_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_NODE_INFO_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/api/objects.h"
#include "reference/framework/pod_info.h"

namespace schedcheck::reference {

// hostIP -> set of (protocol, port); HostPortInfo upstream. "" IP means 0.0.0.0, "" protocol TCP.
// A set, not a count, as upstream's (map[ProtocolPort]struct{}, at v1.27.8 and v1.37.2): when two
// pods of a node use one host port, removing either frees it, and the port stays free until a
// pod using it is added again (an update of the other pod does that: remove, then add).
class HostPortInfo {
 public:
  // Ports <= 0 are ignored (they do not claim a host port).
  void Add(const HostPort& port);
  // Removes the (protocol, port) whichever pods added it.
  void Remove(const HostPort& port);
  // True when `port` collides: a wildcard IP collides with the same (protocol, port) on any IP;
  // a specific IP collides with itself and with the wildcard.
  bool CheckConflict(const HostPort& port) const;
  size_t size() const;
  bool empty() const { return ports_.empty(); }
  bool operator==(const HostPortInfo&) const = default;

 private:
  std::map<std::string, std::set<std::pair<std::string, int32_t>>> ports_;
};

struct ImageStateSummary {
  int64_t size = 0;
  int num_nodes = 0;  // nodes that have this image (as of when this node was last set)
};

// Generation counter shared by all NodeInfos so the cache can tell what changed.
int64_t NextGeneration();

class NodeInfo {
 public:
  NodeInfo() = default;
  explicit NodeInfo(NodePtr node) { SetNode(std::move(node)); }

  // Null for a "ghost" NodeInfo holding pods of a node the cache has not seen.
  const Node* node() const { return node_.get(); }
  const NodePtr& node_ptr() const { return node_; }
  // Read for every node by every plugin: copies kept here, so reading them does not chase
  // pointers through the Node object and its protobuf message (cache misses at 5,000 nodes).
  const std::string& name() const { return name_; }
  void SetNode(NodePtr node);
  void RemoveNode() {
    node_ = nullptr;
    name_.clear();
    allocatable_ = Resource();
    unschedulable_ = false;
    has_taints_ = false;
    generation_ = NextGeneration();
  }
  // spec.unschedulable and whether spec.taints is non-empty, kept here for the filters and
  // scores that read them for every node (most nodes have neither).
  bool unschedulable() const { return unschedulable_; }
  bool has_taints() const { return has_taints_; }

  const std::vector<PodInfoPtr>& pods() const { return pods_; }
  const std::vector<PodInfoPtr>& pods_with_affinity() const { return pods_with_affinity_; }
  const std::vector<PodInfoPtr>& pods_with_required_anti_affinity() const {
    return pods_with_required_anti_affinity_;
  }
  const Resource& allocatable() const { return allocatable_; }
  const Resource& requested() const { return requested_; }
  // The lowest priority among the node's pods (INT32_MAX without pods): preemption asks, for
  // every node, whether any pod there has a lower priority than the preemptor.
  int32_t lowest_pod_priority() const { return lowest_pod_priority_; }
  // Only cpu and memory are tracked, with the per-container defaults of
  // docs/SEMANTICS.md#resource-accounting.
  const Resource& non_zero_requested() const { return non_zero_requested_; }
  const HostPortInfo& used_ports() const { return used_ports_; }
  std::map<std::string, ImageStateSummary>& image_states() { return image_states_; }
  const std::map<std::string, ImageStateSummary>& image_states() const { return image_states_; }
  int64_t generation() const { return generation_; }

  void AddPod(PodInfoPtr pod);
  // Removes the pod with the same uid; the last pod takes its place (upstream's order quirk).
  // Returns false when the pod is not on this node.
  bool RemovePod(const Pod& pod);
  bool HasPod(const std::string& uid) const;

  std::unique_ptr<NodeInfo> Clone() const { return std::make_unique<NodeInfo>(*this); }

  // The node's position in name order among the nodes of the snapshot that last ordered it
  // (Snapshot::Reset), so tie sets can be sorted by name without comparing strings. Copies keep
  // it, and a node keeps its name, so it stays valid until nodes are added or removed.
  uint32_t name_rank() const { return name_rank_; }
  void set_name_rank(uint32_t rank) const { name_rank_ = rank; }

 private:
  void UpdateAggregates(const Pod& pod, int sign);

  // Fields read for every node in the filter and score loops first (PrefetchNodeInfo fetches
  // the first cache lines), the rest after.
  // The first cache line: what every filter and score asks of every node, and the rank the
  // host selection reads for each top-scoring node.
  std::string name_;
  NodePtr node_;  // every plugin asks whether the node exists
  mutable uint32_t name_rank_ = 0;
  bool unschedulable_ = false;
  bool has_taints_ = false;
  int64_t generation_ = 0;  // read per node by the memos of node_memo.h
  Resource allocatable_;
  Resource requested_;
  Resource non_zero_requested_;
  std::vector<PodInfoPtr> pods_;
  std::map<std::string, ImageStateSummary> image_states_;
  HostPortInfo used_ports_;
  std::vector<PodInfoPtr> pods_with_affinity_;
  std::vector<PodInfoPtr> pods_with_required_anti_affinity_;
  int32_t lowest_pod_priority_ = INT32_MAX;
};

// How many nodes ahead the batch loops prefetch: enough to cover a miss to L3 or memory while
// the nodes in between are processed.
inline constexpr size_t kPrefetchAhead = 4;

// The first cache line only (name, node, rank, flags, generation): for loops that read no more.
inline void PrefetchNodeInfoHead(const NodeInfo* info) { __builtin_prefetch(info); }

// Asks the CPU to fetch the start of a NodeInfo (its most-read fields) ahead of use: the filter
// and score loops walk thousands of NodeInfos scattered over the heap.
inline void PrefetchNodeInfo(const NodeInfo* info) {
  const char* p = reinterpret_cast<const char*>(info);
  for (size_t offset = 0; offset < 384; offset += 64) __builtin_prefetch(p + offset);
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_NODE_INFO_H_
