// Resource pools as the structured allocator sees them for one node: upstream's GatherPools and
// NodeMatches (k8s.io/dynamic-resource-allocation v0.37.2,
// structured/internal/incubating/pools_incubating.go, the implementation v1.37.2's default gates
// select), with partitionable devices (DRAPartitionableDevices on): slices publishing shared
// counters hold the pool's counter sets.
#ifndef SCHEDCHECK_REFERENCE_DRA_POOLS_H_
#define SCHEDCHECK_REFERENCE_DRA_POOLS_H_

#include <compare>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

// A pool by driver and name (upstream's PoolID).
struct PoolId {
  std::string driver;
  std::string pool;
  auto operator<=>(const PoolId&) const = default;
  std::string String() const { return driver + "/" + pool; }
};

// Upstream's Pool: the slices of the pool's newest generation that target the node, sorted by name;
// or a pool known to be incomplete (some slices of its generation are missing) or invalid
// (duplicate device names, a duplicate counter set, a device consuming a counter set or counter
// the pool does not publish).
struct Pool {
  PoolId id;
  bool is_incomplete = false;
  bool is_invalid = false;
  std::string invalid_reason;
  std::vector<const k8s::ResourceSlice*> device_slices_targeting_node;
  // The generation's other device slices, when some did not target the node (their allocated
  // devices consume the pool's counters too).
  std::vector<const k8s::ResourceSlice*> device_slices_not_targeting_node;
  // The counter sets of the slices with sharedCounters, by name.
  std::map<std::string, const k8s::CounterSet*, std::less<>> counter_sets;
};

// Whether a slice (or a device with per-device node selection) is for `node`: by node name, for
// all nodes, or by a node selector. False when none of the three is set.
bool NodeMatches(const k8s::Node& node, std::string_view node_name, bool all_nodes,
                 const k8s::NodeSelector* node_selector);

// The pools of `slices_for_node` (the slices published for the node by name, and every slice
// without a node name) whose slices target `node`, sorted by driver, then pool name. A pool whose
// slices for the node are fewer than its resourceSliceCount is complete when all of its
// generation's slices exist in `all_slices`, skipped when `all_slices` has a newer generation,
// and incomplete otherwise.
std::vector<Pool> GatherPools(const std::vector<const k8s::ResourceSlice*>& slices_for_node,
                              const k8s::Node& node,
                              const std::vector<const k8s::ResourceSlice*>& all_slices);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_POOLS_H_
