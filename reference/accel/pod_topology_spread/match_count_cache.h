// Matching-pod counts per node remembered across cycles. PreFilter and PreScore count, on every
// node, the pods a constraint's selector matches (countPodsMatchSelector): all pods of the
// cluster per cycle. A NodeInfo takes a new, globally unique generation whenever its node or pods
// change, so a count recorded with the generation it was computed at is still right while the
// generation is the same; then only the nodes that changed since the last cycle are recounted.
// The counts are those upstream recomputes; only the work is saved.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_MATCH_COUNT_CACHE_H_
#define SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_MATCH_COUNT_CACHE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/accel/node_memo.h"
#include "reference/accel/pod_topology_spread/fast_constraint.h"
#include "reference/framework/node_info.h"
#include "reference/plugins/pod_topology_spread/common.h"

namespace schedcheck::reference::pod_topology_spread::fast {

class MatchCountCache {
 public:
  // The counts of one (selector, namespace) pair, by node name rank.
  class Counts {
   public:
    // CountPodsMatchSelector(info.pods(), constraint, ns) for the (selector, namespace) pair
    // this table belongs to.
    int Count(const NodeInfo& info, const FastConstraint& constraint, LabelId ns);

   private:
    struct Entry {
      int64_t generation = -1;  // none yet
      int count = 0;
    };
    std::vector<Entry> by_rank_;
  };

  // The table for the constraint's selector in namespace `ns`; the caller's reference keeps it
  // alive while other tables come and go.
  std::shared_ptr<Counts> For(const FastConstraint& constraint, LabelId ns);
  // The tables of every constraint's selector in namespace `ns`, in constraint order.
  std::vector<std::shared_ptr<Counts>> ForConstraints(
      const std::vector<FastConstraint>& constraints, LabelId ns);

 private:
  // A handful of distinct selectors in a workload; beyond this many, start afresh.
  static constexpr size_t kMaxTables = 32;
  std::map<std::string, std::shared_ptr<Counts>> tables_;
};

// The value of a node label per node (kNoLabel when absent), remembered by NodeInfo generation
// (node_memo.h): reading it from the Node object costs a cache miss per node in every cycle.
class NodeLabelMemo {
 public:
  // node->label_ids.Get(key). REQUIRES: info.node() != nullptr.
  LabelId Value(const NodeInfo& info, LabelId key);

 private:
  // A handful of topology keys in a workload; beyond this many, start afresh.
  static constexpr size_t kMaxKeys = 16;
  std::vector<std::pair<LabelId, NodeMemo<bool, LabelId>>> by_key_;
};

// A text that identifies what a selector matches: its matchLabels in key order and its
// matchExpressions in order, with the Empty/nothing flags.
std::string SelectorCacheKey(const SpreadSelector& selector, LabelId ns);

}  // namespace schedcheck::reference::pod_topology_spread::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_MATCH_COUNT_CACHE_H_
