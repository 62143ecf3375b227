#include "reference/accel/inter_pod_affinity/compiled_term.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "reference/testing/objects.h"

namespace schedcheck::reference::interpodaffinity::fast {
namespace {

using testing::ParsePod;

PodPtr MakePod(const std::string& name, const std::string& ns, const std::string& labels,
               const std::string& affinity = "") {
  return ParsePod("metadata: {name: " + name + ", namespace: " + ns + ", labels: {" + labels +
                      "}}\nspec: {affinity: {" + affinity + "}}",
                  CompatLevel::kV1_27);
}

// CompiledExistingTerm gives AffinityTerm::Matches' answer: namespaces, namespaceSelector against
// the incoming pod's namespace labels, nil and malformed labelSelectors.
TEST(CompiledExistingTermTest, AgreesWithAffinityTermMatches) {
  const std::vector<std::string> terms = {
      "{labelSelector: {matchLabels: {app: a}}, topologyKey: zone}",
      "{labelSelector: {matchLabels: {app: a}}, namespaces: [other], topologyKey: zone}",
      "{labelSelector: {matchExpressions: [{key: app, operator: NotIn, values: [a]}]}, "
      "namespaceSelector: {matchLabels: {team: x}}, topologyKey: zone}",
      "{labelSelector: {matchExpressions: [{key: app, operator: Exists}]}, "
      "namespaceSelector: {}, topologyKey: zone}",
      "{topologyKey: zone}",  // nil labelSelector: nothing
      "{labelSelector: {matchExpressions: [{key: app, operator: In}]}, topologyKey: zone}",
  };
  const std::vector<PodPtr> incoming = {
      MakePod("p1", "default", "app: a"), MakePod("p2", "other", "app: a"),
      MakePod("p3", "default", "app: b"), MakePod("p4", "other", ""),
      MakePod("p5", "third", "app: c")};
  Labels team_x;
  team_x["team"] = "x";
  const std::vector<Labels> ns_labels = {Labels(), team_x};
  for (const std::string& term : terms) {
    PodInfoPtr existing = MakePodInfo(MakePod(
        "e", "default", "",
        "podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" + term + "]}"));
    ASSERT_EQ(existing->required_anti_affinity_terms.size(), 1u) << term;
    const AffinityTerm& plain = existing->required_anti_affinity_terms[0];
    const CompiledExistingTerm compiled(plain, 7);
    EXPECT_EQ(compiled.topology_key(), InternLabel("zone"));
    EXPECT_EQ(compiled.weight(), 7);
    for (const PodPtr& pod : incoming) {
      for (const Labels& labels : ns_labels) {
        EXPECT_EQ(compiled.Matches(*pod, labels), plain.Matches(*pod, &labels))
            << term << " vs " << pod->key;
      }
    }
  }
}

// Terms are compiled once per PodInfo; entries whose PodInfo only the cache holds are swept.
TEST(ExistingTermsCacheTest, CompilesOncePerPodInfoAndDropsDeadOnes) {
  const std::string affinity =
      "podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 3, "
      "podAffinityTerm: {labelSelector: {matchLabels: {app: a}}, topologyKey: zone}}]}";
  ExistingTermsCache cache;
  PodInfoPtr kept = MakePodInfo(MakePod("kept", "default", "", affinity));
  const CompiledPodTerms* first = &cache.Get(kept);
  ASSERT_EQ(first->preferred_affinity_terms.size(), 1u);
  EXPECT_EQ(first->preferred_affinity_terms[0].weight(), 3);
  EXPECT_EQ(&cache.Get(kept), first);
  // A pod without terms takes no entry.
  EXPECT_TRUE(
      cache.Get(MakePodInfo(MakePod("plain", "default", ""))).required_affinity_terms.empty());
  EXPECT_EQ(cache.size(), 1u);
  for (int i = 0; i < 3000; ++i) {
    PodInfoPtr dropped = MakePodInfo(MakePod("d" + std::to_string(i), "default", "", affinity));
    cache.Get(dropped);
  }
  EXPECT_LT(cache.size(), 2100u);  // swept: never more than twice the live entries + 1024
  EXPECT_EQ(&cache.Get(kept), first);
}

}  // namespace
}  // namespace schedcheck::reference::interpodaffinity::fast
