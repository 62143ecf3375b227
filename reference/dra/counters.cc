#include "reference/dra/counters.h"

#include <vector>

#include "reference/dra/nanos.h"

namespace schedcheck::reference::dra {

namespace {

Result<__int128> Nanos(const std::string& text) { return ParseNanos(text); }

// internal.IsDeviceAllocated: allocated to one claim, or as a share.
bool IsDeviceAllocated(const DeviceId& id, const AllocatedState& allocated) {
  return allocated.allocated_devices.count(id) > 0 ||
         allocated.allocated_shared_devices.count(id) > 0 ||
         allocated.aggregated_capacity.count(id) > 0;
}

}  // namespace

Result<const CounterTracker::CounterSets*> CounterTracker::Available(const Pool& pool) {
  auto cached = available_.find(pool.id);
  if (cached != available_.end()) return &cached->second;
  CounterSets available;
  for (const auto& [name, set] : pool.counter_sets) {
    std::map<std::string, __int128>& counters = available[name];
    for (const auto& [counter, value] : set->counters()) {
      Result<__int128> nanos = Nanos(value.value());
      if (!nanos.ok()) return nanos.error();
      counters[counter] = *nanos;
    }
  }
  // Devices allocated before this call consume their counters (possibly below zero, which leaves
  // nothing available).
  for (const auto* group :
       {&pool.device_slices_targeting_node, &pool.device_slices_not_targeting_node}) {
    for (const k8s::ResourceSlice* slice : *group) {
      for (const k8s::Device& device : slice->spec().devices()) {
        const DeviceId id{slice->spec().driver(), slice->spec().pool().name(), device.name()};
        if (!IsDeviceAllocated(id, allocated_)) continue;
        for (const k8s::DeviceCounterConsumption& consumption : device.consumes_counters()) {
          std::map<std::string, __int128>& counters = available[consumption.counter_set()];
          for (const auto& [counter, value] : consumption.counters()) {
            auto it = counters.find(counter);
            if (it == counters.end()) continue;
            Result<__int128> nanos = Nanos(value.value());
            if (!nanos.ok()) return nanos.error();
            it->second -= *nanos;
          }
        }
      }
    }
  }
  return &available_.emplace(pool.id, std::move(available)).first->second;
}

Result<bool> CounterTracker::Reserve(const Pool& pool, const k8s::Device& device) {
  Result<const CounterSets*> available = Available(pool);
  if (!available.ok()) return available.error();
  // Parse first, so a bad quantity leaves nothing half-added.
  std::vector<std::pair<std::pair<std::string, std::string>, __int128>> adds;
  for (const k8s::DeviceCounterConsumption& consumption : device.consumes_counters()) {
    for (const auto& [counter, value] : consumption.counters()) {
      Result<__int128> nanos = Nanos(value.value());
      if (!nanos.ok()) return nanos.error();
      adds.push_back({{consumption.counter_set(), counter}, *nanos});
    }
  }
  CounterSets& consumed = consumed_[pool.id];
  for (const auto& [key, nanos] : adds) consumed[key.first][key.second] += nanos;
  for (const auto& [set, counters] : **available) {
    auto used_set = consumed.find(set);
    for (const auto& [counter, left] : counters) {
      __int128 used = 0;
      if (used_set != consumed.end()) {
        auto it = used_set->second.find(counter);
        if (it != used_set->second.end()) used = it->second;
      }
      if (left < used) {
        Release(pool, device);
        return false;
      }
    }
  }
  return true;
}

void CounterTracker::Release(const Pool& pool, const k8s::Device& device) {
  CounterSets& consumed = consumed_[pool.id];
  for (const k8s::DeviceCounterConsumption& consumption : device.consumes_counters()) {
    for (const auto& [counter, value] : consumption.counters()) {
      // Reserve parsed every value of the device before adding any.
      consumed[consumption.counter_set()][counter] -= *Nanos(value.value());
    }
  }
}

std::string InvalidSliceQuantity(const k8s::ResourceSlice& slice) {
  auto check = [](const std::string& at, const std::string& text) -> std::string {
    Result<__int128> nanos = Nanos(text);
    return nanos.ok() ? "" : at + ": " + nanos.message();
  };
  const auto& sets = slice.spec().shared_counters();
  for (int i = 0; i < sets.size(); ++i) {
    for (const auto& [name, counter] : sets[i].counters()) {
      std::string bad =
          check("spec.sharedCounters[" + std::to_string(i) + "].counters[" + name + "].value",
                counter.value());
      if (!bad.empty()) return bad;
    }
  }
  const auto& devices = slice.spec().devices();
  for (int d = 0; d < devices.size(); ++d) {
    const std::string at = "spec.devices[" + std::to_string(d) + "]";
    const auto& consumptions = devices[d].consumes_counters();
    for (int c = 0; c < consumptions.size(); ++c) {
      for (const auto& [name, counter] : consumptions[c].counters()) {
        std::string bad =
            check(at + ".consumesCounters[" + std::to_string(c) + "].counters[" + name + "].value",
                  counter.value());
        if (!bad.empty()) return bad;
      }
    }
    for (const auto& [name, capacity] : devices[d].capacity()) {
      std::string bad = check(at + ".capacity[" + name + "].value", capacity.value());
      if (!bad.empty()) return bad;
    }
  }
  return "";
}

}  // namespace schedcheck::reference::dra
