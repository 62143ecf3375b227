#include "reference/scheduler/scheduler.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/plugins/registry.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// A Scheduler over the default profile of `compat`, recording what it reports.
class SchedulerTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    SchedulerOptions options;
    options.features = FeaturesFor(*ParseCompatLevel(GetParam()));
    options.config = DefaultConfiguration(GetParam());
    options.registry = &PluginRegistry();
    options.pod_scheduler = std::make_unique<PodScheduler>(1, 0);
    SchedulerListener listener;
    listener.attempt = [this](const QueuedPodInfo& info, const CycleOutcome& outcome) {
      attempts_.push_back(info.info->pod->key + " " +
                          (outcome.status.IsSuccess() ? "scheduled " + outcome.result.node
                                                      : "failed: " + outcome.message));
    };
    listener.bound = [this](const std::string& key, const std::string& node) {
      bound_.push_back(key + " " + node);
    };
    listener.move_request = [this](std::string_view label) { moves_.emplace_back(label); };
    auto s = Scheduler::New(std::move(options), clock_, std::move(listener));
    ASSERT_TRUE(s.ok()) << s.message();
    scheduler_ = std::move(*s);
  }

  PodPtr Pod(std::string_view yaml) { return ParsePod(yaml, *ParseCompatLevel(GetParam())); }

  VirtualClock clock_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::string> attempts_, bound_, moves_;
};

TEST_P(SchedulerTest, SchedulesAPendingPodAndBindsIt) {
  scheduler_->OnNode(WatchEvent::kAdded,
                     ParseNode("metadata: {name: n1}\n"
                               "status: {allocatable: {cpu: '2', memory: 1Gi, pods: '10'}}\n"));
  scheduler_->OnPod(WatchEvent::kAdded,
                    Pod("metadata: {name: p, namespace: default}\n"
                        "spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n"));
  ASSERT_TRUE(scheduler_->StartSchedulingCycle());
  EXPECT_TRUE(scheduler_->scheduling_cycle_in_flight());
  scheduler_->FinishSchedulingCycle();
  EXPECT_FALSE(scheduler_->scheduling_cycle_in_flight());
  EXPECT_EQ(scheduler_->NextBindingCycleNs(), std::optional<int64_t>(0));
  scheduler_->RunNewBindingCyclesDue();
  EXPECT_EQ(attempts_, std::vector<std::string>{"default/p scheduled n1"});
  EXPECT_EQ(bound_, std::vector<std::string>{"default/p n1"});
  // The binding came back through the pod informer: the store holds the bound pod.
  ASSERT_NE(scheduler_->GetPod("default/p"), nullptr);
  EXPECT_EQ(scheduler_->GetPod("default/p")->node_name(), "n1");
  EXPECT_FALSE(scheduler_->NextBindingCycleNs().has_value());
  EXPECT_FALSE(scheduler_->StartSchedulingCycle());  // activeQ is empty
}

TEST_P(SchedulerTest, AFailedPodWaitsForAClusterEvent) {
  scheduler_->OnNode(WatchEvent::kAdded,
                     ParseNode("metadata: {name: n1}\n"
                               "status: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n"));
  scheduler_->OnPod(WatchEvent::kAdded,
                    Pod("metadata: {name: big, namespace: default}\n"
                        "spec: {containers: [{name: c, resources: {requests: {cpu: '2'}}}]}\n"));
  ASSERT_TRUE(scheduler_->StartSchedulingCycle());
  scheduler_->FinishSchedulingCycle();
  ASSERT_EQ(attempts_.size(), 1u);
  EXPECT_EQ(
      attempts_[0].rfind("default/big failed: 0/1 nodes are available: 1 Insufficient cpu.", 0), 0u)
      << attempts_[0];
  EXPECT_TRUE(bound_.empty());
  EXPECT_FALSE(scheduler_->StartSchedulingCycle());  // unschedulable until an event
  // A bigger node: NodeAdd moves the pod back to activeQ (or backoffQ, then a flush).
  moves_.clear();
  scheduler_->OnNode(WatchEvent::kAdded,
                     ParseNode("metadata: {name: n2}\n"
                               "status: {allocatable: {cpu: '4', memory: 1Gi, pods: '10'}}\n"));
  EXPECT_EQ(moves_.size(), 1u);
  clock_.SetNs(20 * kNanosPerSecond);  // past any backoff
  scheduler_->FlushBackoffQCompleted();
  ASSERT_TRUE(scheduler_->StartSchedulingCycle());
  scheduler_->FinishSchedulingCycle();
  EXPECT_EQ(attempts_.back(), "default/big scheduled n2");
}

TEST_P(SchedulerTest, SchedulesAPodHandedOverWithoutTheQueue) {
  scheduler_->OnNode(WatchEvent::kAdded,
                     ParseNode("metadata: {name: n1}\n"
                               "status: {allocatable: {cpu: '2', memory: 1Gi, pods: '10'}}\n"));
  EXPECT_NE(scheduler_->FrameworkFor("default-scheduler"), nullptr);
  EXPECT_EQ(scheduler_->FrameworkFor("other-scheduler"), nullptr);
  PodPtr pod =
      Pod("metadata: {name: p, namespace: default}\n"
          "spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n"
          "status: {nominatedNodeName: n1}\n");
  scheduler_->OnPod(WatchEvent::kAdded, pod);
  ASSERT_EQ(scheduler_->queue().nominator().NominatedPodsForNode("n1").size(), 1u);
  // SchedulePod decides and assumes nothing; the snapshot it read is the Scheduler's.
  CycleState look;
  EXPECT_EQ(scheduler_->SchedulePod(look, *pod).node, "n1");
  EXPECT_TRUE(scheduler_->snapshot().Get("n1")->pods().empty());
  // SchedulingCycle assumes: the pod counts on n1 and is no longer nominated. Nothing is
  // reported and no binding cycle starts.
  CycleState state;
  CycleOutcome outcome = scheduler_->SchedulingCycle(state, pod);
  EXPECT_TRUE(outcome.status.IsSuccess()) << outcome.message;
  EXPECT_EQ(outcome.result.node, "n1");
  scheduler_->UpdateSnapshot();
  EXPECT_EQ(scheduler_->snapshot().Get("n1")->pods().size(), 1u);
  EXPECT_TRUE(scheduler_->queue().nominator().NominatedPodsForNode("n1").empty());
  EXPECT_TRUE(attempts_.empty());
  EXPECT_FALSE(scheduler_->NextBindingCycleNs().has_value());
}

INSTANTIATE_TEST_SUITE_P(Levels, SchedulerTest, ::testing::Values("1.27", "1.37"));

}  // namespace
}  // namespace schedcheck::reference
