// Compiled device selectors by expression, kept for the plugin's lifetime (upstream's cel.Cache
// that the DynamicResources plugin hands to every allocator), and a slice device as CEL sees it.
#ifndef SCHEDCHECK_REFERENCE_DRA_CEL_CACHE_H_
#define SCHEDCHECK_REFERENCE_DRA_CEL_CACHE_H_

#include <map>
#include <string>

#include "reference/base/result.h"
#include "reference/dra_cel/cel_selector.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

class CelCache {
 public:
  // The compiled selector, or upstream's compile error (kept: an expression is compiled once).
  const Result<CelSelector>& GetOrCompile(const std::string& expression);

 private:
  std::map<std::string, Result<CelSelector>, std::less<>> compiled_;
};

// cel.Device: the driver, allowMultipleAllocations, attributes and capacity values of a device.
CelDevice ToCelDevice(const std::string& driver, const k8s::Device& device);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_CEL_CACHE_H_
