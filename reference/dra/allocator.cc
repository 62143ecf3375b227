#include "reference/dra/allocator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "reference/dra/consumable_capacity.h"
#include "reference/dra/counters.h"
#include "reference/dra/pools.h"
#include "reference/dra/prioritized.h"

namespace schedcheck::reference::dra {

namespace {

// klog.KObj of a claim: "namespace/name", or the name alone without a namespace.
std::string ClaimRef(const k8s::ResourceClaim& claim) {
  if (claim.metadata().namespace_().empty()) return claim.metadata().name();
  return claim.metadata().namespace_() + "/" + claim.metadata().name();
}

// errAllocationResultMaxSizeExceeded travels up the recursion as this message.
constexpr char kMaxSizeExceeded[] = "allocation max size exceeded";

// What Allocate needs of one request or one subrequest of a prioritized list (upstream's
// requestData with its exactDeviceRequestAccessor or deviceSubRequestAccessor).
struct RequestData {
  std::string name;               // the request's, or the subrequest's own
  std::string parent;             // the request a subrequest belongs to; "" for a request
  k8s::ExactDeviceRequest exact;  // the request, or the subrequest as one (prioritized.h)
  const k8s::DeviceClass* class_ = nullptr;
  bool all_mode = false;
  int64_t num_devices = 0;  // a count may be as large as the API allows
  // allocationMode All: every selectable device, found before the search.
  std::vector<std::pair<DeviceId, const k8s::Device*>> all_devices;
  std::vector<const k8s::ResourceSlice*> all_device_slices;  // beside all_devices

