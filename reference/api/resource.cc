#include "reference/api/resource.h"

#include <algorithm>
#include <mutex>
#include <set>

#include "reference/base/go_int.h"

namespace schedcheck::reference {

bool IsExtendedResourceName(std::string_view name) {
  if (name.find('/') == std::string_view::npos) return false;
  if (name.find("kubernetes.io/") != std::string_view::npos) return false;
  return name.rfind("requests.", 0) != 0;
}

bool IsScalarResourceName(std::string_view name) {
  if (name.find('/') != std::string_view::npos) {
    return IsExtendedResourceName(name) || name.find("kubernetes.io/") != std::string_view::npos;
  }
  return name.rfind("hugepages-", 0) == 0 || name.rfind("attachable-volumes-", 0) == 0;
}

ResourceName::ResourceName(std::string_view name) {
  // Never freed: a cluster has a handful of scalar resource names. Tests may intern from
  // several threads.
  static std::mutex mu;
  static auto* names = new std::set<std::string, std::less<>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = names->find(name);
  if (it == names->end()) it = names->emplace(name).first;
  text_ = &*it;
}

int64_t Resource::Scalar(std::string_view name) const {
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& e, std::string_view n) { return e.first.str() < n; });
  return it != scalar.end() && it->first.str() == name ? it->second : 0;
}

void Resource::SetScalar(std::string_view name, int64_t value) {
  SetScalar(ResourceName(name), value);
}

void Resource::SetScalar(ResourceName name, int64_t value) {
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& e, const ResourceName& n) { return e.first < n; });
  if (it != scalar.end() && it->first == name) {
    it->second = value;
  } else {
    scalar.insert(it, {name, value});
  }
}

int64_t Resource::Get(std::string_view name) const {
  if (name == kResourceCpu) return milli_cpu;
  if (name == kResourceMemory) return memory;
  if (name == kResourceEphemeralStorage) return ephemeral_storage;
  if (name == kResourcePods) return allowed_pod_number;
  return Scalar(name);
}

void Resource::Set(std::string_view name, int64_t value) {
  if (name == kResourceCpu) {
    milli_cpu = value;
  } else if (name == kResourceMemory) {
    memory = value;
  } else if (name == kResourceEphemeralStorage) {
    ephemeral_storage = value;
  } else if (name == kResourcePods) {
    allowed_pod_number = value;
  } else {
    SetScalar(name, value);
  }
}

// Go's int64 += and -= (GoAdd): sums of huge requests wrap as upstream's do.
void Resource::Add(const Resource& other) {
  milli_cpu = GoAdd(milli_cpu, other.milli_cpu);
  memory = GoAdd(memory, other.memory);
  ephemeral_storage = GoAdd(ephemeral_storage, other.ephemeral_storage);
  allowed_pod_number = GoAdd(allowed_pod_number, other.allowed_pod_number);
  for (const auto& [name, value] : other.scalar) SetScalar(name, GoAdd(Scalar(name), value));
}

void Resource::Subtract(const Resource& other) {
  milli_cpu = GoSub(milli_cpu, other.milli_cpu);
  memory = GoSub(memory, other.memory);
  ephemeral_storage = GoSub(ephemeral_storage, other.ephemeral_storage);
  allowed_pod_number = GoSub(allowed_pod_number, other.allowed_pod_number);
  for (const auto& [name, value] : other.scalar) SetScalar(name, GoSub(Scalar(name), value));
}

void Resource::SetMax(const Resource& other) {
  milli_cpu = std::max(milli_cpu, other.milli_cpu);
  memory = std::max(memory, other.memory);
  ephemeral_storage = std::max(ephemeral_storage, other.ephemeral_storage);
  allowed_pod_number = std::max(allowed_pod_number, other.allowed_pod_number);
  // maxResourceList: a resource `other` names is entered even when it is zero.
  for (const auto& [name, value] : other.scalar) {
    auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                               [](const auto& e, const ResourceName& n) { return e.first < n; });
    if (it == scalar.end() || !(it->first == name)) {
      scalar.insert(it, {name, value});
    } else if (value > it->second) {
      it->second = value;
    }
  }
}

}  // namespace schedcheck::reference
