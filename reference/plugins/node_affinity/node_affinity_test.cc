#include "reference/plugins/node_affinity/node_affinity.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

std::string PodRequired(const std::string& terms) {
  return "metadata: {name: p}\nspec: {affinity: {nodeAffinity: "
         "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: " +
         terms + "}}}}";
}

struct FilterCase {
  std::string name;
  std::string pod;
  std::string node_labels;  // flow map
  Code want;
};

// Modelled on upstream nodeaffinity/node_affinity_test.go TestNodeAffinity (v1.27).
TEST(NodeAffinity, Filter) {
  const std::vector<FilterCase> cases = {
      {"no selector", "metadata: {name: p}", "{}", Code::kSuccess},
      {"missing labels", "metadata: {name: p}\nspec: {nodeSelector: {foo: bar}}", "{}",
       Code::kUnschedulableAndUnresolvable},
      {"same labels", "metadata: {name: p}\nspec: {nodeSelector: {foo: bar}}", "{foo: bar}",
       Code::kSuccess},
      {"In matches",
       PodRequired("[{matchExpressions: [{key: foo, operator: In, values: [bar, v2]}]}]"),
       "{foo: bar}", Code::kSuccess},
      {"Gt matches",
       PodRequired("[{matchExpressions: [{key: kernel, operator: Gt, values: ['0204']}]}]"),
       "{kernel: '0206'}", Code::kSuccess},
      {"Lt with non-integer label",
       PodRequired("[{matchExpressions: [{key: mem, operator: Lt, values: ['10']}]}]"),
       "{mem: abc}", Code::kUnschedulableAndUnresolvable},
      {"NotIn with missing key matches",
       PodRequired("[{matchExpressions: [{key: foo, operator: NotIn, values: [x]}]}]"), "{}",
       Code::kSuccess},
      {"DoesNotExist fails",
       PodRequired("[{matchExpressions: [{key: foo, operator: DoesNotExist}]}]"), "{foo: bar}",
       Code::kUnschedulableAndUnresolvable},
      {"empty terms list matches nothing", PodRequired("[]"), "{foo: bar}",
       Code::kUnschedulableAndUnresolvable},
      {"empty term matches nothing", PodRequired("[{}]"), "{foo: bar}",
       Code::kUnschedulableAndUnresolvable},
      {"terms are ORed",
       PodRequired("[{matchExpressions: [{key: a, operator: Exists}]}, "
                   "{matchExpressions: [{key: foo, operator: In, values: [bar]}]}]"),
       "{foo: bar}", Code::kSuccess},
      {"nodeSelector and affinity both required",
       "metadata: {name: p}\nspec: {nodeSelector: {x: y}, affinity: {nodeAffinity: "
       "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
       "[{matchExpressions: [{key: foo, operator: Exists}]}]}}}}",
       "{foo: bar}", Code::kUnschedulableAndUnresolvable},
  };
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  for (const FilterCase& c : cases) {
    auto pl = NodeAffinity::New(nullptr, h);
    ASSERT_TRUE(pl.ok());
    auto* na = dynamic_cast<NodeAffinity*>(pl.value().get());
    auto pod = testing::ParsePod(c.pod, CompatLevel::kV1_27);
    auto ni = testing::MakeNodeInfo(
        testing::ParseNode("metadata: {name: node1, labels: " + c.node_labels + "}"));
    CycleState state;
    PreFilterResult r;
    Status pre = na->PreFilter(state, *pod, &r);
    ASSERT_TRUE(pre.IsSuccess() || pre.IsSkip()) << c.name << ": " << pre.DebugString();
    Status s = na->Filter(state, *pod, *ni);
    EXPECT_EQ(s.code(), c.want) << c.name;
    if (c.want != Code::kSuccess) {
      EXPECT_EQ(s.reasons(),
                std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
    }
  }
}

struct PreFilterCase {
  std::string name;
  std::string pod;
  Code want;
  bool all_nodes;
  std::set<std::string> names;
};

TEST(NodeAffinity, PreFilter) {
  const std::vector<PreFilterCase> cases = {
      {"nothing to do skips", "metadata: {name: p}", Code::kSkip, true, {}},
      {"nodeSelector only",
       "metadata: {name: p}\nspec: {nodeSelector: {a: b}}",
       Code::kSuccess,
       true,
       {}},
      {"single name",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]"),
       Code::kSuccess,
       false,
       {"n1"}},
      {"union over terms",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}, "
                   "{matchFields: [{key: metadata.name, operator: In, values: [n2]}]}]"),
       Code::kSuccess,
       false,
       {"n1", "n2"}},
      {"intersection within a term",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1, n2]}, "
                   "{key: metadata.name, operator: In, values: [n2, n3]}]}]"),
       Code::kSuccess,
       false,
       {"n2"}},
      {"term without name field disables narrowing",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}, "
                   "{matchExpressions: [{key: a, operator: Exists}]}]"),
       Code::kSuccess,
       true,
       {}},
      {"NotIn does not narrow",
       PodRequired("[{matchFields: [{key: metadata.name, operator: NotIn, values: [n1]}]}]"),
       Code::kSuccess,
       true,
       {}},
      {"all terms conflict",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}, "
                   "{key: metadata.name, operator: In, values: [n2]}]}]"),
       Code::kUnschedulableAndUnresolvable,
       true,
       {}},
      {"one conflicting term, another term names a node",
       PodRequired("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}, "
                   "{key: metadata.name, operator: In, values: [n2]}]}, "
                   "{matchFields: [{key: metadata.name, operator: In, values: [n3]}]}]"),
       Code::kSuccess,
       false,
       {"n3"}},
  };
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  for (const PreFilterCase& c : cases) {
    NodeAffinity pl{NodeAffinityArgs{}, FeaturesFor(CompatLevel::kV1_27)};
    CycleState state;
    PreFilterResult r;
    Status s = pl.PreFilter(state, *testing::ParsePod(c.pod, CompatLevel::kV1_27), &r);
    EXPECT_EQ(s.code(), c.want) << c.name;
    EXPECT_EQ(r.all_nodes, c.all_nodes) << c.name;
    EXPECT_EQ(r.node_names, c.names) << c.name;
    if (c.want == Code::kUnschedulableAndUnresolvable) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"pod affinity terms conflict"});
    }
  }
}

