#include "reference/accel/inter_pod_affinity/contribution_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "reference/accel/inter_pod_affinity/cache_keys.h"
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"
#include "reference/framework/snapshot.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference::interpodaffinity::fast {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// A pod from YAML flow fragments: `labels` and `affinity` are mapping bodies.
PodPtr MakePod(const std::string& name, const std::string& ns, const std::string& labels,
               const std::string& affinity = "", const std::string& node = "") {
  return ParsePod("metadata: {name: " + name + ", namespace: " + ns + ", labels: {" + labels +
                      "}}\nspec: {nodeName: '" + node + "', affinity: {" + affinity + "}}",
                  CompatLevel::kV1_27);
}

NodePtr MakeNode(const std::string& name, const std::string& labels) {
  return ParseNode("metadata: {name: " + name + ", labels: {" + labels + "}}");
}

// A term on `app` in `values` (a YAML flow list) over `topology`; `extra` adds fields.
std::string Term(const std::string& values, const std::string& topology,
                 const std::string& extra = "") {
  return "{labelSelector: {matchExpressions: [{key: app, operator: In, values: " + values +
         "}]}, topologyKey: " + topology + (extra.empty() ? "" : ", " + extra) + "}";
}

// A contribution's amount at one pair (0 when the pair is absent).
int64_t AmountAt(const Contribution& c, const std::string& key, const std::string& value) {
  for (const Contribution::Entry& e : c) {
    if (e.key == InternLabel(key) && e.value == InternLabel(value)) return e.amount;
  }
  return 0;
}

// Counts the node's pods labelled app=a, at its zone: a stand-in for the plugin's walks.
struct CountAppA {
  int* calls;
  void operator()(const NodeInfo& info, Contribution& c) const {
    ++*calls;
    const LabelId zone = InternLabel("zone");
    for (const PodInfoPtr& p : info.pods()) {
      if (p->pod->label_ids.Get(InternLabel("app")) == InternLabel("a")) {
        c.Add(zone, info.node()->label_ids.Get(zone), 1);
      }
    }
  }
};

const Contribution& Get(ContributionCache::Table& table, const NodeInfo& info, CountAppA count) {
  return table.Get(info, [&](Contribution& c) { count(info, c); });
}

TEST(ContributionCache, FollowsTheNodesPodsAndLabelsAsItsGenerationChanges) {
  NodeInfo info(MakeNode("n", "zone: z1"));
  info.set_name_rank(0);
  const PodPtr a1 = MakePod("a1", "default", "app: a");
  info.AddPod(MakePodInfo(a1));
  info.AddPod(MakePodInfo(MakePod("b1", "default", "app: b")));
  ContributionCache cache;
  auto table = cache.For("app=a");
  int calls = 0;
  EXPECT_EQ(AmountAt(Get(*table, info, {&calls}), "zone", "z1"), 1);
  EXPECT_EQ(AmountAt(Get(*table, info, {&calls}), "zone", "z1"), 1);
  EXPECT_EQ(calls, 1) << "an unchanged node is not walked again";

  info.AddPod(MakePodInfo(MakePod("a2", "default", "app: a")));
  EXPECT_EQ(AmountAt(Get(*cache.For("app=a"), info, {&calls}), "zone", "z1"), 2);
  ASSERT_TRUE(info.RemovePod(*a1));
  EXPECT_EQ(AmountAt(Get(*table, info, {&calls}), "zone", "z1"), 1);
  info.SetNode(MakeNode("n", "zone: z2"));
  const Contribution& moved = Get(*table, info, {&calls});
  EXPECT_EQ(AmountAt(moved, "zone", "z1"), 0);
  EXPECT_EQ(AmountAt(moved, "zone", "z2"), 1);
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(calls, 4);

  // Another key is another table: nothing computed under "app=a" is found there.
  int other_calls = 0;
  Get(*cache.For("other"), info, {&other_calls});
  EXPECT_EQ(other_calls, 1);
}

TEST(ContributionCache, TwoNodesAtOneRankDoNotShareAContribution) {
  // A rank can belong to another node after the node set changes; the generation tells them apart.
  NodeInfo first(MakeNode("n1", "zone: z1"));
  NodeInfo second(MakeNode("n2", "zone: z1"));
  first.set_name_rank(0);
  second.set_name_rank(0);
  first.AddPod(MakePodInfo(MakePod("a1", "default", "app: a")));
  ContributionCache cache;
  int calls = 0;
  EXPECT_EQ(AmountAt(Get(*cache.For("k"), first, {&calls}), "zone", "z1"), 1);
  EXPECT_EQ(AmountAt(Get(*cache.For("k"), second, {&calls}), "zone", "z1"), 0);
  EXPECT_EQ(AmountAt(Get(*cache.For("k"), first, {&calls}), "zone", "z1"), 1);
}

