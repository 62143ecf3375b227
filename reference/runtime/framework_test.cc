#include "reference/runtime/framework.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>

#include "reference/plugins/registry.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

std::vector<std::string>* g_calls = nullptr;

// A configurable fake implementing many points; behaviour comes from its args.
class Fake : public QueueSortPlugin,
             public PreFilterPlugin,
             public FilterPlugin,
             public ScorePlugin,
             public ReservePlugin,
             public BindPlugin {
 public:
  Fake(std::string name, nlohmann::json args) : name_(std::move(name)), args_(std::move(args)) {}
  std::string_view Name() const override { return name_; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
  Status PreFilter(CycleState&, const Pod&, PreFilterResult* r) override {
    if (args_.contains("nodes")) {
      r->all_nodes = false;
      for (const auto& n : args_["nodes"]) r->node_names.insert(n.get<std::string>());
    }
    return Code(args_.value("prefilter", "Success"));
  }
  Status Filter(const CycleState&, const Pod&, const NodeInfo&) override {
    g_calls->push_back("Filter " + name_);
    return Status(Code(args_.value("filter", "Success")).code(), "reason of " + name_);
  }
  Status Score(const CycleState&, const Pod&, const NodeInfo& node, int64_t* score) override {
    *score = args_.value("score", 10);
    if (args_.contains("scores")) *score = args_["scores"].value(node.name(), 0);
    return Status();
  }
  // With "reverse": DefaultNormalizeScore(100, reverse = true).
  bool HasNormalizeScore() const override { return args_.contains("reverse"); }
  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList& scores) override {
    int64_t max = 0;
    for (const NodeScore& s : scores) max = std::max(max, s.score);
    for (NodeScore& s : scores) s.score = max == 0 ? 100 : 100 - s.score * 100 / max;
    return Status();
  }
  Status Reserve(CycleState&, const Pod&, const std::string&) override {
    g_calls->push_back("Reserve " + name_);
    return Code(args_.value("reserve", "Success"));
  }
  void Unreserve(CycleState&, const Pod&, const std::string&) override {
    g_calls->push_back("Unreserve " + name_);
  }
  Status Bind(CycleState&, const Pod&, const std::string&) override {
    return Code(args_.value("bind", "Success"));
  }

 private:
  static Status Code(const std::string& name) {
    reference::Code c;
    EXPECT_TRUE(ParseCode(name, &c)) << name;
    return Status(c);
  }
  std::string name_;
  nlohmann::json args_;
};

class FrameworkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls = &calls_;
    for (const char* n : {"A", "B", "C", "D"}) {
      std::string name = n;
      (void)registry_.Register(
          name, [name](const PluginArgs& args, const Handle&) -> Result<std::unique_ptr<Plugin>> {
            return std::unique_ptr<Plugin>(
                std::make_unique<Fake>(name, args.is_null() ? nlohmann::json::object() : args));
          });
    }
  }
  std::unique_ptr<Framework> Make(const Profile& p) {
    auto fw = Framework::Create(p, registry_, &handle_);
    EXPECT_TRUE(fw.ok()) << (fw.ok() ? "" : fw.message());
    return fw.ok() ? std::move(*fw) : nullptr;
  }
  Registry registry_;
  Handle handle_{FeaturesFor(CompatLevel::kV1_27)};
  std::vector<std::string> calls_;
  NodeInfo node_{std::make_shared<Node>()};
  Pod pod_;
};

Profile MultiPoint(std::vector<PluginEntry> entries) {
  Profile p;
  p.at(ExtensionPoint::kMultiPoint).enabled = std::move(entries);
  return p;
}

