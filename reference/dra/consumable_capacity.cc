#include "reference/dra/consumable_capacity.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "reference/dra/nanos.h"

namespace schedcheck::reference::dra {

namespace {

constexpr __int128 kNano = 1000000000;
constexpr __int128 kMilliInNanos = 1000000;
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// errCapacityRequestNotRepresentable's text, which upstream wraps.
constexpr char kNotRepresentable[] =
    "capacity request cannot be represented in the device's range arithmetic";

Result<ConsumedAmount> Parse(const std::string& text) {
  Result<__int128> nanos = ParseNanos(text);
  if (!nanos.ok()) return nanos.error();
  return ConsumedAmount{*nanos, text};
}

// ceil(nanos / unit), as resource.Quantity's Value() and MilliValue() round; saturated to int64.
int64_t CeilTo(__int128 nanos, __int128 unit) {
  __int128 q = nanos / unit;
  if (q * unit != nanos && nanos > 0) ++q;
  if (q > kMaxInt64) return kMaxInt64;
  if (q < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(q);
}

// safeMilliValue: the value in thousandths when that is exact and fits int64.
std::optional<int64_t> SafeMilli(__int128 nanos) {
  if (nanos % kMilliInNanos != 0) return std::nullopt;
  const __int128 milli = nanos / kMilliInNanos;
  if (milli > kMaxInt64 || milli < std::numeric_limits<int64_t>::min()) return std::nullopt;
  return static_cast<int64_t>(milli);
}

struct Range {
  std::optional<ConsumedAmount> min, max, step;
  bool binary_step = false;
};

Result<Range> ParseRange(const k8s::CapacityRequestPolicyRange& range) {
  Range out;
  for (auto [has, text, field] : {std::tuple{range.has_min(), &range.min(), &out.min},
                                  std::tuple{range.has_max(), &range.max(), &out.max},
                                  std::tuple{range.has_step(), &range.step(), &out.step}}) {
    if (!has) continue;
    Result<ConsumedAmount> parsed = Parse(*text);
    if (!parsed.ok()) return parsed.error();
    *field = *parsed;
  }
  out.binary_step = range.has_step() && range.step().find('i') != std::string::npos;
  return out;
}

// useMilli (DRAFractionalCapacityRange on): min, max and step exact in thousandths, a step of at
// least 1m.
bool UseMilli(const Range& range) {
  for (const auto* q : {&range.min, &range.max, &range.step}) {
    if (q->has_value() && !SafeMilli((*q)->nanos).has_value()) return false;
  }
  if (range.step.has_value() && *SafeMilli(range.step->nanos) < 1) return false;
  return true;
}

// roundUpRange: below min, min; else up to min plus a whole number of steps.
Result<ConsumedAmount> RoundUpRange(const ConsumedAmount& requested, const Range& range) {
  const ConsumedAmount min = range.min.value_or(ConsumedAmount{0, "0"});
  if (requested.nanos < min.nanos) return min;
  if (!range.step.has_value()) return requested;
  if (UseMilli(range)) {
    std::optional<int64_t> requested_milli = SafeMilli(requested.nanos);
    if (!requested_milli.has_value()) {
      return Error{std::string(kNotRepresentable) + ": request " + requested.text +
                   " is not a representable milli value"};
    }
    const int64_t step = CeilTo(range.step->nanos, kMilliInNanos);
    const int64_t low = CeilTo(min.nanos, kMilliInNanos);
    const int64_t added = *requested_milli - low;
    int64_t n = added / step;
    if (added % step != 0) ++n;
    if (n > (kMaxInt64 - low) / step) {
      return Error{std::string(kNotRepresentable) + ": rounding request " + requested.text +
                   " up to the next step passes the milli-value range"};
    }
    const __int128 nanos = static_cast<__int128>(low + step * n) * kMilliInNanos;
    return ConsumedAmount{nanos, FormatNanos(nanos, range.binary_step)};
  }
  if (requested.nanos > static_cast<__int128>(kMaxInt64) * kNano) {
    return Error{std::string(kNotRepresentable) + ": request " + requested.text +
                 " exceeds MaxInt64"};
  }
  const int64_t step = CeilTo(range.step->nanos, kNano);
  const int64_t low = CeilTo(min.nanos, kNano);
  if (step <= 0)
    return Error{"capacity request policy: step " + range.step->text + " is not positive"};
  const int64_t added = CeilTo(requested.nanos, kNano) - low;
  int64_t n = added / step;
  if (added % step != 0) ++n;
  if (low >= 0 && n > (kMaxInt64 - low) / step) {
    return Error{std::string(kNotRepresentable) + ": rounding request " + requested.text +
                 " up to the next step passes MaxInt64"};
  }
  const __int128 nanos = static_cast<__int128>(low + step * n) * kNano;
  return ConsumedAmount{nanos, FormatNanos(nanos, range.binary_step)};
}

// calculateConsumedCapacity: nothing asked, the policy's default or the whole capacity; else what
// is asked, rounded up by the policy's range or valid values.
Result<ConsumedAmount> ConsumedFor(const std::optional<ConsumedAmount>& requested,
                                   const k8s::DeviceCapacity& capacity) {
  const bool has_policy = capacity.has_request_policy();
  const k8s::CapacityRequestPolicy& policy = capacity.request_policy();
  if (!requested.has_value()) {
    return Parse(has_policy && policy.has_default_value() ? policy.default_value()
                                                          : capacity.value());
  }
  if (!has_policy) return *requested;
  if (policy.has_valid_range() && policy.valid_range().has_min()) {
    Result<Range> range = ParseRange(policy.valid_range());
    if (!range.ok()) return range.error();
    return RoundUpRange(*requested, *range);
  }
  // roundUpValidValues: the first valid value (ascending, as validation requires) not below it.
  for (const std::string& text : policy.valid_values()) {
    Result<ConsumedAmount> valid = Parse(text);
    if (!valid.ok()) return valid.error();
    if (requested->nanos <= valid->nanos) return *valid;
  }
  return *requested;
}

// violatesPolicy. Upstream first lets a value equal to the default through (Go struct equality of
// the two quantities); a valid policy's default keeps its range or values anyway, so the value
// compare here decides alike.
Result<bool> ViolatesPolicy(const ConsumedAmount& value, const k8s::DeviceCapacity& capacity) {
  if (!capacity.has_request_policy()) return false;
  const k8s::CapacityRequestPolicy& policy = capacity.request_policy();
  if (policy.has_default_value()) {
    Result<ConsumedAmount> fallback = Parse(policy.default_value());
    if (!fallback.ok()) return fallback.error();
    if (fallback->nanos == value.nanos) return false;
  }
  if (policy.has_valid_range()) {
    Result<Range> range = ParseRange(policy.valid_range());
    if (!range.ok()) return range.error();
    if (range->max.has_value() && value.nanos > range->max->nanos) return true;
    if (range->step.has_value()) {
      const ConsumedAmount min = range->min.value_or(ConsumedAmount{0, "0"});
      int64_t requested = 0, step = 0, low = 0;
      if (UseMilli(*range)) {
        std::optional<int64_t> milli = SafeMilli(value.nanos);
        if (!milli.has_value()) return true;
        requested = *milli;
        step = CeilTo(range->step->nanos, kMilliInNanos);
        low = CeilTo(min.nanos, kMilliInNanos);
      } else {
        requested = CeilTo(value.nanos, kNano);
        step = CeilTo(range->step->nanos, kNano);
        low = CeilTo(min.nanos, kNano);
      }
      if (step == 0)
        return Error{"capacity request policy: step " + range->step->text + " is zero"};
      if ((requested - low) % step != 0) return true;
    }
    return false;
  }
  if (policy.valid_values_size() > 0) {
    for (const std::string& text : policy.valid_values()) {
      Result<ConsumedAmount> valid = Parse(text);
      if (!valid.ok()) return valid.error();
      if (valid->nanos == value.nanos) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

Result<bool> RequestFitsCapacity(const CapacityAmounts& consumed,
                                 const k8s::CapacityRequirements& request,
                                 const k8s::Device& device, const CapacityAmounts* allocating) {
  for (const auto& [name, value] : request.requests()) {
    if (device.capacity().count(name) == 0) return false;  // another device may have it
  }
  // Every capacity's consumption first: an error aborts whichever capacity it is in.
  std::map<std::string, ConsumedAmount> wants;
  for (const auto& [name, capacity] : device.capacity()) {
    std::optional<ConsumedAmount> requested;
    auto asked = request.requests().find(name);
    if (asked != request.requests().end()) {
      Result<ConsumedAmount> parsed = Parse(asked->second);
      if (!parsed.ok()) return Error{"capacity \"" + name + "\": " + parsed.message()};
      requested = *parsed;
    }
    Result<ConsumedAmount> want = ConsumedFor(requested, capacity);
    if (!want.ok()) return Error{"capacity \"" + name + "\": " + want.message()};
    if (want->nanos < 0) return Error{"capacity \"" + name + "\": capacity value is negative"};
    wants[name] = *want;
  }
  for (const auto& [name, capacity] : device.capacity()) {
    const ConsumedAmount& want = wants[name];
    Result<bool> violates = ViolatesPolicy(want, capacity);
    if (!violates.ok()) return Error{"capacity \"" + name + "\": " + violates.message()};
    if (*violates) return false;
    __int128 total = want.nanos;
    if (auto it = consumed.find(name); it != consumed.end()) total += it->second;
    if (allocating != nullptr) {
      if (auto it = allocating->find(name); it != allocating->end()) total += it->second;
    }
    Result<ConsumedAmount> limit = Parse(capacity.value());
    if (!limit.ok()) return Error{"capacity \"" + name + "\": " + limit.message()};
    if (total > limit->nanos) return false;
  }
  return true;
}

Result<ConsumedCapacity> ConsumedCapacityFromRequest(const k8s::CapacityRequirements& request,
                                                     const k8s::Device& device) {
  ConsumedCapacity out;
  for (const auto& [name, capacity] : device.capacity()) {
    std::optional<ConsumedAmount> requested;
    auto asked = request.requests().find(name);
    if (asked != request.requests().end()) {
      Result<ConsumedAmount> parsed = Parse(asked->second);
      if (!parsed.ok()) return Error{"capacity \"" + name + "\": " + parsed.message()};
      requested = *parsed;
    }
    Result<ConsumedAmount> want = ConsumedFor(requested, capacity);
    if (!want.ok()) return Error{"capacity \"" + name + "\": " + want.message()};
    out[name] = *want;
  }
  return out;
}

void AddAllocatedDevice(const k8s::DeviceRequestAllocationResult& result, AllocatedState& state) {
  if (result.admin_access()) return;  // not counted as allocated
  const DeviceId id{result.driver(), result.pool(), result.device()};
  if (!result.has_share_id()) {
    state.allocated_devices.insert(id);
    return;
  }
  state.allocated_shared_devices.insert(id);
  if (result.consumed_capacity().empty()) return;
  CapacityAmounts& total = state.aggregated_capacity[id];
  for (const auto& [name, text] : result.consumed_capacity()) {
    Result<ConsumedAmount> amount = Parse(text);
    total[name] += amount.ok() ? amount->nanos : 0;
  }
}

std::string FormatNanos(__int128 nanos, bool binary) {
  auto digits = [](__int128 v) {
    if (v == 0) return std::string("0");
    std::string s;
    const bool negative = v < 0;
    if (negative) v = -v;
    while (v > 0) {
      s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
      v /= 10;
    }
    return negative ? "-" + s : s;
  };
  if (nanos % kNano != 0) {
    if (nanos % kMilliInNanos == 0) return digits(nanos / kMilliInNanos) + "m";
    return digits(nanos) + "n";
  }
  __int128 units = nanos / kNano;
  if (units == 0) return "0";
  if (binary) {
    static const char* kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int k = 0;
    while (k < 6 && units % 1024 == 0) {
      units /= 1024;
      ++k;
    }
    if (k > 0) return digits(units) + kBinary[k];
    units = nanos / kNano;
  }
  static const char* kDecimal[] = {"", "k", "M", "G", "T", "P", "E"};
  int k = 0;
  while (k < 6 && units % 1000 == 0) {
    units /= 1000;
    ++k;
  }
  return digits(units) + kDecimal[k];
}

}  // namespace schedcheck::reference::dra
