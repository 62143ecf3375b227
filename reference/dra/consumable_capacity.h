// Consumable capacity (DRAConsumableCapacity, beta and on at v1.37.2, with
// DRAFractionalCapacityRange at its default, on): a request may ask for an amount of a device's
// capacities (`capacity.requests`), a capacity's `requestPolicy` rounds what is asked to what is
// consumed (a default, valid values, or a range with min, max and step), and a device with
// `allowMultipleAllocations` is shared by claims while their consumption fits its capacity.
// Upstream: consumable_capacity.go of k8s.io/dynamic-resource-allocation v0.37.2
// (structured/internal/incubating), read here with exact quantities (ParseNanos, nanos.h).
#ifndef SCHEDCHECK_REFERENCE_DRA_CONSUMABLE_CAPACITY_H_
#define SCHEDCHECK_REFERENCE_DRA_CONSUMABLE_CAPACITY_H_

#include <map>
#include <string>

#include "reference/base/result.h"
#include "reference/dra/allocator.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

// One consumed amount: its value and the quantity text it is written as.
struct ConsumedAmount {
  __int128 nanos = 0;
  std::string text;
};
using ConsumedCapacity = std::map<std::string, ConsumedAmount, std::less<>>;

// CmpRequestOverCapacity: whether `request` (a request's capacity requirements, possibly empty)
// fits `device` on top of what `consumed` (the allocated shares) and `allocating` (the shares of
// this allocation; may be null) take: every requested capacity exists, what each capacity consumes
// keeps its policy, and the sum stays within its value. An Error (upstream aborts the allocation)
// for an amount the policy's arithmetic cannot represent or a negative one.
Result<bool> RequestFitsCapacity(const CapacityAmounts& consumed,
                                 const k8s::CapacityRequirements& request,
                                 const k8s::Device& device, const CapacityAmounts* allocating);

// GetConsumedCapacityFromRequest: what the request consumes of each of the device's capacities.
Result<ConsumedCapacity> ConsumedCapacityFromRequest(const k8s::CapacityRequirements& request,
                                                     const k8s::Device& device);

// foreachAllocatedDevice's part for one result of an allocated claim: nothing for admin access; a
// share (a result with a shareID) marks its device shared and adds its consumed capacity to the
// device's; any other result marks its device allocated. A consumed amount that is not a quantity
// counts as zero (the API server accepts none).
void AddAllocatedDevice(const k8s::DeviceRequestAllocationResult& result, AllocatedState& state);

// A quantity's text for an amount the policy computed (a range's min plus steps), in the form of
// the step's quantity (binary suffixes for a binary step) as Kubernetes prints it.
std::string FormatNanos(__int128 nanos, bool binary);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_CONSUMABLE_CAPACITY_H_
