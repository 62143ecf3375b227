// The fast NodeResourcesBalancedAllocation against the plain rule: random clusters and pods,
// default and configured resources, and the cluster changing between cycles while both plugins
// (and the fast one's memo) live on.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/accel/node_resources_balanced_allocation/fast_node_resources_balanced_allocation.h"
#include "reference/accel/node_resources_fit/random_resources.h"
#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"

namespace schedcheck::reference {
namespace {

RC_GTEST_PROP(FastNodeResourcesBalancedAllocationEquivalence, GivesThePlainScoresAcrossCycles, ()) {
  const nlohmann::json args = GenBalancedAllocationArgs();
  const CompatLevel level = GenResourceLevel();
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.features = FeaturesFor(level);
  auto plain = NodeResourcesBalancedAllocation::New(args, handle);
  auto fast = FastNodeResourcesBalancedAllocation::New(args, handle);
  RC_ASSERT(plain.ok() == fast.ok());
  if (!plain.ok()) {
    RC_ASSERT(plain.message() == fast.message());
    return;
  }
  ResourceCluster cluster(level);
  const std::string difference = DifferenceAcrossCycles(**plain, **fast, cluster, /*cycles=*/5);
  if (!difference.empty()) RC_FAIL(difference);
}

// The scorer on its own, on lists longer than two (the population standard deviation).
RC_GTEST_PROP(FastNodeResourcesBalancedAllocationEquivalence, ScorerGivesThePlainScore, ()) {
  const int n = *rc::gen::inRange(0, 6);
  std::vector<int64_t> requested, allocatable;
  for (int i = 0; i < n; ++i) {
    allocatable.push_back(*rc::gen::elementOf(std::vector<int64_t>{0, 1, 3, 1000, 4096, 1 << 30}));
    requested.push_back(*rc::gen::inRange<int64_t>(0, 5000));
  }
  RC_ASSERT(FastBalancedResourceScore(requested, allocatable) ==
            BalancedResourceScorer(requested, allocatable));
}

}  // namespace
}  // namespace schedcheck::reference