TEST(ContributionCache, HoldsManyPairsInOrder) {
  Contribution c;
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 5; ++i)
      c.Add(InternLabel("zone"), InternLabel("z" + std::to_string(i)), i + 1);
  }
  ASSERT_EQ(c.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(c.begin()[i].value, InternLabel("z" + std::to_string(i)));
    EXPECT_EQ(c.begin()[i].amount, 2 * (i + 1));
  }
  c.Clear();
  EXPECT_EQ(c.size(), 0u);
  c.Add(InternLabel("zone"), InternLabel("z9"), 1);
  EXPECT_EQ(AmountAt(c, "zone", "z9"), 1);
  EXPECT_EQ(AmountAt(c, "zone", "z0"), 0);
}

TEST(ContributionCache, KeepsPairsWhoseAmountsCancelOut) {
  Contribution c;
  c.Add(InternLabel("zone"), InternLabel("z1"), 3);
  c.Add(InternLabel("zone"), InternLabel("z1"), -3);
  TopologyScores scores;
  c.AddTo(scores);
  EXPECT_FALSE(scores.empty()) << "a pair was added, as upstream's map has it";
}

// ---- keys ----

std::vector<AffinityTerm> RequiredTerms(const std::string& affinity,
                                        const std::string& ns = "default") {
  return MakePodInfo(MakePod("p", ns, "", affinity))->required_affinity_terms;
}

TEST(CacheKeys, RequiredTermsKeyNamesEveryFieldOfTheTerms) {
  const std::string base = RequiredTermsKey(
      RequiredTerms("podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" +
                    Term("[a]", "zone") + "]}"));
  auto key = [](const std::string& term, const std::string& ns = "default") {
    return RequiredTermsKey(RequiredTerms(
        "podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" + term + "]}", ns));
  };
  EXPECT_EQ(key(Term("[a]", "zone")), base);
  EXPECT_NE(key(Term("[b]", "zone")), base);
  EXPECT_NE(key(Term("[a]", "host")), base);
  // The pod's own namespace stands in for an empty list.
  EXPECT_NE(key(Term("[a]", "zone"), "other"), base);
  EXPECT_NE(key(Term("[a]", "zone", "namespaces: [default, other]")), base);
  EXPECT_NE(key(Term("[a]", "zone", "namespaceSelector: {}")), base);
  EXPECT_NE(key(Term("[a]", "zone") + ", " + Term("[a]", "zone")), base);
  // matchLabels in another order is the same selector.
  EXPECT_EQ(key("{labelSelector: {matchLabels: {x: '1', y: '2'}}, topologyKey: zone}"),
            key("{labelSelector: {matchLabels: {y: '2', x: '1'}}, topologyKey: zone}"));
}

TEST(CacheKeys, PodKeysNameTheNamespaceLabelsAndNamespaceLabels) {
  Labels team1;
  team1["team"] = "team1";
  Labels team2;
  team2["team"] = "team2";
  const PodPtr pod = MakePod("p", "default", "app: a, tier: x");
  const std::string base = IncomingPodKey(*pod, team1);
  EXPECT_EQ(IncomingPodKey(*MakePod("q", "default", "tier: x, app: a"), team1), base);
  EXPECT_NE(IncomingPodKey(*MakePod("q", "other", "app: a, tier: x"), team1), base);
  EXPECT_NE(IncomingPodKey(*MakePod("q", "default", "app: b, tier: x"), team1), base);
  EXPECT_NE(IncomingPodKey(*MakePod("q", "default", "app: a"), team1), base);
  EXPECT_NE(IncomingPodKey(*pod, team2), base);
  EXPECT_NE(IncomingPodKey(*pod, Labels()), base);

  const std::vector<WeightedAffinityTerm> none;
  const PodInfoPtr pref =
      MakePodInfo(MakePod("p", "default", "",
                          "podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
                          "[{weight: 5, podAffinityTerm: " +
                              Term("[a]", "zone") + "}]}"));
  const PodInfoPtr pref6 =
      MakePodInfo(MakePod("p", "default", "",
                          "podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
                          "[{weight: 6, podAffinityTerm: " +
                              Term("[a]", "zone") + "}]}"));
  const std::string score = ScoreKey(*pod, team1, 1, none, none);
  EXPECT_EQ(ScoreKey(*pod, team1, 1, none, none), score);
  EXPECT_NE(ScoreKey(*pod, team1, 2, none, none), score);
  EXPECT_NE(ScoreKey(*pod, team2, 1, none, none), score);
  EXPECT_NE(ScoreKey(*pod, team1, 1, pref->preferred_affinity_terms, none), score);
  EXPECT_NE(ScoreKey(*pod, team1, 1, none, pref->preferred_affinity_terms), score);
  EXPECT_NE(ScoreKey(*pod, team1, 1, pref->preferred_affinity_terms, none),
            ScoreKey(*pod, team1, 1, pref6->preferred_affinity_terms, none));
}