TEST_F(FrameworkTest, MultiPointOrderOverridesFirstThenMultiPointThenExplicit) {
  Profile p = MultiPoint({{"A", 0}, {"B", 0}, {"C", 0}});
  p.at(ExtensionPoint::kFilter).enabled = {{"D", 0}, {"B", 0}};
  p.at(ExtensionPoint::kScore).disabled = {{"A", 0}};
  p.at(ExtensionPoint::kQueueSort).disabled = {{"*", 0}};
  p.at(ExtensionPoint::kQueueSort).enabled = {{"C", 0}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->PluginNames(ExtensionPoint::kFilter),
            (std::vector<std::string>{"B", "A", "C", "D"}));
  EXPECT_EQ(fw->PluginNames(ExtensionPoint::kScore), (std::vector<std::string>{"B", "C"}));
  EXPECT_EQ(fw->PluginNames(ExtensionPoint::kQueueSort), (std::vector<std::string>{"C"}));
}

// The score list of each case after MultiPoint expansion. Expectations follow the loops of
// expandMultiPointPlugins at each tag (source: k8s.io/kubernetes@v1.27.8 and @v1.37.2,
// pkg/scheduler/framework/runtime/framework.go, expandMultiPointPlugins and orderedSet.delete):
// part 1 walks the explicit list (v1.27: the slice being deleted from, so the plugin after a
// deleted one is passed by and the last one is read again; v1.37: slices.Clone of it), appending
// and deleting each plugin also in MultiPoint; part 2 the MultiPoint-only plugins; part 3 what is
// left of the explicit list.
TEST_F(FrameworkTest, MultiPointExpansionRepeatsAndPassesByAt127Only) {
  struct Case {
    std::vector<std::string> multi_point, score;
    std::vector<std::string> want_1_27, want_1_37;
  };
  const std::vector<Case> cases = {
      // Upstream at 1.27: [A B C] -> A, deleted (array B C C), reads C (B passed by), deleted
      // (array B C C, list [B]), reads C again; part 2 D; part 3 B.
      {{"A", "B", "C", "D"}, {"A", "B", "C"}, {"A", "C", "C", "D", "B"}, {"A", "B", "C", "D"}},
      // Two overrides next to each other: the second moves onto the first's place and is read
      // at the next position: no change.
      {{"A", "B", "C", "D"}, {"B", "A"}, {"B", "A", "C", "D"}, {"B", "A", "C", "D"}},
      // An explicit-only plugin between two overrides: A deleted (array D B B), D is not an
      // override, B read at position 2 (array D B B -> list [D]) and read again.
      {{"A", "B", "C"}, {"A", "D", "B"}, {"A", "B", "B", "C", "D"}, {"A", "B", "C", "D"}},
      // Four overrides: A (array B C D D), C (array B D D D), D, D again; B in part 3.
      {{"A", "B", "C", "D"}, {"A", "B", "C", "D"}, {"A", "C", "D", "D", "B"}, {"A", "B", "C", "D"}},
      // The last plugin an override alone: nothing shifts.
      {{"A", "B", "C"}, {"D", "C"}, {"C", "A", "B", "D"}, {"C", "A", "B", "D"}},
  };
  for (CompatLevel level : {CompatLevel::kV1_27, CompatLevel::kV1_37}) {
    Handle handle{FeaturesFor(level)};
    for (const Case& c : cases) {
      Profile p;
      for (const std::string& n : c.multi_point)
        p.at(ExtensionPoint::kMultiPoint).enabled.push_back({n, 0});
      for (const std::string& n : c.score) p.at(ExtensionPoint::kScore).enabled.push_back({n, 0});
      p.at(ExtensionPoint::kQueueSort).disabled = {{"*", 0}};
      p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
      auto fw = Framework::Create(p, registry_, &handle);
      ASSERT_TRUE(fw.ok()) << fw.message();
      const auto& want = level == CompatLevel::kV1_27 ? c.want_1_27 : c.want_1_37;
      EXPECT_EQ((*fw)->PluginNames(ExtensionPoint::kScore), want)
          << CompatLevelName(level) << " score " << ::testing::PrintToString(c.score);
      // Every extension point expands alike: the Filter list (explicit the same) too.
      p.at(ExtensionPoint::kFilter).enabled = p.at(ExtensionPoint::kScore).enabled;
      auto with_filter = Framework::Create(p, registry_, &handle);
      ASSERT_TRUE(with_filter.ok()) << with_filter.message();
      EXPECT_EQ((*with_filter)->PluginNames(ExtensionPoint::kFilter), want);
      const bool repeats = std::set<std::string>(want.begin(), want.end()).size() < want.size();
      EXPECT_EQ((*fw)->RepeatsAScorePlugin(), repeats);
    }
  }
}

