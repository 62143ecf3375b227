#include "reference/scheduler/opportunistic_batch.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// batch_test.go's BatchTestPlugin: a node holds one "blocking" pod at most.
class BlockingFilter : public QueueSortPlugin, public FilterPlugin, public BindPlugin {
 public:
  std::string_view Name() const override { return "BlockingFilter"; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) override {
    if (!pod.labels().contains("blocking")) return Status();
    for (const auto& on_node : node.pods()) {
      if (on_node->pod->labels().contains("blocking"))
        return Status(Code::kUnschedulable, "unsched");
    }
    return Status();
  }
  Status Bind(CycleState&, const Pod&, const std::string&) override { return Status(); }
};

// batch_test.go newTestNodes: a list popped front first.
std::optional<SortedScoredNodes> Nodes(const std::vector<std::string>& names) {
  std::vector<ScoredNode> scored;
  for (size_t i = 0; i < names.size(); ++i)
    scored.push_back({names[i], static_cast<int64_t>(names.size() - i), {}});
  return SortedScoredNodes(std::move(scored));
}

struct Row {
  std::string name;
  bool first_blocking = true;
  std::string first_sig = "sig";
  bool first_scheduled = true;
  std::optional<std::vector<std::string>> first_other_nodes = std::vector<std::string>{"n1"};
  int64_t second_cycle = 2;  // 3: a pod of another profile came between; 1: the same cycle
  bool second_blocking = true;
  std::string second_nominated;
  std::string second_sig = "sig";
  std::string second_chosen = "n1";
  bool generic_workload = false;
  std::string expected_hint;
  std::vector<std::string> expected_state;  // the nodes left, in pop order (empty: no state)
};

// kubernetes v1.37.2 pkg/scheduler/framework/runtime/batch_test.go TestBatchBasic, every row. The
// first pod was given n3, whose NodeInfo holds it; the snapshot has n3 alone.
TEST(OpportunisticBatchTest, BatchBasic) {
  const std::vector<Row> rows = {
      {.name = "a second pod with the same signature gets a hint", .expected_hint = "n1"},
      {.name = "a second pod with a different signature doesn't get a hint",
       .first_blocking = false,
       .second_blocking = false,
       .second_sig = "sig2"},
      {.name = "pod doesn't get hint if previous pod didn't scheduled", .first_scheduled = false},
      {.name = "empty list",
       .first_other_nodes = std::vector<std::string>{},
       .second_chosen = "n4"},
      {.name = "nil list", .first_other_nodes = std::nullopt, .second_chosen = "n4"},
      {.name = "pod doesn't get hint because the previous pod is to a different profile",
       .second_cycle = 3},
      {.name = "pod doesn't use batch from preceding pod when they are from the same cycle state, "
               "but GenericWorkload is disabled",
       .second_cycle = 1},
      {.name = "pod uses batch from preceding pod when they are from the same cycle state and "
               "GenericWorkload is enabled",
       .second_cycle = 1,
       .generic_workload = true,
       .expected_hint = "n1"},
      {.name = "pod uses batch from preceding pod and leaves remaining batch to next pod",
       .first_other_nodes = std::vector<std::string>{"n1", "n2"},
       .expected_hint = "n1",
       .expected_state = {"n2"}},
      {.name = "a second pod with a nominated node does not get a hint", .second_nominated = "n1"},
  };
  Registry registry;
  (void)registry.Register("BlockingFilter", NoArgs<BlockingFilter>());
  Profile profile;
  profile.at(ExtensionPoint::kMultiPoint).enabled = {{"BlockingFilter", 0}};
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw = std::move(*Framework::Create(profile, registry, &handle));
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    auto labels = [](bool blocking) { return std::string(blocking ? "{blocking: x}" : "{}"); };
    PodPtr first = ParsePod(
        "metadata: {name: pod, labels: " + labels(row.first_blocking) + "}\nspec: {nodeName: n3}",
        CompatLevel::kV1_37);
    PodPtr second = ParsePod("metadata: {name: pod2, labels: " + labels(row.second_blocking) +
                                 "}\nstatus: {nominatedNodeName: '" + row.second_nominated + "'}",
                             CompatLevel::kV1_37);
    Snapshot snapshot = testing::MakeSnapshot({ParseNode("metadata: {name: n3}")}, {first});
    CycleState state;
    OpportunisticBatch batch(row.generic_workload);
    const int64_t now = 0;
    auto first_sig = std::make_shared<const std::string>(row.first_sig);
    EXPECT_EQ(batch.GetNodeHint(*fw, snapshot, *first, first_sig, state, 1, now), "");
    if (row.first_scheduled) {
      batch.StoreScheduleResults(
          first_sig, "", "n3", row.first_other_nodes ? Nodes(*row.first_other_nodes) : std::nullopt,
          1, now);
    }
    auto second_sig = std::make_shared<const std::string>(row.second_sig);
    const std::string hint =
        batch.GetNodeHint(*fw, snapshot, *second, second_sig, state, row.second_cycle, now);
    EXPECT_EQ(hint, row.expected_hint);
    batch.StoreScheduleResults(second_sig, hint, row.second_chosen, std::nullopt, row.second_cycle,
                               now);
    EXPECT_EQ(batch.RemainingNodes(), row.expected_state);
  }
}

}  // namespace
}  // namespace schedcheck::reference
