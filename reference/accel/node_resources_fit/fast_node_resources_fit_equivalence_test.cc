// The fast NodeResourcesFit against the plain rule: random clusters and pods, every
// configuration of the strategies, ignored resources and groups, and the cluster changing
// between cycles while both plugins (and the fast one's memos) live on.
#include <memory>

#include <gtest/gtest.h>

#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/accel/node_resources_fit/fast_node_resources_fit.h"
#include "reference/accel/node_resources_fit/random_resources.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference {
namespace {

bool SameEvents(const std::vector<ClusterEvent>& a, const std::vector<ClusterEvent>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].resource != b[i].resource || a[i].action != b[i].action || a[i].label != b[i].label)
      return false;
  }
  return true;
}

RC_GTEST_PROP(FastNodeResourcesFitEquivalence, GivesThePlainResultsAcrossCycles, ()) {
  const nlohmann::json args = GenFitArgs();
  const CompatLevel level = GenResourceLevel();
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.features = FeaturesFor(level);
  auto plain = NodeResourcesFit::New(args, handle);
  auto fast = FastNodeResourcesFit::New(args, handle);
  RC_ASSERT(plain.ok() == fast.ok());
  if (!plain.ok()) {
    RC_ASSERT(plain.message() == fast.message());
    return;
  }
  RC_ASSERT(SameEvents(dynamic_cast<EnqueueExtensions&>(**plain).EventsToRegister(),
                       dynamic_cast<EnqueueExtensions&>(**fast).EventsToRegister()));
  // v1.37's registrations (the hints are the plain plugin's functions).
  const auto hinted = [](Plugin& p) {
    std::vector<ClusterEvent> events;
    for (const ClusterEventWithHint& e :
         dynamic_cast<QueueingHintExtensions&>(p).EventsToRegisterWithHints())
      events.push_back(e.event);
    return events;
  };
  RC_ASSERT(SameEvents(hinted(**plain), hinted(**fast)));
  ResourceCluster cluster(level);
  const std::string difference = DifferenceAcrossCycles(**plain, **fast, cluster, /*cycles=*/5);
  if (!difference.empty()) RC_FAIL(difference);
}

}  // namespace
}  // namespace schedcheck::reference
