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

// validateDeviceCounterConsumption: every counter a device consumes is in a counter set of the
// pool.
std::string CheckCounterConsumption(const Pool& pool,
                                    const std::vector<const k8s::ResourceSlice*>& slices) {
  for (const k8s::ResourceSlice* slice : slices) {
    for (const k8s::Device& device : slice->spec().devices()) {
      for (const k8s::DeviceCounterConsumption& consumption : device.consumes_counters()) {
        auto set = pool.counter_sets.find(consumption.counter_set());
        if (set == pool.counter_sets.end()) {
          return "counter set " + consumption.counter_set() + " not found";
        }
        // Go ranges over a map: with several missing counters it names any one; this names the
        // first by name.
        for (const auto& [name, counter] : consumption.counters()) {
          if (set->second->counters().count(name) == 0) {
            return "counter " + name + " not found in counter set " + set->first;
          }
        }
      }
    }
  }
  return "";
}

// buildPool: the slices sorted by name and split into device slices and slices with shared
// counters (`all_slices_for_pool`, when the node's slices were not all of the generation, adds the
// others); invalid on a duplicate device name among the node's device slices, a duplicate counter
// set, or a counter consumed but not published.
Pool BuildPool(const PoolId& id, std::vector<const k8s::ResourceSlice*> slices,
               const std::vector<const k8s::ResourceSlice*>& all_slices_for_pool) {
  auto by_name = [](const auto* a, const auto* b) {
    return a->metadata().name() < b->metadata().name();
  };
  std::stable_sort(slices.begin(), slices.end(), by_name);
  Pool pool;
  pool.id = id;
  std::vector<const k8s::ResourceSlice*> counter_slices;
  std::set<std::string> targeting;
  for (const k8s::ResourceSlice* slice : slices) {
    targeting.insert(slice->metadata().name());
    if (slice->spec().shared_counters_size() > 0) {
      counter_slices.push_back(slice);
    } else {
      pool.device_slices_targeting_node.push_back(slice);
    }
  }
  if (slices.size() < all_slices_for_pool.size()) {
    for (const k8s::ResourceSlice* slice : all_slices_for_pool) {
      if (targeting.count(slice->metadata().name()) > 0) continue;
      if (slice->spec().shared_counters_size() > 0) {
        counter_slices.push_back(slice);
      } else {
        pool.device_slices_not_targeting_node.push_back(slice);
      }
    }
  }
  auto invalid = [&id](std::string reason) {
    Pool bad;
    bad.id = id;
    bad.is_invalid = true;
    bad.invalid_reason = std::move(reason);
    return bad;
  };
  std::set<std::string> names;
  for (const k8s::ResourceSlice* slice : pool.device_slices_targeting_node) {
    for (const k8s::Device& device : slice->spec().devices()) {
      if (!names.insert(device.name()).second) {
        return invalid("duplicate device name " + device.name());
      }
    }
  }
  for (const k8s::ResourceSlice* slice : counter_slices) {
    for (const k8s::CounterSet& set : slice->spec().shared_counters()) {
      if (!pool.counter_sets.emplace(set.name(), &set).second) {
        return invalid("duplicate counter set name " + set.name());
      }
    }
  }
  for (const auto* group :
       {&pool.device_slices_targeting_node, &pool.device_slices_not_targeting_node}) {
    if (std::string reason = CheckCounterConsumption(pool, *group); !reason.empty()) {
      return invalid(std::move(reason));
    }
  }
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
      result.push_back(BuildPool(id, slices, {}));
      continue;
    }
    // checkSlicesInPool: the pool's slices of this generation anywhere in the cluster; a newer
    // generation anywhere makes these slices obsolete.
    bool obsolete = false;
    std::vector<const k8s::ResourceSlice*> in_generation;
    for (const k8s::ResourceSlice* other : all_slices) {
      if (PoolOf(*other) != id) continue;
      if (other->spec().pool().generation() == first.generation()) in_generation.push_back(other);
      if (other->spec().pool().generation() > first.generation()) obsolete = true;
    }
    if (obsolete) continue;
    if (static_cast<int64_t>(in_generation.size()) != first.resource_slice_count()) {
      Pool incomplete;
      incomplete.id = id;
      incomplete.is_incomplete = true;
      result.push_back(std::move(incomplete));
      continue;
    }
    result.push_back(BuildPool(id, slices, in_generation));
  }
  return result;
}

}  // namespace schedcheck::reference::dra
