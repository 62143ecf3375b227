#include "reference/accel/node_resources_fit/fast_resource_allocation.h"

#include "reference/api/resource.h"

namespace schedcheck::reference {

ResourceKind ClassifyResource(std::string_view name) {
  if (name == kResourceCpu) return ResourceKind::kCpu;
  if (name == kResourceMemory) return ResourceKind::kMemory;
  if (name == kResourceEphemeralStorage) return ResourceKind::kEphemeralStorage;
  if (IsScalarResourceName(name)) return ResourceKind::kScalar;
  return ResourceKind::kOther;
}

std::vector<ClassifiedResource> ClassifyResources(const std::vector<ResourceSpec>& resources) {
  std::vector<ClassifiedResource> out;
  out.reserve(resources.size());
  for (const ResourceSpec& r : resources)
    out.push_back({r.name, r.weight, ClassifyResource(r.name)});
  return out;
}

}  // namespace schedcheck::reference
