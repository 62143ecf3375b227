// The structured allocator of Dynamic Resource Allocation as kube-scheduler v1.37.2 runs it by
// default: the "incubating" implementation of k8s.io/dynamic-resource-allocation v0.37.2
// (structured/allocator.go picks the first implementation whose features cover the enabled ones;
// DRAConsumableCapacity and DRADeviceBindingConditions, beta and on, rule out "stable"). Plain:
// Allocate reads like upstream's Allocate, allocateOne, isSelectable and allocateDevice.
//
// Modelled (README.md): requests `exactly` with a device class, prioritized lists
// (`firstAvailable`: subrequests in order, prioritized.h), class and request selectors in
// CEL (reference/dra_cel, upstream's own CEL), allocation modes ExactCount and All, pools by node
// name, node selector, all nodes or per-device node selection, pool completeness, devices
// allocated before or in this allocation, matchAttribute and distinctAttribute constraints, admin
// access, device taints published in slices with the requests' tolerations, partitionable devices
// with shared counters (counters.h), consumable capacity (consumable_capacity.h), class and claim
// configuration in the result. What is not (binding
// conditions) is refused by UnmodelledClaimField / UnmodelledSliceField before it reaches the
// allocator, and by Allocate as an Error if it does.
#ifndef SCHEDCHECK_REFERENCE_DRA_ALLOCATOR_H_
#define SCHEDCHECK_REFERENCE_DRA_ALLOCATOR_H_

#include <compare>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "reference/dra/cel_cache.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

// resourceapi.AllocationResultsMaxSize: the most devices one claim may get.
inline constexpr int kAllocationResultsMaxSize = 32;

struct DeviceId {
  std::string driver;
  std::string pool;
  std::string device;
  auto operator<=>(const DeviceId&) const = default;
  std::string String() const { return driver + "/" + pool + "/" + device; }
};

// Capacity amounts by capacity name, in nanos (ParseNanos, nanos.h).
using CapacityAmounts = std::map<std::string, __int128, std::less<>>;

// The devices in use by claims other than the ones to allocate (upstream's AllocatedState,
// AllocatedDevices: from allocated claims, in-flight allocations and claims being deallocated).
struct AllocatedState {
  std::set<DeviceId> allocated_devices;
  // Consumable capacity: devices allocated as a share (a result with a shareID), and the capacity
  // their shares consume (AllocatedSharedDeviceIDs by device, AggregatedCapacity).
  std::set<DeviceId> allocated_shared_devices;
  std::map<DeviceId, CapacityAmounts> aggregated_capacity;
};

using DeviceClasses = std::map<std::string, k8s::DeviceClass, std::less<>>;

// The field of a claim the model does not cover; "" when the claim is modelled (every claim
// is, today).
std::string UnmodelledClaimField(const k8s::ResourceClaim& claim);
// The same for a slice ("spec.devices[2].bindingConditions", ...).
std::string UnmodelledSliceField(const k8s::ResourceSlice& slice);

class Allocator {
 public:
  // REQUIRES: `classes`, `slices` and `cel` outlive the allocator.
  Allocator(AllocatedState allocated, const DeviceClasses& classes,
            std::vector<const k8s::ResourceSlice*> slices, CelCache& cel);

  // One allocation per claim, in order, all on `node`; nullopt when the claims do not fit the
  // node together. An Error carries upstream's text (a missing class, a CEL error, an "all" request
  // on an incomplete pool, ...); an error after which upstream's Filter reports the node as
  // unschedulable (ErrFailedAllocationOnNode) has failed_on_node() set by the caller's check of
  // IsFailedOnNode.
  Result<std::optional<std::vector<k8s::AllocationResult>>> Allocate(
      const k8s::Node& node, const std::vector<const k8s::ResourceClaim*>& claims) const;

 private:
  AllocatedState allocated_;
  const DeviceClasses& classes_;
  std::vector<const k8s::ResourceSlice*> all_slices_;
  std::map<std::string, std::vector<const k8s::ResourceSlice*>> slices_on_node_;
  std::vector<const k8s::ResourceSlice*> slices_shared_;
  CelCache& cel_;
};

// upstream's ErrFailedAllocationOnNode is an empty error wrapped at the end of the message it
// belongs to; the allocator's one such message.
inline constexpr char kInvalidPoolsError[] = "invalid resource pools were encountered";

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_ALLOCATOR_H_