// A plugin listed twice at Score shares one score list (upstream's pluginToNodeScores is keyed
// by name): its NormalizeScore runs on that list once per listing, and the list's final scores
// count once per listing (source: k8s.io/kubernetes@v1.27.8
// pkg/scheduler/framework/runtime/framework.go RunScorePlugins).
TEST_F(FrameworkTest, RepeatedScorePluginNormalizesItsOneListTwiceAndCountsTwice) {
  Profile p = MultiPoint({{"A", 0}, {"B", 0}, {"C", 0}, {"D", 0}});
  p.at(ExtensionPoint::kQueueSort).disabled = {{"*", 0}};
  p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kScore).enabled = {{"A", 1}, {"B", 1}, {"C", 3}};
  p.plugin_config["C"] = {{"scores", {{"n1", 1}, {"n2", 0}}}, {"reverse", true}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  ASSERT_EQ(fw->PluginNames(ExtensionPoint::kScore),
            (std::vector<std::string>{"A", "C", "C", "D", "B"}));
  const NodeInfo n1(testing::ParseNode("metadata: {name: n1}"));
  const NodeInfo n2(testing::ParseNode("metadata: {name: n2}"));
  CycleState state;
  std::vector<NodePluginScores> scores;
  ASSERT_TRUE(fw->RunScorePlugins(state, pod_, {&n1, &n2}, &scores).IsSuccess());
  // C: raw n1 1, n2 0; reversed once n1 0, n2 100; reversed again (max 100) n1 100, n2 0.
  ASSERT_EQ(scores[0].scores.size(), 5u);
  for (size_t j : {1u, 2u}) {
    EXPECT_EQ(scores[0].scores[j].plugin, "C");
    EXPECT_EQ(scores[0].scores[j].raw, 1);
    EXPECT_EQ(scores[0].scores[j].normalized, 100);
    EXPECT_EQ(scores[0].scores[j].weighted, 300);
    EXPECT_EQ(scores[1].scores[j].normalized, 0);
  }
  // A, D, B score 10 each with weight 1.
  EXPECT_EQ(scores[0].total, 10 + 300 + 300 + 10 + 10);
  EXPECT_EQ(scores[1].total, 30);
}

// NodeResourcesFit and NodeResourcesBalancedAllocation are PreScore plugins at both levels
// (source: k8s.io/kubernetes@v1.27.8 and @v1.37.2 pkg/scheduler/framework/plugins/noderesources,
// fit.go and balanced_allocation.go, `var _ framework.PreScorePlugin`), so upstream takes a
// profile listing them at preScore.
TEST(DefaultPluginsTest, ResourcePluginsArePreScorePlugins) {
  for (CompatLevel level : {CompatLevel::kV1_27, CompatLevel::kV1_37}) {
    Handle handle{FeaturesFor(level)};
    Profile p = DefaultProfile(CompatLevelName(level));
    p.at(ExtensionPoint::kPreScore).enabled = {{"NodeResourcesBalancedAllocation", 0},
                                               {"NodeResourcesFit", 0}};
    auto fw = Framework::Create(p, PluginRegistry(), &handle);
    ASSERT_TRUE(fw.ok()) << CompatLevelName(level) << ": " << fw.message();
    const std::vector<std::string> names = (*fw)->PluginNames(ExtensionPoint::kPreScore);
    ASSERT_GE(names.size(), 2u);
    EXPECT_EQ(names[0], "NodeResourcesBalancedAllocation");
    EXPECT_EQ(names[1], "NodeResourcesFit");
  }
}