// ---- the plugin across cycles ----

// A plugin kept across cycles (its caches filled) checked against a new plugin per cycle.
class AcrossCycles : public ::testing::Test {
 protected:
  AcrossCycles() {
    auto add = [&](const std::string& name, const std::string& team) {
      k8s::Namespace ns;
      ns.mutable_metadata()->set_name(name);
      (*ns.mutable_metadata()->mutable_labels())["team"] = team;
      objects_.namespaces[name] = ns;
    };
    add("default", "team0");
    add("ns1", "team1");
    add("ns2", "team2");
    snapshot_ = testing::MakeSnapshot(
        {MakeNode("n1", "zone: z1, host: n1"), MakeNode("n2", "zone: z1, host: n2"),
         MakeNode("n3", "zone: z2, host: n3")},
        {// Anti-affinity to app=db pods of team1 namespaces, per zone.
         MakePod("e1", "default", "app: web",
                 "podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" +
                     Term("[db]", "zone", "namespaceSelector: {matchLabels: {team: team1}}") + "]}",
                 "n1"),
         // Affinity to web pods, and a preferred affinity to db pods per host.
         MakePod("e2", "ns1", "app: db",
                 "podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" +
                     Term("[web]", "zone", "namespaces: [default, ns1, ns2]") +
                     "], preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, "
                     "podAffinityTerm: " +
                     Term("[db]", "host", "namespaceSelector: {}") + "}]}",
                 "n2"),
         MakePod("e3", "default", "app: web", "", "n3")});
    handle_.snapshot = &snapshot_;
    handle_.objects = &objects_;
    kept_ = NewPlugin();
    incoming_ = {
        MakePod("db1", "ns1", "app: db",
                "podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" +
                    Term("[web]", "zone", "namespaces: [default]") +
                    "]}, podAntiAffinity: "
                    "{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 3, "
                    "podAffinityTerm: " +
                    Term("[db]", "host", "namespaces: [ns1, ns2]") + "}]}"),
        MakePod("db2", "ns2", "app: db"),
        MakePod("web", "default", "app: web",
                "podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" +
                    Term("[db]", "zone", "namespaceSelector: {matchLabels: {team: team1}}") + "]}"),
        MakePod("pref", "default", "app: other",
                "podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 7, "
                "podAffinityTerm: " +
                    Term("[web, db]", "zone", "namespaces: [default, ns1]") + "}]}"),
    };
  }

  std::unique_ptr<FastInterPodAffinity> NewPlugin() {
    auto p = FastInterPodAffinity::New(nullptr, handle_);
    EXPECT_TRUE(p.ok());
    return std::unique_ptr<FastInterPodAffinity>(dynamic_cast<FastInterPodAffinity*>(p->release()));
  }

  // Applies `change` to a copy of the NodeInfo of `node` and swaps it in.
  template <typename Change>
  void ChangeNode(const std::string& node, Change change) {
    std::shared_ptr<NodeInfo> info = snapshot_.Get(node)->Clone();
    change(*info);
    ASSERT_TRUE(snapshot_.Replace(info));
  }