TEST(NodeAffinity, AddedAffinityFilter) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  nlohmann::json args = nlohmann::json::parse(R"({"addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["foo"]}]}]}}})");
  auto pl = NodeAffinity::New(args, h);
  ASSERT_TRUE(pl.ok()) << pl.message();
  auto* na = dynamic_cast<NodeAffinity*>(pl.value().get());
  auto pod = testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27);
  CycleState state;
  PreFilterResult r;
  EXPECT_TRUE(na->PreFilter(state, *pod, &r).IsSuccess());  // added selector: no Skip
  auto bad = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n, labels: {zone: bar}}"));
  auto good = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n, labels: {zone: foo}}"));
  Status s = na->Filter(state, *pod, *bad);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(),
            std::vector<std::string>{"node(s) didn't match scheduler-enforced node affinity"});
  EXPECT_TRUE(na->Filter(state, *pod, *good).IsSuccess());
}

TEST(NodeAffinity, ScoreAndNormalize) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  nlohmann::json args = nlohmann::json::parse(R"({"addedAffinity": {
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 5, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}}]}})");
  auto pl = NodeAffinity::New(args, h);
  ASSERT_TRUE(pl.ok()) << pl.message();
  auto* na = dynamic_cast<NodeAffinity*>(pl.value().get());
  auto pod = testing::ParsePod(
      "metadata: {name: p}\nspec: {affinity: {nodeAffinity: "
      "{preferredDuringSchedulingIgnoredDuringExecution: ["
      "{weight: 2, preference: {matchExpressions: [{key: foo, operator: In, values: [bar]}]}}, "
      "{weight: 0, preference: {matchExpressions: [{key: foo, operator: Exists}]}}, "
      "{weight: 10, preference: {matchExpressions: [{key: disk, operator: Exists}]}}]}}}",
      CompatLevel::kV1_27);
  std::vector<std::shared_ptr<NodeInfo>> infos = {
      testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n1, labels: {foo: bar}}")),
      testing::MakeNodeInfo(
          testing::ParseNode("metadata: {name: n2, labels: {foo: bar, disk: ssd, zone: a}}")),
      testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n3}")),
  };
  std::vector<const NodeInfo*> ptrs = {infos[0].get(), infos[1].get(), infos[2].get()};
  CycleState state;
  ASSERT_TRUE(na->PreScore(state, *pod, ptrs).IsSuccess());
  NodeScoreList scores;
  for (const auto* ni : ptrs) {
    int64_t s = -1;
    ASSERT_TRUE(na->Score(state, *pod, *ni, &s).IsSuccess());
    scores.push_back({ni->name(), s});
  }
  EXPECT_EQ(scores[0].score, 2);
  EXPECT_EQ(scores[1].score, 17);
  EXPECT_EQ(scores[2].score, 0);
  ASSERT_TRUE(na->NormalizeScore(state, *pod, scores).IsSuccess());
  EXPECT_EQ(scores[0].score, 11);  // 100 * 2 / 17
  EXPECT_EQ(scores[1].score, 100);
  EXPECT_EQ(scores[2].score, 0);
}