  const k8s::ExactDeviceRequest& exactly() const { return exact; }
  bool admin_access() const { return exactly().admin_access(); }
  // requestName: "<request>" or "<request>/<subrequest>", as allocation results name it.
  std::string FullName() const { return parent.empty() ? name : SubRequestRef(parent, name); }
};

// The request as Allocate sees it: itself, or the subrequests of its prioritized list in order
// (their class, selectors and count checked by ValidateDeviceRequest). A request with neither
// `exactly` nor `firstAvailable` reads as an exact request without a class, as upstream's accessor
// makes of it.
std::vector<RequestData> RequestAlternatives(const k8s::DeviceRequest& request) {
  std::vector<RequestData> out;
  if (request.first_available_size() == 0) {
    out.push_back(RequestData{.name = request.name(), .exact = request.exactly()});
    return out;
  }
  for (const k8s::DeviceSubRequest& sub : request.first_available()) {
    out.push_back(
        RequestData{.name = sub.name(), .parent = request.name(), .exact = AsExactRequest(sub)});
  }
  return out;
}

// A matchAttribute or distinctAttribute constraint (constraint.go and allocator_incubating.go).
struct Constraint {
  std::set<std::string> request_names;  // empty: every request
  std::string attribute_name;
  bool distinct = false;
  std::vector<k8s::DeviceAttribute> attributes;  // of the devices added so far
};

// lookupAttribute: by the qualified name as given, else "<driver>/<name>" as <name>.
const k8s::DeviceAttribute* LookupAttribute(const k8s::Device& device, const DeviceId& id,
                                            const std::string& name) {
  auto it = device.attributes().find(name);
  if (it != device.attributes().end()) return &it->second;
  const size_t slash = name.find('/');
  if (slash == std::string::npos || name.substr(0, slash) != id.driver) return nullptr;
  it = device.attributes().find(name.substr(slash + 1));
  return it == device.attributes().end() ? nullptr : &it->second;
}

// The two values are of one kind and equal.
bool SameValue(const k8s::DeviceAttribute& a, const k8s::DeviceAttribute& b) {
  if (a.has_string_value()) return b.has_string_value() && a.string_value() == b.string_value();
  if (a.has_int_value()) return b.has_int_value() && a.int_value() == b.int_value();
  if (a.has_bool_value()) return b.has_bool_value() && a.bool_value() == b.bool_value();
  if (a.has_version_value()) return b.has_version_value() && a.version_value() == b.version_value();
  return false;
}

bool HasValue(const k8s::DeviceAttribute& a) {
  return a.has_string_value() || a.has_int_value() || a.has_bool_value() || a.has_version_value();
}

// matchAttributeConstraint.matches: the constraint names the request, or the subrequest as
// "<request>/<subrequest>".
bool ConstraintCovers(const Constraint& c, const RequestData& data) {
  if (c.request_names.empty()) return true;
  if (c.request_names.count(data.parent.empty() ? data.name : data.parent) > 0) return true;
  return !data.parent.empty() && c.request_names.count(data.FullName()) > 0;
}

// constraint.add: whether the device keeps the constraint satisfied; records it if so.
bool ConstraintAdd(Constraint& c, const RequestData& data, const k8s::Device& device,
                   const DeviceId& id) {
  if (!ConstraintCovers(c, data)) return true;
  const k8s::DeviceAttribute* attribute = LookupAttribute(device, id, c.attribute_name);
  if (attribute == nullptr) return false;
  if (c.distinct) {
    for (const k8s::DeviceAttribute& seen : c.attributes) {
      if (!HasValue(*attribute) || SameValue(*attribute, seen)) return false;
    }
  } else if (!c.attributes.empty()) {
    if (!HasValue(*attribute) || !SameValue(*attribute, c.attributes.front())) return false;
  }
  c.attributes.push_back(*attribute);
  return true;
}

void ConstraintRemove(Constraint& c, const RequestData& data) {
  if (!ConstraintCovers(c, data)) return;
  c.attributes.pop_back();
}

// resourceclaim.ToleratesTaint.
bool ToleratesTaint(const k8s::DeviceToleration& toleration, const k8s::DeviceTaint& taint) {
  if (!toleration.effect().empty() && toleration.effect() != taint.effect()) return false;
  if (!toleration.key().empty() && toleration.key() != taint.key()) return false;
  if (toleration.operator_().empty() || toleration.operator_() == "Equal") {
    return toleration.value() == taint.value();
  }
  return toleration.operator_() == "Exists";
}

// taintPreventsAllocation: a NoSchedule or NoExecute taint no toleration of the request tolerates.
bool TaintPreventsAllocation(const k8s::Device& device, const k8s::ExactDeviceRequest& request) {
  for (const k8s::DeviceTaint& taint : device.taints()) {
    if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
    bool tolerated = false;
    for (const k8s::DeviceToleration& toleration : request.tolerations()) {
      if (ToleratesTaint(toleration, taint)) tolerated = true;
    }
    if (!tolerated) return true;
  }
  return false;
}

struct DeviceResult {
  std::string request;  // "<request>" or "<request>/<subrequest>"
  DeviceId id;
  const k8s::Device* device = nullptr;
  const k8s::ResourceSlice* slice = nullptr;
  bool admin_access = false;
  // What allocating it changed, for the rollback (upstream's deviceRollbackState).
  bool counters_reserved = false;
  bool device_marked = false;           // in allocating_ (not for a shared device)
  bool capacity_inserted = false;       // a share: its consumption in allocating_capacity_
  bool capacity_entry_existed = false;  // another share of the device was there before
  ConsumedCapacity consumed;            // a share's consumption
  std::string share_id;
  const RequestData* data = nullptr;  // the (sub)request it was allocated for
};

struct Location {
  size_t pool = 0, slice = 0, device = 0;
};

}  // namespace

// One Allocate call (upstream's `allocator`, which embeds the Allocator).
class AllocationRun {
 public:
  AllocationRun(const AllocatedState& allocated, const DeviceClasses& classes, CelCache& cel,
                const k8s::Node& node, const std::vector<const k8s::ResourceClaim*>& claims)
      : allocated_(allocated),
        classes_(classes),
        cel_(cel),
        node_(node),
        claims_(claims),
        requests_(claims.size()),
        selected_(claims.size()),
        constraints_(claims.size()),
        counters_(allocated),
        results_(claims.size()) {}

  Result<std::optional<std::vector<k8s::AllocationResult>>> Run(std::vector<Pool> pools);

 private:
  Result<RequestData> ValidateDeviceRequest(size_t claim, RequestData data);
  Result<bool> IsSelectable(size_t claim, const RequestData& data, const k8s::ResourceSlice& slice,
                            const k8s::Device& device);
  Result<bool> SelectorsMatch(
      size_t claim, const k8s::Device& device, const DeviceId& id,
      const k8s::DeviceClass* device_class,
      const google::protobuf::RepeatedPtrField<k8s::DeviceSelector>& selectors);
  // `sub`: the subrequest of a prioritized list being tried (0 for a plain request);
  // `in_sub`: AllocateOne is working on that one subrequest (upstream's allocateSubRequest).
  Result<bool> AllocateOne(size_t claim, size_t request, size_t sub, int device_index, bool in_sub,
                           Location start);
  Result<bool> AllocateDevice(size_t claim, const RequestData& data, const DeviceId& id,
                              const k8s::Device& device, const k8s::ResourceSlice& slice,
                              bool must);
  void Deallocate(size_t claim, const RequestData& data, const DeviceId& id,
                  const k8s::Device& device);
  bool DeviceInUse(const DeviceId& id) const {
    auto it = allocating_.find(id);
    return allocated_.allocated_devices.count(id) > 0 ||
           (it != allocating_.end() && !it->second.empty());
  }
  // Consumable capacity: whether the request fits what the device's shares leave.
  Result<bool> CapacityFits(const RequestData& data, const DeviceId& id,
                            const k8s::Device& device) const;
  // deviceCapacityInUse: a share of the device is allocated or being allocated.
  bool DeviceCapacityInUse(const DeviceId& id) const {
    return allocated_.aggregated_capacity.count(id) > 0 ||
           allocated_.allocated_shared_devices.count(id) > 0 || allocating_capacity_.count(id) > 0;
  }
  bool AllocatingDeviceForClaim(const DeviceId& id, size_t claim) const {
    auto it = allocating_.find(id);
    return it != allocating_.end() && it->second.count(claim) > 0;
  }
  Result<k8s::AllocationResult> MakeResult(size_t claim) const;
  // The pool a device of pools_ is in.
  const Pool& PoolOf(const DeviceId& id) const {
    return *std::find_if(pools_.begin(), pools_.end(), [&id](const Pool& pool) {
      return pool.id.driver == id.driver && pool.id.pool == id.pool;
    });
  }