  // PreFilter and PreScore of every incoming pod agree between the kept and a new plugin.
  void ExpectSameAsNewPlugin(const std::string& step) {
    SCOPED_TRACE(step);
    std::unique_ptr<FastInterPodAffinity> fresh = NewPlugin();
    for (const PodPtr& pod : incoming_) {
      SCOPED_TRACE(pod->name());
      CycleState kept_state;
      CycleState fresh_state;
      PreFilterResult result;
      const Status kept = kept_->PreFilter(kept_state, *pod, &result);
      ASSERT_EQ(kept, fresh->PreFilter(fresh_state, *pod, &result));
      if (kept.IsSuccess()) {
        const auto* k = kept_state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
        const auto* f = fresh_state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
        EXPECT_TRUE(k->existing_anti_affinity_counts == f->existing_anti_affinity_counts);
        EXPECT_TRUE(k->affinity_counts == f->affinity_counts);
        EXPECT_TRUE(k->anti_affinity_counts == f->anti_affinity_counts);
      }
      ASSERT_TRUE(kept_->PreScore(kept_state, *pod, snapshot_.node_infos()).IsSuccess());
      ASSERT_TRUE(fresh->PreScore(fresh_state, *pod, snapshot_.node_infos()).IsSuccess());
      int64_t uniform = 0;
      EXPECT_EQ(kept_->UniformScore(kept_state, *pod, &uniform),
                fresh->UniformScore(fresh_state, *pod, &uniform));
      for (const NodeInfo* n : snapshot_.node_infos()) {
        int64_t kept_score = 0;
        int64_t fresh_score = 0;
        ASSERT_TRUE(kept_->Score(kept_state, *pod, *n, &kept_score).IsSuccess());
        ASSERT_TRUE(fresh->Score(fresh_state, *pod, *n, &fresh_score).IsSuccess());
        EXPECT_EQ(kept_score, fresh_score) << n->name();
      }
    }
  }

  // A count of the kept plugin's PreFilter for `pod`.
  int64_t AffinityCount(const PodPtr& pod, const std::string& zone) {
    CycleState state;
    PreFilterResult result;
    EXPECT_TRUE(kept_->PreFilter(state, *pod, &result).IsSuccess());
    return state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey)
        ->affinity_counts.Get(TopologyPair{"zone", zone});
  }
  int64_t ExistingAntiAffinityCount(const PodPtr& pod, const std::string& zone) {
    CycleState state;
    PreFilterResult result;
    kept_->PreFilter(state, *pod, &result);
    const auto* s = state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
    return s == nullptr ? 0 : s->existing_anti_affinity_counts.Get(TopologyPair{"zone", zone});
  }

  Snapshot snapshot_;
  ClusterObjects objects_;
  Handle handle_{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<FastInterPodAffinity> kept_;
  std::vector<PodPtr> incoming_;
};

TEST_F(AcrossCycles, FollowsPodsNodeLabelsAndNamespaceLabels) {
  ExpectSameAsNewPlugin("first cycle");
  ExpectSameAsNewPlugin("nothing changed");

  // A web pod in zone z2: db1's affinity now counts there.
  EXPECT_EQ(AffinityCount(incoming_[0], "z2"), 1);
  ChangeNode("n3", [](NodeInfo& n) {
    n.AddPod(MakePodInfo(MakePod("w2", "default", "app: web", "", "n3")));
  });
  EXPECT_EQ(AffinityCount(incoming_[0], "z2"), 2);
  ExpectSameAsNewPlugin("pod added");

  // ns2 joins team1: e1's anti-affinity now matches db2, though no node changed.
  EXPECT_EQ(ExistingAntiAffinityCount(incoming_[1], "z1"), 0);
  (*objects_.namespaces["ns2"].mutable_metadata()->mutable_labels())["team"] = "team1";
  EXPECT_EQ(ExistingAntiAffinityCount(incoming_[1], "z1"), 1);
  ExpectSameAsNewPlugin("namespace labels changed");

  // n2 moves to zone z2.
  ChangeNode("n2", [](NodeInfo& n) { n.SetNode(MakeNode("n2", "zone: z2, host: n2")); });
  ExpectSameAsNewPlugin("node labels changed");

  // e1 goes away.
  ChangeNode("n1", [](NodeInfo& n) { ASSERT_TRUE(n.RemovePod(*n.pods()[0]->pod)); });
  EXPECT_EQ(ExistingAntiAffinityCount(incoming_[1], "z1"), 0);
  ExpectSameAsNewPlugin("pod removed");

  // The incoming pods in other orders and namespaces do not see each other's entries.
  std::reverse(incoming_.begin(), incoming_.end());
  incoming_.push_back(MakePod("web2", "ns1", "app: web", "", ""));
  ExpectSameAsNewPlugin("other pods");
}

}  // namespace
}  // namespace schedcheck::reference::interpodaffinity::fast
