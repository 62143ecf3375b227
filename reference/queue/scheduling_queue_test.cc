#include "reference/queue/scheduling_queue.h"

#include <gtest/gtest.h>

#include "reference/queue/events.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

constexpr int64_t kSec = kNanosPerSecond;

PodPtr MakePod(const std::string& name, int priority = 0, const std::string& extra = "") {
  return ParsePod("metadata: {name: " + name + "}\nspec: {priority: " + std::to_string(priority) +
                      ", containers: [{name: c}]" + extra + "}\n",
                  CompatLevel::kV1_27);
}

struct Transition {
  std::string key, from, to, cause;
  bool operator==(const Transition&) const = default;
};

class QueueTest : public ::testing::Test {
 protected:
  QueueTest() {
    QueueHooks hooks;
    hooks.less = [](const QueuedPodInfo& a, const QueuedPodInfo& b) {
      if (a.pod().priority != b.pod().priority) return a.pod().priority > b.pod().priority;
      return a.timestamp_ns < b.timestamp_ns;
    };
    hooks.pre_enqueue = [](const Pod& pod) {
      if (pod.obj.spec().scheduling_gates_size() == 0) return Status();
      return Status(Code::kUnschedulableAndUnresolvable, "gated").WithPlugin("Gate");
    };
    ClusterEventMap events = {{*PredefinedClusterEvent("NodeAdd"), "fooPlugin"},
                              {*PredefinedClusterEvent("AssignedPodUpdate"), "Gate"}};
    queue_ = std::make_unique<SchedulingQueue>(
        QueueOptions{}, clock_, hooks, events, nullptr,
        [this](const std::string& key, std::string_view from, std::string_view to,
               std::string_view cause) {
          log_.push_back({key, std::string(from), std::string(to), std::string(cause)});
        });
  }

  VirtualClock clock_;
  std::vector<Transition> log_;
  std::unique_ptr<SchedulingQueue> queue_;
};

TEST_F(QueueTest, PopOrderAndAttempts) {
  queue_->Add(MakePod("low", 1));
  queue_->Add(MakePod("high", 9));
  queue_->Add(MakePod("tie-first", 5));
  queue_->Add(MakePod("tie-second", 5));
  EXPECT_EQ(queue_->ActiveQKeys(), (std::vector<std::string>{"default/high", "default/tie-first",
                                                             "default/tie-second", "default/low"}));
  auto p = queue_->Pop();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pod().key, "default/high");
  EXPECT_EQ(p->attempts, 1);
  EXPECT_EQ(queue_->SchedulingCycle(), 1);
  EXPECT_EQ(queue_->InFlightKeys(), std::vector<std::string>{"default/high"});
}

TEST_F(QueueTest, BackoffDurations) {
  const std::vector<int64_t> want = {1, 1, 2, 4, 8, 10, 10};
  for (int attempts = 0; attempts < 7; ++attempts) {
    EXPECT_EQ(queue_->BackoffDuration(attempts), want[attempts] * kSec) << attempts;
  }
  EXPECT_EQ(CalculateBackoffDuration(1, INT64_MAX, 64), INT64_MAX);
  EXPECT_EQ(CalculateBackoffDuration(1, 32, 16), 32);
}

TEST_F(QueueTest, MoveRequestCycleDecidesBackoffOrUnschedulable) {
  queue_->Add(MakePod("a"));
  auto a = queue_->Pop();
  ASSERT_TRUE(queue_->AddUnschedulableIfNotPresent(*a, queue_->SchedulingCycle()).ok());
  EXPECT_TRUE(queue_->InUnschedulable("default/a"));

  queue_->Add(MakePod("b"));
  auto b = queue_->Pop();
  queue_->MoveAllToActiveOrBackoffQueue(*PredefinedClusterEvent("PvAdd"));
  EXPECT_EQ(queue_->MoveRequestCycle(), 2);
  ASSERT_TRUE(queue_->AddUnschedulableIfNotPresent(*b, queue_->SchedulingCycle()).ok());
  EXPECT_TRUE(queue_->InBackoffQ("default/b"));
  EXPECT_EQ(queue_->NextBackoffExpiryNs(), std::optional<int64_t>(kSec));
  // Second requeue of the same pod is refused.
  EXPECT_FALSE(queue_->AddUnschedulableIfNotPresent(*b, queue_->SchedulingCycle()).ok());
}

