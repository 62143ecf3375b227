#include "reference/dra/pools.h"

#include <algorithm>
#include <map>
#include <set>

#include "reference/api/selectors.h"

namespace schedcheck::reference::dra {

bool NodeMatches(const k8s::Node& node, std::string_view node_name, bool all_nodes,
                 const k8s::NodeSelector* node_selector) {
  if (!node_name.empty()) return node.metadata().name() == node_name;
  if (all_nodes) return true;
  if (node_selector != nullptr) return NodeSelectorMatches(*node_selector, node);
  return false;
}

namespace {

PoolId PoolOf(const k8s::ResourceSlice& slice) {
  return PoolId{slice.spec().driver(), slice.spec().pool().name()};
}

bool SliceTargetsNode(const k8s::ResourceSlice& slice, const k8s::Node& node) {
  const k8s::ResourceSliceSpec& spec = slice.spec();
  if (!spec.node_name().empty() || spec.all_nodes() || spec.has_node_selector()) {
    return NodeMatches(node, spec.node_name(), spec.all_nodes(),
                       spec.has_node_selector() ? &spec.node_selector() : nullptr);
  }
  if (!spec.per_device_node_selection()) return false;
  for (const k8s::Device& device : spec.devices()) {
    if (NodeMatches(node, device.node_name(), device.all_nodes(),
                    device.has_node_selector() ? &device.node_selector() : nullptr)) {
      return true;
    }
  }
  return false;
}

// addSlice: a slice of an older generation than the pool's slices so far is ignored, one of a
// newer generation replaces them.
void AddSlice(std::map<PoolId, std::vector<const k8s::ResourceSlice*>>& pools,
              const k8s::ResourceSlice* slice) {
  std::vector<const k8s::ResourceSlice*>& slices = pools[PoolOf(*slice)];
  if (slices.empty()) {
    slices.push_back(slice);
    return;
  }
  const int64_t generation = slices.front()->spec().pool().generation();
  if (slice->spec().pool().generation() < generation) return;
  if (slice->spec().pool().generation() > generation) slices.clear();
  slices.push_back(slice);
}

// buildPool without shared counters: the slices sorted by name, invalid on a duplicate device name.
Pool BuildPool(const PoolId& id, std::vector<const k8s::ResourceSlice*> slices) {
  std::stable_sort(slices.begin(), slices.end(), [](const auto* a, const auto* b) {
    return a->metadata().name() < b->metadata().name();
  });
  Pool pool;
  pool.id = id;
  std::set<std::string> names;
  for (const k8s::ResourceSlice* slice : slices) {
    for (const k8s::Device& device : slice->spec().devices()) {
      if (!names.insert(device.name()).second) {
        pool.is_invalid = true;
        pool.invalid_reason = "duplicate device name " + device.name();
        return pool;
      }
    }
  }
  pool.device_slices_targeting_node = std::move(slices);
  return pool;
}

}  // namespace

std::vector<Pool> GatherPools(const std::vector<const k8s::ResourceSlice*>& slices_for_node,
                              const k8s::Node& node,
                              const std::vector<const k8s::ResourceSlice*>& all_slices) {
  std::map<PoolId, std::vector<const k8s::ResourceSlice*>> pools;
  for (const k8s::ResourceSlice* slice : slices_for_node) {
    if (SliceTargetsNode(*slice, node)) AddSlice(pools, slice);
  }
  // The map's order is sortPoolsByID's: driver, then pool name.
  std::vector<Pool> result;
  for (const auto& [id, slices] : pools) {
    const k8s::ResourcePool& first = slices.front()->spec().pool();
    if (static_cast<int64_t>(slices.size()) == first.resource_slice_count()) {
      result.push_back(BuildPool(id, slices));
      continue;
    }
    // checkSlicesInPool: the pool's slices of this generation anywhere in the cluster; a newer
    // generation anywhere makes these slices obsolete.
    bool obsolete = false;
    int64_t in_generation = 0;
    for (const k8s::ResourceSlice* other : all_slices) {
      if (PoolOf(*other) != id) continue;
      if (other->spec().pool().generation() == first.generation()) ++in_generation;
      if (other->spec().pool().generation() > first.generation()) obsolete = true;
    }
    if (obsolete) continue;
    if (in_generation != first.resource_slice_count()) {
      Pool incomplete;
      incomplete.id = id;
      incomplete.is_incomplete = true;
      result.push_back(std::move(incomplete));
      continue;
    }
    result.push_back(BuildPool(id, slices));
  }
  return result;
}

}  // namespace schedcheck::reference::dra