  const AllocatedState& allocated_;
  const DeviceClasses& classes_;
  CelCache& cel_;
  const k8s::Node& node_;
  const std::vector<const k8s::ResourceClaim*>& claims_;
  std::vector<Pool> pools_;
  // [claim][request][subrequest]: a plain request has one entry, a prioritized list one per
  // subrequest in order.
  std::vector<std::vector<std::vector<RequestData>>> requests_;
  std::vector<std::vector<size_t>> selected_;  // [claim][request]: the subrequest chosen
  const RequestData& Selected(size_t claim, size_t request) const {
    return requests_[claim][request][selected_[claim][request]];
  }
  std::vector<std::vector<Constraint>> constraints_;  // [claim]
  std::map<DeviceId, std::set<size_t>> allocating_;   // device -> claims it is being allocated to
  CounterTracker counters_;                           // partitionable devices' shared counters
  std::map<DeviceId, CapacityAmounts> allocating_capacity_;  // shares being allocated
  int next_share_ = 0;
  std::vector<std::vector<DeviceResult>> results_;  // [claim]
};

Result<std::optional<std::vector<k8s::AllocationResult>>> AllocationRun::Run(
    std::vector<Pool> pools) {
  pools_ = std::move(pools);
  for (size_t c = 0; c < claims_.size(); ++c) {
    const k8s::ResourceClaim& claim = *claims_[c];
    int64_t min_devices_per_claim = 0;
    for (const k8s::DeviceRequest& request : claim.spec().devices().requests()) {
      // A prioritized list needs at least as many devices as its smallest subrequest.
      std::vector<RequestData>& alternatives = requests_[c].emplace_back();
      selected_[c].push_back(0);
      int64_t n = std::numeric_limits<int64_t>::max();
      for (RequestData& unchecked : RequestAlternatives(request)) {
        Result<RequestData> data = ValidateDeviceRequest(c, std::move(unchecked));
        if (!data.ok()) return data.error();
        n = std::min(n, data->num_devices);
        alternatives.push_back(std::move(*data));
      }
      if (n > kAllocationResultsMaxSize - min_devices_per_claim) {
        return Error{"claim " + ClaimRef(claim) + ", request " + request.name() + ": adding " +
                     std::to_string(n) + " devices exceeds the claim limit of " +
                     std::to_string(kAllocationResultsMaxSize) + ", with " +
                     std::to_string(min_devices_per_claim) + " already accounted for"};
      }
      min_devices_per_claim += n;
    }
    int index = 0;
    for (const k8s::DeviceConstraint& constraint : claim.spec().devices().constraints()) {
      Constraint made;
      made.request_names.insert(constraint.requests().begin(), constraint.requests().end());
      if (constraint.has_match_attribute()) {
        made.attribute_name = constraint.match_attribute();
      } else if (constraint.has_distinct_attribute()) {
        made.attribute_name = constraint.distinct_attribute();
        made.distinct = true;
      } else {
        return Error{"claim " + ClaimRef(claim) + ", constraint #" + std::to_string(index) +
                     ": empty constraint (unsupported constraint type?)"};
      }
      constraints_[c].push_back(std::move(made));
      ++index;
    }
  }

  Result<bool> done = AllocateOne(0, 0, 0, 0, false, Location{});
  if (!done.ok()) return done.error();
  if (!*done) {
    for (const Pool& pool : pools_) {
      if (pool.is_invalid) return Error{kInvalidPoolsError};
    }
    return std::optional<std::vector<k8s::AllocationResult>>();
  }
  std::vector<k8s::AllocationResult> results;
  for (size_t c = 0; c < claims_.size(); ++c) {
    Result<k8s::AllocationResult> result = MakeResult(c);
    if (!result.ok()) return result.error();
    results.push_back(std::move(*result));
  }
  return std::optional<std::vector<k8s::AllocationResult>>(std::move(results));
}

Result<RequestData> AllocationRun::ValidateDeviceRequest(size_t claim_index, RequestData data) {
  const std::string prefix = "claim " + ClaimRef(*claims_[claim_index]) + ", request " + data.name;
  const k8s::ExactDeviceRequest& exactly = data.exact;
  for (int i = 0; i < exactly.selectors_size(); ++i) {
    if (exactly.selectors(i).cel().expression().empty()) {
      return Error{prefix + ", selector #" + std::to_string(i) +
                   ": CEL expression empty (unsupported selector type?)"};
    }
  }
  if (exactly.device_class_name().empty()) {
    return Error{prefix + ": missing device class name (unsupported request type?)"};
  }
  auto found = classes_.find(exactly.device_class_name());
  if (found == classes_.end()) {
    return Error{prefix + ": could not retrieve device class " + exactly.device_class_name() +
                 ": deviceclass.resource.k8s.io \"" + exactly.device_class_name() + "\" not found"};
  }
  data.class_ = &found->second;

  const std::string& mode = exactly.allocation_mode();
  if (mode.empty() || mode == "ExactCount") {
    // The API server defaults count to 1.
    data.num_devices = exactly.count() == 0 ? 1 : exactly.count();
    return data;
  }
  if (mode != "All") return Error{prefix + ": unsupported count mode " + mode};
  data.all_mode = true;
  for (const Pool& pool : pools_) {
    if (pool.is_incomplete) {
      return Error{prefix + ": asks for all devices, but resource pool " + pool.id.String() +
                   " is currently being updated"};
    }
    if (pool.is_invalid) {
      return Error{prefix + ": asks for all devices, but resource pool " + pool.id.String() +
                   " is currently invalid"};
    }
    for (const k8s::ResourceSlice* slice : pool.device_slices_targeting_node) {
      for (const k8s::Device& device : slice->spec().devices()) {
        Result<bool> selectable = IsSelectable(claim_index, data, *slice, device);
        if (!selectable.ok()) return selectable.error();
        if (!*selectable) continue;
        // The device's capacity alone: what shares consume is checked when allocating, so a
        // device short of it then makes the request fail.
        Result<bool> fits = RequestFitsCapacity({}, exactly.capacity(), device, nullptr);
        if (!fits.ok()) {
          return Error{prefix + ": checking capacity for device " + device.name() + ": " +
                       fits.message()};
        }
        if (!*fits) continue;
        data.all_devices.emplace_back(
            DeviceId{slice->spec().driver(), slice->spec().pool().name(), device.name()}, &device);
        data.all_device_slices.push_back(slice);
      }
    }
  }
  data.num_devices = static_cast<int64_t>(data.all_devices.size());
  return data;
}

Result<bool> AllocationRun::IsSelectable(size_t claim, const RequestData& data,
                                         const k8s::ResourceSlice& slice,
                                         const k8s::Device& device) {
  const DeviceId id{slice.spec().driver(), slice.spec().pool().name(), device.name()};
  Result<bool> match =
      SelectorsMatch(claim, device, id, data.class_, data.class_->spec().selectors());
  if (!match.ok() || !*match) return match;
  match = SelectorsMatch(claim, device, id, nullptr, data.exactly().selectors());
  if (!match.ok() || !*match) return match;
  if (slice.spec().per_device_node_selection()) {
    return NodeMatches(node_, device.node_name(), device.all_nodes(),
                       device.has_node_selector() ? &device.node_selector() : nullptr);
  }
  return true;
}

Result<bool> AllocationRun::SelectorsMatch(
    size_t claim, const k8s::Device& device, const DeviceId& id,
    const k8s::DeviceClass* device_class,
    const google::protobuf::RepeatedPtrField<k8s::DeviceSelector>& selectors) {
  const std::string owner = device_class != nullptr ? "class " + device_class->metadata().name()
                                                    : "claim " + ClaimRef(*claims_[claim]);
  for (int i = 0; i < selectors.size(); ++i) {
    const Result<CelSelector>& compiled = cel_.GetOrCompile(selectors[i].cel().expression());
    if (!compiled.ok()) {
      return Error{owner + ": selector #" + std::to_string(i) +
                   ": CEL compile error: " + compiled.message()};
    }
    Result<bool> matches = compiled->Matches(ToCelDevice(id.driver, device));
    if (!matches.ok()) {
      return Error{owner + ": selector #" + std::to_string(i) + " on device " + id.String() +
                   ": CEL runtime error: " + matches.message()};
    }
    if (!*matches) return false;
  }
  return true;
}

// allocateOne: finds a device for device `device_index` of request `request` of claim `claim`, then
// recurses for the next; true when every claim is allocated. Devices are tried in pool, slice and
// device order, from `start` on (the next device of the same request never comes before the
// previous one). A prioritized list tries its subrequests in order and keeps the first with which
// everything after it can be allocated too.
Result<bool> AllocationRun::AllocateOne(size_t claim, size_t request, size_t sub, int device_index,
                                        bool in_sub, Location start) {
  if (claim >= claims_.size()) return true;
  if (request >= requests_[claim].size()) {
    Result<bool> done = AllocateOne(claim + 1, 0, 0, 0, false, Location{});
    if (!done.ok() && done.message() == kMaxSizeExceeded) return false;
    return done;
  }
  if (!in_sub && !requests_[claim][request][sub].parent.empty()) {
    // Only when every subrequest ran into the device limit does the limit travel up (a previous
    // request cannot help then); else the last failure is a plain "no".
    bool all_exceeded = true;
    for (size_t s = 0; s < requests_[claim][request].size(); ++s) {
      Result<bool> done = AllocateOne(claim, request, s, device_index, true, Location{});
      if (!done.ok() && done.message() == kMaxSizeExceeded) continue;
      all_exceeded = false;
      if (!done.ok()) return done;
      if (*done) {
        selected_[claim][request] = s;
        return true;
      }
    }
    if (all_exceeded) return Error{kMaxSizeExceeded};
    return false;
  }
  const RequestData& data = requests_[claim][request][sub];
  if (data.all_mode && data.all_devices.empty()) return false;
  if (device_index >= data.num_devices) {
    return AllocateOne(claim, request + 1, 0, 0, false, Location{});
  }
  const int64_t remaining = data.num_devices - device_index;
  const int64_t available =
      kAllocationResultsMaxSize - static_cast<int64_t>(results_[claim].size());
  if (remaining > available) return Error{kMaxSizeExceeded};

  if (data.all_mode) {
    const auto& [id, device] = data.all_devices[device_index];
    const k8s::ResourceSlice& slice = *data.all_device_slices[device_index];
    Result<bool> allocated = AllocateDevice(claim, data, id, *device, slice, /*must=*/true);
    if (!allocated.ok() || !*allocated) return allocated;
    Result<bool> done = AllocateOne(claim, request, sub, device_index + 1, in_sub, Location{});
    if (!done.ok() || !*done) Deallocate(claim, data, id, *device);
    return done;
  }

  for (size_t p = start.pool; p < pools_.size(); ++p) {
    const Pool& pool = pools_[p];
    if (pool.is_incomplete || pool.is_invalid) continue;
    const size_t slice_start = p == start.pool ? start.slice : 0;
    for (size_t s = slice_start; s < pool.device_slices_targeting_node.size(); ++s) {
      const k8s::ResourceSlice& slice = *pool.device_slices_targeting_node[s];
      const size_t device_start = p == start.pool && s == start.slice ? start.device : 0;
      for (size_t d = device_start; d < static_cast<size_t>(slice.spec().devices_size()); ++d) {
        const k8s::Device& device = slice.spec().devices(static_cast<int>(d));
        const DeviceId id{pool.id.driver, pool.id.pool, device.name()};
        if (data.admin_access() && AllocatingDeviceForClaim(id, claim)) continue;
        if (!data.admin_access() && DeviceInUse(id)) continue;
        Result<bool> selectable = IsSelectable(claim, data, slice, device);
        if (!selectable.ok()) return selectable;
        if (!*selectable) continue;
        Result<bool> fits = CapacityFits(data, id, device);
        if (!fits.ok()) {
          return Error{"claim " + ClaimRef(*claims_[claim]) + ", request " + data.FullName() +
                       ": checking capacity for device " + id.String() + ": " + fits.message()};
        }
        if (!*fits) continue;
        Result<bool> allocated = AllocateDevice(claim, data, id, device, slice, /*must=*/false);
        if (!allocated.ok()) return allocated;
        if (!*allocated) continue;
        Result<bool> done =
            AllocateOne(claim, request, sub, device_index + 1, in_sub, Location{p, s, d + 1});
        if (done.ok() && *done) return true;
        Deallocate(claim, data, id, device);
        if (!done.ok()) return done;
      }
    }
  }
  return false;
}

Result<bool> AllocationRun::CapacityFits(const RequestData& data, const DeviceId& id,
                                         const k8s::Device& device) const {
  static const CapacityAmounts kNone;
  auto allocated = allocated_.aggregated_capacity.find(id);
  auto allocating = allocating_capacity_.find(id);
  return RequestFitsCapacity(
      allocated != allocated_.aggregated_capacity.end() ? allocated->second : kNone,
      data.exactly().capacity(), device,
      allocating != allocating_capacity_.end() ? &allocating->second : nullptr);
}

// allocateDevice: the device not in use (unless for admin access; a device with
// allowMultipleAllocations is never marked in use, its shares are counted against its capacity),
// its shared counters available (reserved once for all shares of a device), not tainted against
// the request, keeping the claim's constraints, and its capacity left for the request. `must`
// (allocation mode All): a constraint the device breaks is an error. Every step it took is undone
// when a later one rejects the device (upstream's rollbackDevice).
Result<bool> AllocationRun::AllocateDevice(size_t claim, const RequestData& data,
                                           const DeviceId& id, const k8s::Device& device,
                                           const k8s::ResourceSlice& slice, bool must) {
  const bool shared = device.allow_multiple_allocations();
  if (!shared && data.admin_access() && AllocatingDeviceForClaim(id, claim)) return false;
  if (!data.admin_access() && DeviceInUse(id)) return false;
  DeviceResult result;
  result.request = data.FullName();
  result.data = &data;
  result.id = id;
  result.device = &device;
  result.slice = &slice;
  result.admin_access = data.admin_access();
  const bool skip_counters = shared && DeviceCapacityInUse(id);
  if (!skip_counters && device.consumes_counters_size() > 0) {
    Result<bool> reserved = counters_.Reserve(PoolOf(id), device);
    if (!reserved.ok() || !*reserved) return reserved;
    result.counters_reserved = true;
  }
  auto reject = [&](size_t constraints_added) {
    for (size_t j = constraints_added; j-- > 0;) ConstraintRemove(constraints_[claim][j], data);
    if (result.device_marked) allocating_[id].erase(claim);
    if (result.counters_reserved) counters_.Release(PoolOf(id), device);
  };
  if (TaintPreventsAllocation(device, data.exactly())) {
    reject(0);
    return false;
  }
  std::vector<Constraint>& constraints = constraints_[claim];
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (ConstraintAdd(constraints[i], data, device, id)) continue;
    reject(i);
    if (must) {
      return Error{"claim " + ClaimRef(*claims_[claim]) + ", request " + result.request +
                   ": cannot add device " + id.String() +
                   " because a claim constraint would not be satisfied"};
    }
    return false;
  }
  if (!shared) {
    allocating_[id].insert(claim);
    result.device_marked = true;
  }
  const std::string prefix = "claim " + ClaimRef(*claims_[claim]) + ", request " + result.request;
  Result<bool> fits = CapacityFits(data, id, device);
  if (!fits.ok() || !*fits) {
    reject(constraints.size());
    if (!fits.ok()) {
      return Error{prefix + ": rechecking capacity for device " + id.String() + ": " +
                   fits.message()};
    }
    return false;
  }
  if (shared) {
    Result<ConsumedCapacity> consumed =
        ConsumedCapacityFromRequest(data.exactly().capacity(), device);
    if (!consumed.ok()) {
      reject(constraints.size());
      return Error{prefix + ": computing consumed capacity for device " + id.String() + ": " +
                   consumed.message()};
    }
    result.consumed = std::move(*consumed);
    // Upstream draws a random UID; any value unique among the device's shares decides alike.
    result.share_id = "share-" + std::to_string(next_share_++);
    auto [entry, inserted] = allocating_capacity_.try_emplace(id);
    result.capacity_entry_existed = !inserted;
    for (const auto& [name, amount] : result.consumed) entry->second[name] += amount.nanos;
    result.capacity_inserted = true;
  }
  results_[claim].push_back(std::move(result));
  return true;
}

