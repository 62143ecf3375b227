// Shared counters of partitionable devices (DRAPartitionableDevices, beta and on at v1.37.2): a
// pool publishes counter sets in slices of their own, and each device names the counters it
// consumes. A device may be allocated only while no counter of its pool is consumed beyond what
// the pool publishes, by the devices allocated before (AllocatedState) and the ones being
// allocated in the same Allocate call. Upstream: checkAvailableCounters and
// deallocateCountersForDevice of k8s.io/dynamic-resource-allocation v0.37.2
// (structured/internal/incubating/allocator_incubating.go).
#ifndef SCHEDCHECK_REFERENCE_DRA_COUNTERS_H_
#define SCHEDCHECK_REFERENCE_DRA_COUNTERS_H_

#include <map>
#include <string>

#include "reference/base/result.h"
#include "reference/dra/allocator.h"
#include "reference/dra/pools.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

// One Allocate call's counter bookkeeping.
class CounterTracker {
 public:
  // REQUIRES: `allocated` outlives the tracker.
  explicit CounterTracker(const AllocatedState& allocated) : allocated_(allocated) {}

  // checkAvailableCounters: adds the device's consumption to its pool's and keeps it when every
  // counter of every counter set of the pool stays within what is left after the allocated
  // devices (so an overcommitted set blocks every device of the pool); otherwise takes it back
  // and returns false. An Error for a quantity that does not parse.
  Result<bool> Reserve(const Pool& pool, const k8s::Device& device);
  // deallocateCountersForDevice: the rollback of a successful Reserve.
  void Release(const Pool& pool, const k8s::Device& device);

 private:
  // counter set -> counter -> amount in nanos (ParseNanos, nanos.h).
  using CounterSets = std::map<std::string, std::map<std::string, __int128>>;

  // What the pool publishes minus what its allocated devices consume (upstream caches this per
  // pool for the Allocator's life; it depends only on the pool and the allocated state).
  Result<const CounterSets*> Available(const Pool& pool);

  const AllocatedState& allocated_;
  std::map<PoolId, CounterSets> available_;
  std::map<PoolId, CounterSets> consumed_;  // by the devices being allocated
};

// The first counter value or capacity of a slice that is not a valid quantity, as
// "spec.sharedCounters[0].counters[memory].value: invalid quantity \"x\": ..."; "" when all are.
std::string InvalidSliceQuantity(const k8s::ResourceSlice& slice);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_COUNTERS_H_