TEST_F(FrameworkTest, ConfigErrors) {
  Profile two_sorts = MultiPoint({{"A", 0}, {"B", 0}});
  EXPECT_FALSE(Framework::Create(two_sorts, registry_, &handle_).ok());
  Profile unknown = MultiPoint({{"A", 0}, {"Nope", 0}});
  auto r = Framework::Create(unknown, registry_, &handle_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("\"Nope\" does not exist"), std::string::npos) << r.message();
  Profile dup = MultiPoint({{"A", 0}, {"A", 0}});
  EXPECT_FALSE(Framework::Create(dup, registry_, &handle_).ok());
}

TEST_F(FrameworkTest, ScoreWeightsExplicitWinsAndZeroIsOne) {
  Profile p = MultiPoint({{"A", 5}, {"B", 0}});
  p.at(ExtensionPoint::kQueueSort).disabled = {{"*", 0}};
  p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kScore).enabled = {{"A", 7}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->ScoreWeight("A"), 7);
  EXPECT_EQ(fw->ScoreWeight("B"), 1);
  CycleState state;
  std::vector<NodePluginScores> scores;
  ASSERT_TRUE(fw->RunScorePlugins(state, pod_, {&node_}, &scores).IsSuccess());
  EXPECT_EQ(scores[0].total, 7 * 10 + 10);
}

TEST_F(FrameworkTest, FilterShortCircuitsAndSkipsPreFilterSkips) {
  Profile p;
  p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kBind).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kPreFilter).enabled = {{"B", 0}};
  p.at(ExtensionPoint::kFilter).enabled = {{"B", 0}, {"C", 0}, {"D", 0}};
  p.plugin_config["B"] = {{"prefilter", "Skip"}, {"filter", "Unschedulable"}};
  p.plugin_config["C"] = {{"filter", "UnschedulableAndUnresolvable"}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  CycleState state;
  PreFilterResult result;
  ASSERT_TRUE(fw->RunPreFilterPlugins(state, pod_, &result).IsSuccess());
  Status s = fw->RunFilterPlugins(state, pod_, node_);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.plugin(), "C");
  EXPECT_EQ(calls_, (std::vector<std::string>{"Filter C"}));
}

TEST_F(FrameworkTest, PreFilterResultsIntersectAndEmptyIntersectionRejects) {
  Profile p;
  p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kBind).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kPreFilter).enabled = {{"B", 0}, {"C", 0}};
  p.plugin_config["B"] = {{"nodes", {"n1", "n2"}}};
  p.plugin_config["C"] = {{"nodes", {"n3"}}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  CycleState state;
  PreFilterResult result;
  Status s = fw->RunPreFilterPlugins(state, pod_, &result);
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) didn't satisfy plugin(s) [B C] simultaneously");
}

TEST_F(FrameworkTest, ReserveFailureUnreservesAllInReverseAndBindSkipsToNext) {
  Profile p;
  p.at(ExtensionPoint::kQueueSort).enabled = {{"A", 0}};
  p.at(ExtensionPoint::kReserve).enabled = {{"A", 0}, {"B", 0}, {"C", 0}};
  p.at(ExtensionPoint::kBind).enabled = {{"B", 0}, {"C", 0}};
  p.plugin_config["B"] = {{"reserve", "Error"}, {"bind", "Skip"}};
  p.plugin_config["C"] = {{"bind", "Unschedulable"}};
  auto fw = Make(p);
  ASSERT_TRUE(fw);
  CycleState state;
  Status s = fw->RunReservePluginsReserve(state, pod_, "n");
  EXPECT_EQ(s.code(), Code::kError);
  fw->RunReservePluginsUnreserve(state, pod_, "n");
  EXPECT_EQ(calls_, (std::vector<std::string>{"Reserve A", "Reserve B", "Unreserve C",
                                              "Unreserve B", "Unreserve A"}));
  Status b = fw->RunBindPlugins(state, pod_, "n");
  EXPECT_EQ(b.code(), Code::kUnschedulable);
  EXPECT_EQ(b.plugin(), "C");
}

