// SchedulingQueueInterface through NewSchedulingQueue: each scenario whose outcome is the same at
// both levels runs on the queue of each level; the scenarios after them show that the factory
// built the level's own queue (where the levels differ) and honours its gates.
#include "reference/queue/new_scheduling_queue.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParsePod;
constexpr int64_t kSec = kNanosPerSecond;
constexpr const char* kPlugin = "fooPlugin";

PodPtr MakePod(const std::string& name, int priority = 0, const std::string& spec_extra = "") {
  return ParsePod("metadata: {name: " + name + ", namespace: default, uid: " + name +
                      "}\nspec: {priority: " + std::to_string(priority) +
                      ", containers: [{name: c}]" + spec_extra + "}\n",
                  CompatLevel::kV1_27);
}

const ClusterEvent kNodeAdd{std::string(resource::kNode), action::kAdd, "NodeAdd"};
const ClusterEvent kPvAdd{std::string(resource::kPersistentVolume), action::kAdd, "PvAdd"};

// One profile ("default-scheduler", as the pods name): PrioritySort, a SchedulingGates-like
// PreEnqueue plugin, and kPlugin interested in node adds (a v1.27 registration and a v1.37 hint
// answering Queue).
QueueSetup MakeSetup() {
  QueueSetup setup;
  setup.less = [](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    if (a.pod().priority != b.pod().priority) return a.pod().priority > b.pod().priority;
    return a.timestamp_ns < b.timestamp_ns;
  };
  QueueProfile& profile = setup.profiles["default-scheduler"];
  setup.profile_order.push_back("default-scheduler");
  profile.pre_enqueue.push_back({"SchedulingGates", [](const Pod& pod) {
                                   if (pod.obj.spec().scheduling_gates_size() == 0) return Status();
                                   return Status(Code::kUnschedulableAndUnresolvable, "gated");
                                 }});
  profile.events.push_back({ClusterEvent{std::string(resource::kNode), action::kAdd, ""}, kPlugin});
  profile.hints.Add({std::string(resource::kNode), action::kAdd, ""},
                    {kPlugin, [](const Pod&, const EventObjects&) -> Result<QueueingHint> {
                       return QueueingHint::kQueue;
                     }});
  return setup;
}

std::vector<std::string> Keys(std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* n : names) out.push_back(std::string("default/") + n);
  return out;
}

class InterfaceTest : public ::testing::TestWithParam<CompatLevel> {
 protected:
  InterfaceTest() : queue_(Make(GetParam(), {})) {}

  std::unique_ptr<SchedulingQueueInterface> Make(CompatLevel level, const FeatureGates& gates) {
    return NewSchedulingQueue(*FeaturesFor(level, gates), QueueOptions{}, clock_, MakeSetup(), {});
  }
  // Pops `name` and fails it with kPlugin as the rejector.
  void PopAndFail(const std::string& name) {
    std::optional<QueuedPodInfo> info = queue_->Pop();
    ASSERT_TRUE(info.has_value());
    ASSERT_EQ(info->pod().key, "default/" + name);
    info->unschedulable_plugins = {kPlugin};
    ASSERT_TRUE(queue_->AddUnschedulableIfNotPresent(*info, queue_->SchedulingCycle()).ok());
  }

  VirtualClock clock_;
  std::unique_ptr<SchedulingQueueInterface> queue_;
};

TEST_P(InterfaceTest, PopsByPriorityThenArrival) {
  queue_->Add(MakePod("low", 1));
  clock_.AdvanceNs(1);
  queue_->Add(MakePod("high", 10));
  clock_.AdvanceNs(1);
  queue_->Add(MakePod("high2", 10));
  EXPECT_EQ(queue_->ActiveQKeys(), Keys({"high", "high2", "low"}));
  EXPECT_EQ(queue_->Len(), 3u);
  std::optional<QueuedPodInfo> first = queue_->Pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->pod().key, "default/high");
  EXPECT_EQ(first->attempts, 1);
  EXPECT_EQ(queue_->SchedulingCycle(), 1);
  EXPECT_EQ(queue_->InFlightKeys(), Keys({"high"}));
  queue_->Done(first->pod());
  EXPECT_TRUE(queue_->InFlightKeys().empty());
  EXPECT_EQ(queue_->Len(), 2u);
}

