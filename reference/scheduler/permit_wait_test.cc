// Pods waiting on Permit in the Scheduler (schedule_one_waiting.cc): GangScheduling's Wait, the
// Allow of every waiting member by the member that completes the quorum (from its own scheduling
// cycle), and the Permit timeout that rejects a gang left incomplete. GenericWorkload on; the
// members are built as the API server stores them (BuildPod's refusal of members is the replay's,
// for the pod-group cycle it does not model; the Scheduler runs the pod-by-pod cycle).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/plugins/registry.h"
#include "reference/runtime/profile.h"
#include "reference/scheduler/scheduler.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

class PermitWaitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SchedulerOptions options;
    Result<Features> features = FeaturesFor(CompatLevel::kV1_37, {{"GenericWorkload", true}});
    ASSERT_TRUE(features.ok()) << features.message();
    options.features = *features;
    options.config = DefaultConfiguration("1.37");
    options.registry = &PluginRegistry();
    options.pod_scheduler = std::make_unique<PodScheduler>(1, 0);
    SchedulerListener listener;
    listener.attempt = [this](const QueuedPodInfo& info, const CycleOutcome& outcome) {
      std::string what = outcome.status.IsSuccess() ? "scheduled " + outcome.result.node
                         : outcome.status.IsWait()  ? "waits on " + outcome.result.node
                                                    : "failed: " + outcome.message;
      attempts_.push_back(std::to_string(clock_.NowNs() / kNanosPerSecond) + "s " +
                          info.info->pod->obj.metadata().name() + " " + what);
    };
    listener.bound = [this](const std::string& key, const std::string& node) {
      bound_.push_back(std::to_string(clock_.NowNs() / kNanosPerSecond) + "s " + key + " " + node);
    };
    auto s = Scheduler::New(std::move(options), clock_, std::move(listener));
    ASSERT_TRUE(s.ok()) << s.message();
    scheduler_ = std::move(*s);
  }

  void AddNode(const std::string& name, const std::string& cpu) {
    scheduler_->OnNode(WatchEvent::kAdded,
                       ParseNode("metadata: {name: " + name + "}\nstatus: {allocatable: {cpu: '" +
                                 cpu + "', memory: 1Gi, pods: '10'}}\n"));
  }
  void AddGroup(const std::string& name, int min_count) {
    k8s::PodGroup group;
    group.mutable_metadata()->set_namespace_("ns");
    group.mutable_metadata()->set_name(name);
    group.mutable_spec()->mutable_scheduling_policy()->mutable_gang()->set_min_count(min_count);
    scheduler_->OnPodGroup(WatchEvent::kAdded, group);
  }
  void AddMember(const std::string& name, const std::string& group) {
    scheduler_->OnPod(
        WatchEvent::kAdded,
        ParsePod("metadata: {name: " + name + ", namespace: ns, uid: " + name +
                     ", creationTimestamp: '2026-01-01T00:00:0" + std::to_string(created_++) +
                     "Z'}\nspec: {schedulingGroup: {podGroupName: " + group +
                     "}, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n",
                 CompatLevel::kV1_37));
  }
  // The replay's order at one instant: binding cycles due, then scheduling cycles while activeQ
  // has pods, each followed by the binding cycles it started or unblocked.
  void RunInstant(int64_t seconds) {
    clock_.SetNs(seconds * kNanosPerSecond);
    scheduler_->RunBindingCyclesDue();
    scheduler_->FlushBackoffQCompleted();
    while (scheduler_->StartSchedulingCycle()) {
      scheduler_->FinishSchedulingCycle();
      scheduler_->RunNewBindingCyclesDue();
    }
  }

  VirtualClock clock_;
  int created_ = 0;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::string> attempts_, bound_;
};

// A gang of 2 completed by a late member: the first member is held at PreEnqueue until the second
// exists; the first to be scheduled (b, the late one: a re-enters activeQ behind it) waits on
// Permit, the second completes the quorum and allows it from its own cycle, and both bind at once,
// the allowed one first (gangscheduling_test.go TestGangSchedulingFlow,
// "final gang pod arrives at Permit and allows all waiting pods from a gang", end to end).
TEST_F(PermitWaitTest, LateMemberCompletesTheGangAndAllowsTheWaitingOne) {
  AddNode("n1", "4");
  AddGroup("pg", 2);
  AddMember("a", "pg");
  RunInstant(0);
  EXPECT_TRUE(attempts_.empty());  // gated: only 1 of minCount 2 members exists
  AddMember("b", "pg");
  RunInstant(1);
  EXPECT_EQ(attempts_, (std::vector<std::string>{"1s b waits on n1", "1s a scheduled n1"}));
  EXPECT_EQ(bound_, (std::vector<std::string>{"1s ns/b n1", "1s ns/a n1"}));
  EXPECT_FALSE(scheduler_->NextBindingCycleNs().has_value());  // nothing left waiting
}

// A gang that cannot fit together: the first member waits on Permit, the second does not fit;
// 5 minutes later the wait times out, the waiting member is rejected with upstream's message,
// unreserved and forgotten, and nothing of the gang is bound.
TEST_F(PermitWaitTest, IncompleteGangTimesOutAtPermit) {
  AddNode("n1", "1");
  AddGroup("pg", 2);
  AddMember("a", "pg");
  AddMember("b", "pg");
  RunInstant(0);
  ASSERT_EQ(attempts_.size(), 2u);
  EXPECT_EQ(attempts_[0], "0s b waits on n1");
  EXPECT_EQ(attempts_[1].rfind("0s a failed: 0/1 nodes are available: 1 Insufficient cpu.", 0), 0u)
      << attempts_[1];
  EXPECT_EQ(scheduler_->NextBindingCycleNs(), std::optional<int64_t>(300 * kNanosPerSecond));
  RunInstant(299);
  EXPECT_EQ(attempts_.size(), 2u);  // still waiting, nothing bound
  RunInstant(300);
  ASSERT_GE(attempts_.size(), 3u);
  EXPECT_EQ(attempts_[2],
            "300s b failed: rejected due to timeout after waiting 5m0s at plugin "
            "GangScheduling");
  // b was unreserved and forgotten, and its freed space moved a; but b keeps the
  // nominatedNodeName n1 its binding cycle wrote when it started waiting
  // (NominatedNodeNameForExpectation), so a still does not fit beside it. Nothing waits any more.
  ASSERT_EQ(attempts_.size(), 4u);
  EXPECT_EQ(attempts_[3].rfind("300s a failed: 0/1 nodes are available: 1 Insufficient cpu.", 0),
            0u)
      << attempts_[3];
  EXPECT_EQ(scheduler_->GetPod("ns/b")->obj.status().nominated_node_name(), "n1");
  EXPECT_FALSE(scheduler_->NextBindingCycleNs().has_value());
  EXPECT_TRUE(bound_.empty());
}

}  // namespace
}  // namespace schedcheck::reference