TEST_F(QueueTest, EventMatchingAndBackoffFlush) {
  queue_->PlaceInUnschedulable(MakePod("foo"), {"fooPlugin"}, -20 * kSec);
  queue_->PlaceInUnschedulable(MakePod("bar"), {"barPlugin"}, -20 * kSec);
  queue_->PlaceInUnschedulable(MakePod("fresh"), {"fooPlugin"}, 0);
  queue_->MoveAllToActiveOrBackoffQueue(*PredefinedClusterEvent("NodeAdd"));
  EXPECT_EQ(queue_->ActiveQKeys(), std::vector<std::string>{"default/foo"});
  EXPECT_EQ(queue_->BackoffQKeys(), std::vector<std::string>{"default/fresh"});
  EXPECT_EQ(queue_->UnschedulableKeys(), std::vector<std::string>{"default/bar"});
  clock_.AdvanceNs(kSec - 1);
  queue_->FlushBackoffQCompleted();
  EXPECT_TRUE(queue_->InBackoffQ("default/fresh"));
  clock_.AdvanceNs(1);
  queue_->FlushBackoffQCompleted();
  EXPECT_TRUE(queue_->InActiveQ("default/fresh"));
}

TEST_F(QueueTest, LeftoverFlushIsStrict) {
  queue_->PlaceInUnschedulable(MakePod("p"), {"silent"}, 0);
  clock_.SetNs(300 * kSec);
  queue_->FlushUnschedulablePodsLeftover();
  EXPECT_TRUE(queue_->InUnschedulable("default/p"));
  EXPECT_EQ(queue_->MoveRequestCycle(), -1);
  clock_.SetNs(300 * kSec + 1);
  queue_->FlushUnschedulablePodsLeftover();
  EXPECT_TRUE(queue_->InActiveQ("default/p"));
}

TEST_F(QueueTest, GatedPodsAndTransitions) {
  PodPtr gated = MakePod("g", 0, ", schedulingGates: [{name: x}]");
  queue_->Add(gated);
  EXPECT_TRUE(queue_->InUnschedulable("default/g"));
  EXPECT_TRUE(queue_->Find("default/g")->gated);
  EXPECT_EQ(queue_->Find("default/g")->unschedulable_plugins, std::set<std::string>{"Gate"});
  queue_->MoveAllToActiveOrBackoffQueue(*PredefinedClusterEvent("AssignedPodUpdate"));
  EXPECT_TRUE(queue_->InUnschedulable("default/g"));
  queue_->Update(gated, MakePod("g"));
  EXPECT_TRUE(queue_->InActiveQ("default/g"));
  auto p = queue_->Pop();
  ASSERT_TRUE(p);
  queue_->Done("default/g");
  EXPECT_EQ(log_,
            (std::vector<Transition>{{"default/g", "none", "unschedulable", "PodAdd"},
                                     {"default/g", "unschedulable", "active", "BackoffComplete"},
                                     {"default/g", "active", "inflight", "Pop"},
                                     {"default/g", "inflight", "none", "Done"}}));
}

TEST_F(QueueTest, ActivateAndDelete) {
  queue_->PlaceInUnschedulable(MakePod("u"), {"silent"}, 0);
  queue_->PlaceInBackoff(MakePod("b"), 0);
  queue_->Activate({MakePod("u"), MakePod("b"), MakePod("unknown")});
  EXPECT_EQ(queue_->ActiveQKeys(), (std::vector<std::string>{"default/u", "default/b"}));
  queue_->Delete(*MakePod("u"));
  queue_->Delete(*MakePod("b"));
  EXPECT_EQ(queue_->Len(), 0u);
}

TEST_F(QueueTest, NominationFromStatusOnAdd) {
  PodPtr p = ParsePod(
      "metadata: {name: n}\nspec: {containers: [{name: c}]}\nstatus: {nominatedNodeName: node1}\n",
      CompatLevel::kV1_27);
  queue_->Add(p);
  ASSERT_EQ(queue_->nominator().NominatedPodsForNode("node1").size(), 1u);
  queue_->Delete(*p);
  EXPECT_TRUE(queue_->nominator().NominatedPodsForNode("node1").empty());
}

}  // namespace
}  // namespace schedcheck::reference