// The rollback of a successful AllocateDevice. A share's consumption leaves the device's entry,
// which goes once it is all zero, unless another share made it (that share still needs it as the
// mark that the device's counters are taken).
void AllocationRun::Deallocate(size_t claim, const RequestData& data, const DeviceId& id,
                               const k8s::Device& device) {
  const DeviceResult result = std::move(results_[claim].back());
  results_[claim].pop_back();
  if (result.capacity_inserted) {
    auto entry = allocating_capacity_.find(id);
    if (entry != allocating_capacity_.end()) {
      bool empty = true;
      for (const auto& [name, amount] : result.consumed) {
        auto it = entry->second.find(name);
        if (it != entry->second.end()) it->second -= amount.nanos;
      }
      for (const auto& [name, nanos] : entry->second) empty &= nanos == 0;
      if (empty) allocating_capacity_.erase(entry);
    }
    if (result.capacity_entry_existed) allocating_capacity_.try_emplace(id);
  }
  if (result.device_marked) allocating_[id].erase(claim);
  std::vector<Constraint>& constraints = constraints_[claim];
  for (size_t j = constraints.size(); j-- > 0;) ConstraintRemove(constraints[j], data);
  if (result.counters_reserved) counters_.Release(PoolOf(id), device);
}

namespace {

bool SameRequirement(const k8s::NodeSelectorRequirement& a, const k8s::NodeSelectorRequirement& b) {
  if (a.key() != b.key() || a.operator_() != b.operator_()) return false;
  const std::set<std::string> va(a.values().begin(), a.values().end());
  const std::set<std::string> vb(b.values().begin(), b.values().end());
  return va == vb;
}

void AddNewRequirements(
    const google::protobuf::RepeatedPtrField<k8s::NodeSelectorRequirement>& from,
    google::protobuf::RepeatedPtrField<k8s::NodeSelectorRequirement>* to) {
  for (const k8s::NodeSelectorRequirement& requirement : from) {
    bool present = false;
    for (const k8s::NodeSelectorRequirement& existing : *to) {
      if (SameRequirement(existing, requirement)) present = true;
    }
    if (!present) *to->Add() = requirement;
  }
}

// createNodeSelector: the nodes the allocation is usable on. A device of a slice for one node name
// pins it to the node; node selectors of the slices (one term each; the API server allows no more
// for a slice) are merged into one term; devices for all nodes add nothing (no selector at all).
Result<std::optional<k8s::NodeSelector>> CreateNodeSelector(
    const std::vector<DeviceResult>& devices, const std::string& node_name) {
  k8s::NodeSelector merged;
  k8s::NodeSelectorTerm* term = merged.add_node_selector_terms();
  for (const DeviceResult& result : devices) {
    const k8s::ResourceSliceSpec& spec = result.slice->spec();
    const bool per_device = spec.per_device_node_selection();
    const std::string& name = per_device ? result.device->node_name() : spec.node_name();
    const bool has_selector =
        per_device ? result.device->has_node_selector() : spec.has_node_selector();
    const k8s::NodeSelector& selector =
        per_device ? result.device->node_selector() : spec.node_selector();
    if (!name.empty() || result.device->binds_to_node()) {
      k8s::NodeSelector pinned;
      k8s::NodeSelectorRequirement* field = pinned.add_node_selector_terms()->add_match_fields();
      field->set_key("metadata.name");
      field->set_operator_("In");
      field->add_values(node_name);
      return std::optional<k8s::NodeSelector>(std::move(pinned));
    }
    if (!has_selector) continue;
    if (selector.node_selector_terms_size() > 1) {
      return Error{"unsupported ResourceSlice.NodeSelector with " +
                   std::to_string(selector.node_selector_terms_size()) + " terms"};
    }
    if (selector.node_selector_terms_size() == 1) {
      AddNewRequirements(selector.node_selector_terms(0).match_fields(),
                         term->mutable_match_fields());
      AddNewRequirements(selector.node_selector_terms(0).match_expressions(),
                         term->mutable_match_expressions());
    }
  }
  if (term->match_fields_size() == 0 && term->match_expressions_size() == 0) {
    return std::optional<k8s::NodeSelector>();
  }
  return std::optional<k8s::NodeSelector>(std::move(merged));
}

}  // namespace