TEST(MergePluginSetTest, ReconfiguredDefaultKeepsPositionAndStarDropsDefaults) {
  PluginSet defaults{{{"A", 1}, {"B", 1}, {"C", 1}}, {}};
  PluginSet custom{{{"D", 1}, {"B", 5}}, {{"C", 0}}};
  PluginSet merged = MergePluginSet(defaults, custom);
  ASSERT_EQ(merged.enabled.size(), 3u);
  EXPECT_EQ(merged.enabled[0].name, "A");
  EXPECT_EQ(merged.enabled[1].name, "B");
  EXPECT_EQ(merged.enabled[1].weight, 5);
  EXPECT_EQ(merged.enabled[2].name, "D");
  PluginSet star = MergePluginSet(defaults, PluginSet{{{"D", 0}}, {{"*", 0}}});
  ASSERT_EQ(star.enabled.size(), 1u);
  EXPECT_EQ(star.enabled[0].name, "D");
}

TEST(SchedulerConfigurationTest, ParsesProfilesAndRejectsUnknownFields) {
  auto doc = nlohmann::json::parse(R"({
    "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
    "percentageOfNodesToScore": 50,
    "profiles": [{"schedulerName": "a", "plugins": {"score": {"disabled": [{"name": "*"}],
                  "enabled": [{"name": "ImageLocality", "weight": 4}]}},
                  "pluginConfig": [{"name": "NodeResourcesFit", "args": {"ignoredResources": ["x/y"]}}]}]})");
  auto c = ParseSchedulerConfiguration(doc, "cfg.yaml", "1.27");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->percentage_of_nodes_to_score, 50);
  ASSERT_EQ(c->profiles.size(), 1u);
  const Profile& p = c->profiles[0];
  EXPECT_EQ(p.scheduler_name, "a");
  EXPECT_EQ(p.at(ExtensionPoint::kScore).enabled.size(), 1u);
  EXPECT_EQ(p.at(ExtensionPoint::kScore).disabled[0].name, "*");
  EXPECT_EQ(p.at(ExtensionPoint::kMultiPoint).enabled.size(), DefaultMultiPoint("1.27").size());
  EXPECT_TRUE(p.plugin_config.count("NodeResourcesFit"));

  doc["profiles"][0]["plugins"]["scroe"] = nlohmann::json::object();
  auto bad = ParseSchedulerConfiguration(doc, "cfg.yaml", "1.27");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("profiles[0].plugins.scroe"), std::string::npos) << bad.message();
}

