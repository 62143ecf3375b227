// Matching-pod sums per topology domain, kept across cycles. PreFilter (and PreScore) add up,
// over every eligible node, the pods the constraints' selectors match, per (topology key, domain):
// thousands of nodes per cycle, while a cycle usually changes one or two of them (the pod just
// bound). The sums are kept per cycle key (everything a node's contribution depends on besides
// the node: selectors, namespace, keys, inclusion policies) and brought up to date from the
// snapshot's change log: the replaced nodes' old contributions are taken out and their new ones
// put in (the same arithmetic as upstream's AddPod/RemovePod extensions, node by node). The sums
// are those a full pass computes; only the work is saved.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_DOMAIN_COUNTS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_DOMAIN_COUNTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "reference/accel/base/id_map.h"
#include "reference/accel/pod_topology_spread/fast_constraint.h"
#include "reference/api/label_ids.h"
#include "reference/framework/snapshot.h"

namespace schedcheck::reference::pod_topology_spread::fast {

// A node's part in one topology key's sums: its domain (kNoLabel: the node does not count for
// the key) and the pods on it that the key's constraints match.
struct NodeContribution {
  LabelId value = kNoLabel;
  int count = 0;
};

class DomainCounts {
 public:
  // Fills a node's contributions, one per key, in key order. REQUIRES: info.node() != nullptr.
  using Contribute = std::function<void(const NodeInfo& info, std::span<NodeContribution> out)>;

  // Brings the sums up to date with `snapshot` for `num_keys` keys: the nodes replaced since the
  // last call are redone, or every node when the snapshot, its epoch or the key count changed.
  void Sync(const Snapshot& snapshot, size_t num_keys, const Contribute& contribute);
  // The sums of key `k`: domain -> matching pods, for every domain with at least one counting
  // node (a domain whose nodes match no pod is there with 0).
  void Export(size_t k, IdMap<int>* out) const;
  // The matching pods of domain `value` of key `k` (0 for a domain without counting nodes).
  int Matches(size_t k, LabelId value) const;

 private:
  struct Sum {
    int nodes = 0;    // counting nodes in the domain
    int matches = 0;  // their matching pods
  };
  void Apply(const NodeInfo& info, size_t position, const Contribute& contribute);
  void Withdraw(size_t position);

  Snapshot::Version synced_;
  size_t num_keys_ = 0;
  std::vector<NodeContribution> by_position_;  // num_keys_ entries per snapshot position
  std::vector<IdMap<Sum>> sums_;               // per key: domain -> Sum
};

// What a node's part in the sums depends on besides the node itself, for `constraints` of `pod`:
// per constraint its selector and namespace, topology key and inclusion policies; the pod's
// nodeSelector and required node affinity when a constraint honors node affinity; its
// tolerations when one honors taints. Callers prefix what else their parts depend on.
std::string DomainCountsKey(const Pod& pod, const std::vector<FastConstraint>& constraints);

// DomainCounts per cycle key, a handful in a workload.
class DomainCountCache {
 public:
  DomainCounts& For(const std::string& cycle_key);

 private:
  static constexpr size_t kMaxTables = 16;  // beyond this many keys, start afresh
  std::map<std::string, std::unique_ptr<DomainCounts>> tables_;
};

}  // namespace schedcheck::reference::pod_topology_spread::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_DOMAIN_COUNTS_H_