TEST(NodeAffinity, InvalidPreferredTermIsPreScoreError) {
  NodeAffinity pl{NodeAffinityArgs{}, FeaturesFor(CompatLevel::kV1_27)};
  auto pod = testing::ParsePod(
      "metadata: {name: p}\nspec: {affinity: {nodeAffinity: "
      "{preferredDuringSchedulingIgnoredDuringExecution: ["
      "{weight: 2, preference: {matchExpressions: [{key: foo, operator: Gt, values: [x]}]}}]}}}",
      CompatLevel::kV1_27);
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  CycleState state;
  EXPECT_EQ(pl.PreScore(state, *pod, {ni.get()}).code(), Code::kError);
}

// Values that are not label values make NewPreferredSchedulingTerms fail; the error aggregates
// every term's errors with upstream's paths ("[i].matchExpressions[j]", no "preference"). The
// expected text is what v1.27.8's component-helpers prints for these terms.
TEST(NodeAffinity, PreferredTermErrorsAggregateAsUpstream) {
  NodeAffinity pl{NodeAffinityArgs{}, FeaturesFor(CompatLevel::kV1_27)};
  auto pod = testing::ParsePod(
      "metadata: {name: p}\nspec: {affinity: {nodeAffinity: "
      "{preferredDuringSchedulingIgnoredDuringExecution: ["
      "{weight: 1, preference: {matchExpressions: [{key: kubernetes.io/hostname, operator: In, "
      "values: [n1, 'has space']}, "
      "{key: rank, operator: Gt, values: ['-1']}]}}, "
      "{weight: 2, preference: {matchExpressions: [{key: rank, operator: Lt, values: "
      "['1.5']}]}}]}}}",
      CompatLevel::kV1_27);
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  CycleState state;
  Status s = pl.PreScore(state, *pod, {ni.get()});
  const std::string label =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and "
      "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
      "'12345', "
      "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(
      s.Message(),
      "[[0].matchExpressions[0].values[1][kubernetes.io/hostname]: Invalid value: \"has space\": " +
          label + ", [0].matchExpressions[1].values[0][rank]: Invalid value: \"-1\": " + label +
          ", [1].matchExpressions[0].values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' operators, "
          "the value must be an integer]");
}

TEST(NodeAffinity, ArgsValidation) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  const std::vector<std::string> bad = {
      R"({"unknown": 1})",
      R"({"addedAffinity": {"bogus": 1}})",
      R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "a", "operator": "In"}]}]}}})",
      R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.uid", "operator": "In", "values": ["x"]}]}]}}})",
      R"({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [{"key": "a", "operator": "Lt", "values": ["1", "2"]}]}}]}})",
  };
  for (const std::string& b : bad) {
    auto r = NodeAffinity::New(nlohmann::json::parse(b), h);
    EXPECT_FALSE(r.ok()) << b;
    if (!r.ok()) {
      EXPECT_NE(r.message().find(b.find("unknown") != std::string::npos ? "unknown" : "ffinity"),
                std::string::npos)
          << r.message();
    }
  }
  auto good = NodeAffinity::New(nlohmann::json::parse(R"({"addedAffinity": {
      "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0, "preference": {"matchExpressions": [{"key": "a", "operator": "Lt"}]}}]}})"),
                                h);
  EXPECT_TRUE(good.ok()) << "weight-0 terms are dropped before validation";
}

TEST(NodeAffinity, Events) {
  auto e = NodeAffinity(NodeAffinityArgs{}, FeaturesFor(CompatLevel::kV1_27)).EventsToRegister();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].action, action::kAdd | action::kUpdate);
}

}  // namespace
}  // namespace schedcheck::reference