// v1.37 applyFeatureGates appends GangScheduling to the default MultiPoint list with
// GenericWorkload; mergePluginSet then keeps the defaults first, so a plugin only the user enabled
// comes after it.
TEST(SchedulerConfigurationTest, GenericWorkloadAppendsGangSchedulingToTheDefaults) {
  auto names = [](const Profile& p) {
    std::vector<std::string> out;
    for (const PluginEntry& e : p.at(ExtensionPoint::kMultiPoint).enabled) out.push_back(e.name);
    return out;
  };
  auto parse = [](const std::string& plugins) {
    auto doc = nlohmann::json::parse(
        R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
            "profiles": [{"schedulerName": "a", "plugins": {"multiPoint": )" +
        plugins + "}}]}");
    auto c = ParseSchedulerConfiguration(doc, "cfg.yaml", "1.37");
    EXPECT_TRUE(c.ok()) << c.message();
    return c.ok() ? c->profiles[0] : Profile();
  };
  // The features of a run at 1.37 with GenericWorkload set to `on`.
  auto generic_workload = [](bool on) {
    return *FeaturesFor(CompatLevel::kV1_37, {{"GenericWorkload", on}});
  };
  std::vector<std::string> want = names(DefaultProfile("1.37"));
  want.push_back("GangScheduling");
  EXPECT_EQ(names(WithGatedDefaultPlugins(DefaultProfile("1.37"), generic_workload(true))), want);
  EXPECT_EQ(names(WithGatedDefaultPlugins(DefaultProfile("1.37"), generic_workload(false))),
            names(DefaultProfile("1.37")));
  EXPECT_EQ(
      names(WithGatedDefaultPlugins(DefaultProfile("1.27"), FeaturesFor(CompatLevel::kV1_27))),
      names(DefaultProfile("1.27")));

  // A plugin of the user's own comes after it; a user's GangScheduling entry takes its place
  // with its weight.
  Profile own = WithGatedDefaultPlugins(
      parse(R"({"enabled": [{"name": "CreationDelay"}, {"name": "GangScheduling", "weight": 3}]})"),
      generic_workload(true));
  const std::vector<std::string> got = names(own);
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(got[got.size() - 2], "GangScheduling");
  EXPECT_EQ(got.back(), "CreationDelay");
  EXPECT_EQ(own.at(ExtensionPoint::kMultiPoint).enabled[got.size() - 2].weight, 3);
  EXPECT_EQ(std::count(got.begin(), got.end(), "GangScheduling"), 1);

  // Disabled by name or with every default: not added.
  for (const char* disabled : {"GangScheduling", "*"}) {
    Profile p = WithGatedDefaultPlugins(
        parse(std::string(R"({"disabled": [{"name": ")") + disabled + R"("}]})"),
        generic_workload(true));
    const std::vector<std::string> n = names(p);
    EXPECT_EQ(std::count(n.begin(), n.end(), "GangScheduling"), 0) << disabled;
  }
}

// Errors of a YAML file point at the line of the offending field, not of the document.
TEST(SchedulerConfigurationTest, FileErrorsNameTheFieldsLine) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/cfg.yaml";
  const std::string head =
      "# a comment\n"                                 // 1
      "apiVersion: kubescheduler.config.k8s.io/v1\n"  // 2
      "kind: KubeSchedulerConfiguration\n"            // 3
      "profiles:\n"                                   // 4
      "  - schedulerName: default-scheduler\n"        // 5
      "    plugins:\n"                                // 6
      "      score:\n"                                // 7
      "        enabled:\n"                            // 8
      "          - name: NodeResourcesFit\n"          // 9
      "            weight: 5\n";                      // 10
  struct Case {
    std::string tail;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"bogusTop: 2\n", "cfg.yaml: line 11: field bogusTop: unknown field"},
      {"percentageOfNodesToScore: 101\n",
       "cfg.yaml: line 11: field percentageOfNodesToScore: must be in [0, 100]"},
      {"podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
       "cfg.yaml: line 12: field podMaxBackoffSeconds: must be >= podInitialBackoffSeconds"},
      {"  - schedulerName: default-scheduler\n",
       "cfg.yaml: line 11: field profiles[1].schedulerName: duplicate profile"},
      {"  - schedulerName: b\n    plugins:\n      score:\n        enabled:\n"
       "          - {name: X, weight: -1}\n",
       "cfg.yaml: line 15: field profiles[1].plugins.score.enabled[0].weight: must be between"},
      {"  - schedulerName: b\n    pluginConfig:\n      - name: NodeResourcesFit\n"
       "      - name: NodeResourcesFit\n",
       "cfg.yaml: line 14: field profiles[1].pluginConfig[1]: duplicate config for plugin"},
  };
  for (const Case& c : cases) {
    std::ofstream(path) << head << c.tail;
    auto config = LoadSchedulerConfiguration(path, "1.27");
    ASSERT_FALSE(config.ok()) << c.tail;
    const std::string got = config.message().substr(config.message().find("cfg.yaml: "));
    EXPECT_EQ(got.rfind(c.want, 0), 0u) << c.tail << "\n" << config.message();
  }
}

}  // namespace
}  // namespace schedcheck::reference
