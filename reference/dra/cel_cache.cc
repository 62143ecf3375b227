#include "reference/dra/cel_cache.h"

#include <utility>

namespace schedcheck::reference::dra {

const Result<CelSelector>& CelCache::GetOrCompile(const std::string& expression) {
  auto it = compiled_.find(expression);
  if (it == compiled_.end()) {
    it = compiled_.emplace(expression, CelSelector::Compile(expression)).first;
  }
  return it->second;
}

CelDevice ToCelDevice(const std::string& driver, const k8s::Device& device) {
  CelDevice cel;
  cel.driver = driver;
  if (device.has_allow_multiple_allocations()) {
    cel.allow_multiple_allocations = device.allow_multiple_allocations();
  }
  for (const auto& [name, attribute] : device.attributes()) {
    if (attribute.has_int_value()) {
      cel.attributes.emplace(name, attribute.int_value());
    } else if (attribute.has_bool_value()) {
      cel.attributes.emplace(name, attribute.bool_value());
    } else if (attribute.has_string_value()) {
      cel.attributes.emplace(name, attribute.string_value());
    } else if (attribute.has_version_value()) {
      cel.attributes.emplace(name, DeviceVersion{attribute.version_value()});
    }
  }
  for (const auto& [name, capacity] : device.capacity())
    cel.capacity.emplace(name, capacity.value());
  return cel;
}

}  // namespace schedcheck::reference::dra
