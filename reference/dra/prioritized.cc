#include "reference/dra/prioritized.h"

#include <algorithm>

namespace schedcheck::reference::dra {

std::string SubRequestRef(std::string_view request, std::string_view sub_request) {
  std::string out(request);
  out += '/';
  out += sub_request;
  return out;
}

bool IsSubRequestRef(std::string_view name) {
  return std::count(name.begin(), name.end(), '/') == 1;
}

k8s::ExactDeviceRequest AsExactRequest(const k8s::DeviceSubRequest& sub) {
  k8s::ExactDeviceRequest out;
  out.set_device_class_name(sub.device_class_name());
  *out.mutable_selectors() = sub.selectors();
  out.set_allocation_mode(sub.allocation_mode());
  out.set_count(sub.count());
  *out.mutable_tolerations() = sub.tolerations();
  if (sub.has_capacity()) *out.mutable_capacity() = sub.capacity();
  return out;
}

}  // namespace schedcheck::reference::dra
