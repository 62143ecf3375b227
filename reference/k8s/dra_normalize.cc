#include "reference/k8s/dra_normalize.h"

#include <sstream>
#include <string>

namespace schedcheck::k8s {
namespace {

nlohmann::json* Member(nlohmann::json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  auto it = obj->find(key);
  return it == obj->end() ? nullptr : &*it;
}

// A number where a quantity or label value belongs becomes its text ("8", "0.5").
void Stringify(nlohmann::json* value) {
  if (value == nullptr) return;
  if (value->is_number_integer()) {
    *value = std::to_string(value->get<int64_t>());
  } else if (value->is_number_float()) {
    std::ostringstream os;
    os << value->get<double>();
    *value = os.str();
  }
}

// Every value of a map (a ResourceList-like quantity map, or labels).
void StringifyValues(nlohmann::json* map) {
  if (map == nullptr || !map->is_object()) return;
  for (auto& [key, value] : map->items()) {
    if (value.is_boolean()) {
      value = value.dump();
    } else {
      Stringify(&value);
    }
  }
}

template <typename F>
void ForEach(nlohmann::json* list, F f) {
  if (list == nullptr || !list->is_array()) return;
  for (auto& item : *list) f(&item);
}

void NormalizeMeta(nlohmann::json* meta) {
  StringifyValues(Member(meta, "labels"));
  StringifyValues(Member(meta, "annotations"));
}

// counters: name -> {value: quantity}.
void NormalizeCounters(nlohmann::json* counters) {
  if (counters == nullptr || !counters->is_object()) return;
  for (auto& [name, counter] : counters->items()) Stringify(Member(&counter, "value"));
}

void NormalizeRequestCapacity(nlohmann::json* request) {
  StringifyValues(Member(Member(request, "capacity"), "requests"));
}

void NormalizeClaimSpec(nlohmann::json* spec) {
  ForEach(Member(Member(spec, "devices"), "requests"), [](nlohmann::json* request) {
    NormalizeRequestCapacity(Member(request, "exactly"));
    ForEach(Member(request, "firstAvailable"), NormalizeRequestCapacity);
  });
}

void NormalizeDevice(nlohmann::json* device) {
  if (nlohmann::json* capacity = Member(device, "capacity"); capacity && capacity->is_object()) {
    for (auto& [name, entry] : capacity->items()) {
      Stringify(Member(&entry, "value"));
      nlohmann::json* policy = Member(&entry, "requestPolicy");
      Stringify(Member(policy, "default"));
      ForEach(Member(policy, "validValues"), Stringify);
      nlohmann::json* range = Member(policy, "validRange");
      for (const char* key : {"min", "max", "step"}) Stringify(Member(range, key));
    }
  }
  ForEach(Member(device, "consumesCounters"),
          [](nlohmann::json* c) { NormalizeCounters(Member(c, "counters")); });
}

}  // namespace

void NormalizeDraMetadataOnly(nlohmann::json& object) {
  NormalizeMeta(Member(&object, "metadata"));
}

void NormalizeResourceClaim(nlohmann::json& claim) {
  NormalizeMeta(Member(&claim, "metadata"));
  NormalizeClaimSpec(Member(&claim, "spec"));
  nlohmann::json* allocation = Member(Member(&claim, "status"), "allocation");
  ForEach(Member(Member(allocation, "devices"), "results"),
          [](nlohmann::json* r) { StringifyValues(Member(r, "consumedCapacity")); });
}

void NormalizeResourceClaimTemplate(nlohmann::json& claim_template) {
  NormalizeMeta(Member(&claim_template, "metadata"));
  nlohmann::json* spec = Member(&claim_template, "spec");
  NormalizeMeta(Member(spec, "metadata"));
  NormalizeClaimSpec(Member(spec, "spec"));
}

void NormalizeResourceSlice(nlohmann::json& slice) {
  NormalizeMeta(Member(&slice, "metadata"));
  nlohmann::json* spec = Member(&slice, "spec");
  ForEach(Member(spec, "devices"), NormalizeDevice);
  ForEach(Member(spec, "sharedCounters"),
          [](nlohmann::json* set) { NormalizeCounters(Member(set, "counters")); });
}

}  // namespace schedcheck::k8s