// The result of one claim (the loop at the end of upstream's Allocate): its devices, the
// configuration of each request's class then the claim's own, and the node selector.
Result<k8s::AllocationResult> AllocationRun::MakeResult(size_t c) const {
  const k8s::ResourceClaim& claim = *claims_[c];
  k8s::AllocationResult result;
  k8s::DeviceAllocationResult* devices = result.mutable_devices();
  for (const DeviceResult& device : results_[c]) {
    k8s::DeviceRequestAllocationResult* out = devices->add_results();
    out->set_request(device.request);
    out->set_driver(device.id.driver);
    out->set_pool(device.id.pool);
    out->set_device(device.id.device);
    if (device.admin_access) out->set_admin_access(true);
    if (!device.share_id.empty()) out->set_share_id(device.share_id);
    for (const auto& [name, amount] : device.consumed) {
      (*out->mutable_consumed_capacity())[name] = amount.text;
    }
    *out->mutable_tolerations() = device.data->exactly().tolerations();
  }
  // Class configuration: once per class, naming every request of that class.
  std::map<std::string, std::pair<int, int>> class_configs;  // class -> [start, end) in config
  for (size_t r = 0; r < requests_[c].size(); ++r) {
    const RequestData& data = Selected(c, r);
    const std::string& class_name = data.class_->metadata().name();
    auto seen = class_configs.find(class_name);
    if (seen != class_configs.end()) {
      for (int i = seen->second.first; i < seen->second.second; ++i) {
        devices->mutable_config(i)->add_requests(data.FullName());
      }
      continue;
    }
    const int start = devices->config_size();
    for (const k8s::DeviceClassConfiguration& config : data.class_->spec().config()) {
      k8s::DeviceAllocationConfiguration* out = devices->add_config();
      out->set_source("FromClass");
      out->add_requests(data.FullName());
      *out->mutable_opaque() = config.opaque();
    }
    class_configs[class_name] = {start, devices->config_size()};
  }
  // Whether `requests` names request `r` of the claim, or the subrequest chosen for it.
  auto names_request = [&](const google::protobuf::RepeatedPtrField<std::string>& requests,
                           size_t r) {
    const std::string& name = claim.spec().devices().requests(static_cast<int>(r)).name();
    if (std::find(requests.begin(), requests.end(), name) != requests.end()) return true;
    const RequestData& data = Selected(c, r);
    return !data.parent.empty() &&
           std::find(requests.begin(), requests.end(), data.FullName()) != requests.end();
  };
  // Claim configuration: for all requests, or when it names one of the claim's requests.
  for (const k8s::DeviceClaimConfiguration& config : claim.spec().devices().config()) {
    bool applies = config.requests().empty();
    for (size_t r = 0; r < requests_[c].size(); ++r) {
      if (names_request(config.requests(), r)) applies = true;
    }
    if (!applies) continue;
    k8s::DeviceAllocationConfiguration* out = devices->add_config();
    out->set_source("FromClaim");
    *out->mutable_requests() = config.requests();
    *out->mutable_opaque() = config.opaque();
  }
  // A configuration naming every request of the claim names none (it applies to all).
  for (k8s::DeviceAllocationConfiguration& config : *devices->mutable_config()) {
    if (config.requests().empty()) continue;
    bool all = true;
    for (size_t r = 0; r < requests_[c].size(); ++r) {
      if (!names_request(config.requests(), r)) all = false;
    }
    if (all) config.clear_requests();
  }
  Result<std::optional<k8s::NodeSelector>> selector =
      CreateNodeSelector(results_[c], node_.metadata().name());
  if (!selector.ok()) {
    return Error{"create NodeSelector for claim " + claim.metadata().name() + ": " +
                 selector.message()};
  }
  if (selector->has_value()) *result.mutable_node_selector() = **selector;
  return result;
}

