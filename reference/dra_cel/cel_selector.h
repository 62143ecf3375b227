// CelSelector: a DRA device selector (a CEL expression over `device`) compiled and evaluated by
// upstream's own package, k8s.io/dynamic-resource-allocation/cel at kubernetes v1.37.2, linked in
// as a Go C archive (README.md). Compile errors and runtime errors carry upstream's texts; the
// runtime cost limit is upstream's (resource.k8s.io CELSelectorExpressionMaxCost).
//
// Thread-safe: a compiled selector may be evaluated from several threads at once.
#ifndef SCHEDCHECK_REFERENCE_DRA_CEL_CEL_SELECTOR_H_
#define SCHEDCHECK_REFERENCE_DRA_CEL_CEL_SELECTOR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "reference/base/result.h"

namespace schedcheck::reference {

// A version attribute: its text as in the ResourceSlice, parsed by upstream as semver 2.0.
struct DeviceVersion {
  std::string text;
};

// One attribute value: resource.k8s.io/v1 DeviceAttribute's int, bool, string or version.
using DeviceAttributeValue = std::variant<int64_t, bool, std::string, DeviceVersion>;

// What a selector sees of a device (upstream's cel.Device).
struct CelDevice {
  std::string driver;
  // Unset evaluates as false (device.allowMultipleAllocations).
  std::optional<bool> allow_multiple_allocations;
  // By qualified name: "model" (in the driver's domain) or "other.example.com/model".
  std::map<std::string, DeviceAttributeValue> attributes;
  // By qualified name, as Kubernetes quantity text: {"memory", "80Gi"}.
  std::map<std::string, std::string> capacity;
};

// The feature gates that change what upstream's compiler accepts; the defaults are v1.37.2's
// (DRAConsumableCapacity beta and on, DRAListTypeAttributes alpha and off).
struct CelFeatures {
  bool consumable_capacity = true;
  bool list_type_attributes = false;
};

// A device decoded once on the Go side, for evaluating many selectors against it without decoding
// its values each time (README.md: about half of a Matches on a CelDevice). Thread-safe.
class PreparedCelDevice {
 public:
  // An error names the value the device form could not carry (e.g. a capacity's bad quantity).
  static Result<PreparedCelDevice> Prepare(const CelDevice& device);

  PreparedCelDevice(PreparedCelDevice&& other) noexcept;
  PreparedCelDevice& operator=(PreparedCelDevice&& other) noexcept;
  PreparedCelDevice(const PreparedCelDevice&) = delete;
  PreparedCelDevice& operator=(const PreparedCelDevice&) = delete;
  ~PreparedCelDevice();

 private:
  friend class CelSelector;
  explicit PreparedCelDevice(uintptr_t handle) : handle_(handle) {}

  uintptr_t handle_ = 0;  // a cgo.Handle of the decoded device; 0 after a move
};

class CelSelector {
 public:
  // Compiles as the allocator does (cel.Cache.GetOrCompile). The error is upstream's text, e.g.
  // "compilation failed: ERROR: <input>:1:1: Syntax error: ...".
  static Result<CelSelector> Compile(std::string_view expression, CelFeatures features = {});

  CelSelector(CelSelector&& other) noexcept;
  CelSelector& operator=(CelSelector&& other) noexcept;
  CelSelector(const CelSelector&) = delete;
  CelSelector& operator=(const CelSelector&) = delete;
  ~CelSelector();

  // Whether the device matches; an error carries upstream's runtime text as the allocator reports
  // it after cel.EnhanceRuntimeError ("no such key: x. consider using CEL optional chaining ...").
  Result<bool> Matches(const CelDevice& device) const;
  // The same for a prepared device.
  Result<bool> Matches(const PreparedCelDevice& device) const;

  const std::string& expression() const { return expression_; }

 private:
  CelSelector(std::string expression, uintptr_t handle)
      : expression_(std::move(expression)), handle_(handle) {}

  std::string expression_;
  uintptr_t handle_ = 0;  // a cgo.Handle of the compiled program; 0 after a move
};

// The version of a Go module linked into the archive ("v0.37.2" for
// "k8s.io/dynamic-resource-allocation"), or "" when it is not linked.
std::string LinkedGoModuleVersion(const std::string& module_path);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_DRA_CEL_CEL_SELECTOR_H_
