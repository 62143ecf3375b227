#include "reference/accel/node_affinity/fast_node_affinity.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// args.addedAffinity, sometimes.
nlohmann::json GenArgs() {
  nlohmann::json args = nullptr;
  if (!GenChance(40)) return args;
  nlohmann::json added = nlohmann::json::object();
  if (GenChance(50)) {
    nlohmann::json terms = {GenValidNodeSelectorTerm()};
    if (GenChance(30)) terms.push_back(GenValidNodeSelectorTerm());
    added["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] = terms;
  }
  if (GenChance(50)) {
    added["preferredDuringSchedulingIgnoredDuringExecution"].push_back(
        {{"weight", *rc::gen::inRange(1, 101)}, {"preference", GenValidNodeSelectorTerm()}});
  }
  args["addedAffinity"] = added;
  return args;
}

// The fast engine's NodeAffinity gives the plain rule's PreFilter narrowing, statuses and scores,
// with and without added affinity, with and without its PreFilter and PreScore states.
RC_GTEST_PROP(FastNodeAffinity, EqualsPlainNodeAffinity, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  const nlohmann::json args = GenArgs();
  auto plain = NodeAffinity::New(args, cluster->handle);
  auto fast = FastNodeAffinity::New(args, cluster->handle);
  RC_ASSERT(plain.ok() == fast.ok());
  if (!plain.ok()) {
    RC_ASSERT(plain.message() == fast.message());
    return;
  }
  const CycleOptions options = {.run_pre_filter = GenChance(80), .run_pre_score = GenChance(80)};
  const std::string diff = FirstDifference(**plain, **fast, *pod, cluster->nodes, options);
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