Allocator::Allocator(AllocatedState allocated, const DeviceClasses& classes,
                     std::vector<const k8s::ResourceSlice*> slices, CelCache& cel)
    : allocated_(std::move(allocated)),
      classes_(classes),
      all_slices_(std::move(slices)),
      cel_(cel) {
  for (const k8s::ResourceSlice* slice : all_slices_) {
    if (slice->spec().node_name().empty()) {
      slices_shared_.push_back(slice);
    } else {
      slices_on_node_[slice->spec().node_name()].push_back(slice);
    }
  }
}

Result<std::optional<std::vector<k8s::AllocationResult>>> Allocator::Allocate(
    const k8s::Node& node, const std::vector<const k8s::ResourceClaim*>& claims) const {
  for (const k8s::ResourceClaim* claim : claims) {
    if (std::string field = UnmodelledClaimField(*claim); !field.empty()) {
      return Error{"claim " + ClaimRef(*claim) + ": " + field + " is not modelled by schedcheck"};
    }
  }
  std::vector<const k8s::ResourceSlice*> for_node;
  auto on_node = slices_on_node_.find(node.metadata().name());
  if (on_node != slices_on_node_.end()) for_node = on_node->second;
  for_node.insert(for_node.end(), slices_shared_.begin(), slices_shared_.end());
  for (const k8s::ResourceSlice* slice : for_node) {
    if (std::string field = UnmodelledSliceField(*slice); !field.empty()) {
      return Error{"ResourceSlice " + slice->metadata().name() + ": " + field +
                   " is not modelled by schedcheck"};
    }
  }
  AllocationRun run(allocated_, classes_, cel_, node, claims);
  return run.Run(GatherPools(for_node, node, all_slices_));
}

// Every field of a claim the allocator reads is modelled now (prioritized lists and capacity
// requests included); the check stays for what a later API version adds.
std::string UnmodelledClaimField(const k8s::ResourceClaim&) { return ""; }

std::string UnmodelledSliceField(const k8s::ResourceSlice& slice) {
  const auto& devices = slice.spec().devices();
  for (int i = 0; i < devices.size(); ++i) {
    const std::string at = "spec.devices[" + std::to_string(i) + "]";
    const k8s::Device& device = devices[i];
    if (device.binding_conditions_size() > 0) return at + ".bindingConditions";
    if (device.binding_failure_conditions_size() > 0) return at + ".bindingFailureConditions";
  }
  return "";
}

}  // namespace schedcheck::reference::dra