TEST_P(InterfaceTest, FailedPodWaitsForItsEventThenBacksOff) {
  queue_->Add(MakePod("p"));
  PopAndFail("p");
  EXPECT_EQ(queue_->UnschedulableKeys(), Keys({"p"}));
  // An event kPlugin did not register leaves it; its node add moves it to backoffQ (1 s).
  queue_->MoveAllToActiveOrBackoffQueue(kPvAdd, {}, nullptr);
  EXPECT_EQ(queue_->UnschedulableKeys(), Keys({"p"}));
  queue_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, nullptr);
  EXPECT_EQ(queue_->BackoffQKeys(), Keys({"p"}));
  ASSERT_NE(queue_->Find("default/p"), nullptr);
  EXPECT_TRUE(queue_->IsPodBackingOff(*queue_->Find("default/p")));
  std::optional<int64_t> next = queue_->NextMoveInstantNs(clock_.NowNs());
  ASSERT_TRUE(next.has_value());
  clock_.SetNs(*next);
  queue_->FlushBackoffQCompleted();
  EXPECT_EQ(queue_->ActiveQKeys(), Keys({"p"}));
  EXPECT_FALSE(queue_->NextMoveInstantNs(clock_.NowNs()).has_value());
}

TEST_P(InterfaceTest, PreCheckKeepsPodsItRefuses) {
  queue_->Add(MakePod("a"));
  queue_->Add(MakePod("b"));
  PopAndFail("a");
  PopAndFail("b");
  queue_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {},
                                        [](const Pod& pod) { return pod.name() == "b"; });
  EXPECT_EQ(queue_->UnschedulableKeys(), Keys({"a"}));
  EXPECT_EQ(queue_->BackoffQKeys(), Keys({"b"}));
}

TEST_P(InterfaceTest, GatedPodWaitsInThePool) {
  queue_->Add(MakePod("g", 0, ", schedulingGates: [{name: x}]"));
  EXPECT_EQ(queue_->UnschedulableKeys(), Keys({"g"}));
  EXPECT_FALSE(queue_->Pop().has_value());
  queue_->Delete(*MakePod("g"));
  EXPECT_EQ(queue_->Len(), 0u);
}

TEST_P(InterfaceTest, ActivateMovesPoolAndIgnoresUnknownPods) {
  queue_->Add(MakePod("p"));
  PopAndFail("p");
  queue_->Activate({MakePod("p"), MakePod("stranger")});
  EXPECT_EQ(queue_->ActiveQKeys(), Keys({"p"}));
  EXPECT_TRUE(queue_->UnschedulableKeys().empty());
  EXPECT_EQ(queue_->Find("default/stranger"), nullptr);
}

TEST_P(InterfaceTest, RequeueOfAQueuedPodIsRefused) {
  queue_->Add(MakePod("p"));
  std::optional<QueuedPodInfo> info = queue_->Pop();
  ASSERT_TRUE(info.has_value());
  queue_->Add(MakePod("p"));  // added again while in flight
  info->unschedulable_plugins = {kPlugin};
  EXPECT_FALSE(queue_->AddUnschedulableIfNotPresent(*info, queue_->SchedulingCycle()).ok());
  EXPECT_EQ(queue_->ActiveQKeys(), Keys({"p"}));
}

TEST_P(InterfaceTest, NominatorIsTheQueues) {
  queue_->Add(MakePod("p"));  // no nomination
  EXPECT_FALSE(queue_->nominator().HasNominatedPods());
  PodPtr nominated = ParsePod(
      "metadata: {name: n, namespace: default, uid: n}\nspec: {containers: [{name: c}]}"
      "\nstatus: {nominatedNodeName: node1}\n",
      CompatLevel::kV1_27);
  queue_->Add(nominated);
  EXPECT_EQ(queue_->nominator().NominatedNodeFor("n"), "node1");
}

INSTANTIATE_TEST_SUITE_P(Levels, InterfaceTest,
                         ::testing::Values(CompatLevel::kV1_27, CompatLevel::kV1_37),
                         [](const ::testing::TestParamInfo<CompatLevel>& info) {
                           return info.param == CompatLevel::kV1_37 ? "V1_37" : "V1_27";
                         });

// Where the levels differ: with activeQ empty, v1.37 (SchedulerPopFromBackoffQ) pops backoffQ's
// head before its backoff ends; v1.27, and v1.37 with the gate off, do not.
TEST(NewSchedulingQueueTest, BuildsTheLevelsQueue) {
  VirtualClock clock;
  auto run = [&clock](CompatLevel level, const FeatureGates& gates) {
    std::unique_ptr<SchedulingQueueInterface> q =
        NewSchedulingQueue(*FeaturesFor(level, gates), QueueOptions{}, clock, MakeSetup(), {});
    q->Add(MakePod("p"));
    std::optional<QueuedPodInfo> info = q->Pop();
    info->unschedulable_plugins = {kPlugin};
    (void)q->AddUnschedulableIfNotPresent(*info, q->SchedulingCycle());
    q->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, nullptr);
    EXPECT_EQ(q->BackoffQKeys(), Keys({"p"}));
    return q->Pop().has_value();
  };
  EXPECT_FALSE(run(CompatLevel::kV1_27, {}));
  EXPECT_TRUE(run(CompatLevel::kV1_37, {}));
  EXPECT_FALSE(run(CompatLevel::kV1_37, {{"SchedulerPopFromBackoffQ", false}}));
}

}  // namespace
}  // namespace schedcheck::reference
