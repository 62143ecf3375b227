// The v1.37 queue against upstream's own tests: kubernetes v1.37.2
// pkg/scheduler/backend/queue/scheduling_queue_test.go and backoff_queue_test.go (the test named
// in each case), transcribed without pod groups and metrics.
#include "reference/queue/scheduling_queue_v1_37.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParsePod;
constexpr int64_t kSec = kNanosPerSecond;

PodPtr MakePod(const std::string& name, const std::string& uid, int priority = 0,
               const std::string& spec_extra = "") {
  return ParsePod("metadata: {name: " + name + ", namespace: default, uid: " + uid +
                      "}\nspec: {priority: " + std::to_string(priority) +
                      ", containers: [{name: c}]" + spec_extra + "}\n",
                  CompatLevel::kV1_27);
}

ClusterEvent Ev(std::string_view resource, uint32_t bits) {
  return {std::string(resource), bits, ""};
}
const ClusterEvent kPvAdd = Ev(resource::kPersistentVolume, action::kAdd);
const ClusterEvent kPvUpdate = Ev(resource::kPersistentVolume, action::kUpdateV1_37);
const ClusterEvent kPvcAdd = Ev(resource::kPersistentVolumeClaim, action::kAdd);
const ClusterEvent kNodeAdd = Ev(resource::kNode, action::kAdd);
const ClusterEvent kCsiNodeUpdate = Ev(resource::kCSINode, action::kUpdateV1_37);
const ClusterEvent kTargetPodUpdate = Ev(resource::kTargetPod, action::kUpdateV1_37);

Result<QueueingHint> HintQueue(const Pod&, const EventObjects&) { return QueueingHint::kQueue; }
Result<QueueingHint> HintSkip(const Pod&, const EventObjects&) { return QueueingHint::kQueueSkip; }

using HintRows = std::vector<std::pair<ClusterEvent, std::vector<std::pair<std::string, bool>>>>;

// upstream's newDefaultQueueSort: priority, then timestamp.
bool PrioritySortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) {
  if (a.pod().priority != b.pod().priority) return a.pod().priority > b.pod().priority;
  return a.timestamp_ns < b.timestamp_ns;
}

// A queue for the default profile (scheduler name "default-scheduler" as the test pods carry),
// with hints given as (event, [(plugin, queue?)]) and an optional gate plugin.
QueueSetupV1_37 MakeSetup(const HintRows& rows, bool with_gate = false) {
  QueueSetupV1_37 setup;
  setup.less = PrioritySortLess;
  QueueProfileV1_37& profile = setup.profiles["default-scheduler"];
  for (const auto& [event, fns] : rows) {
    for (const auto& [plugin, queue] : fns) {
      profile.hints.Add(event, {plugin, queue ? QueueingHintFn(HintQueue) : HintSkip});
    }
  }
  if (with_gate) {
    profile.pre_enqueue.push_back({"SchedulingGates", [](const Pod& pod) {
                                     if (pod.obj.spec().scheduling_gates_size() == 0)
                                       return Status();
                                     return Status(Code::kUnschedulableAndUnresolvable, "gated");
                                   }});
  }
  return setup;
}

std::vector<std::string> Keys(std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* n : names) out.push_back(std::string("default/") + n);
  return out;
}

QueuedPodInfo Failed(const QueuedPodInfo& popped, std::set<std::string> unschedulable,
                     std::set<std::string> pending = {}) {
  QueuedPodInfo info = popped;
  info.unschedulable_plugins = std::move(unschedulable);
  info.pending_plugins = std::move(pending);
  return info;
}

// Test_InFlightPods, its rows without pod groups, each as a list of steps.
struct Step {
  enum Kind { kEvent, kPop, kEnqueue, kCreate } kind;
  ClusterEvent event;
  std::string pod;  // for kPop / kEnqueue / kCreate
  std::set<std::string> unschedulable, pending;
};
struct InFlightRow {
  std::string name;
  HintRows hints;
  std::vector<std::string> initial;
  std::vector<Step> steps;
  std::vector<std::string> want_in_flight, want_active, want_backoff, want_unschedulable;
  size_t want_events;  // in-flight events (markers excluded)
};

Step EventStep(const ClusterEvent& e) { return {Step::kEvent, e, "", {}, {}}; }
Step PopStep(const std::string& pod) { return {Step::kPop, {}, pod, {}, {}}; }
Step Enqueue(const std::string& pod, std::set<std::string> u = {}, std::set<std::string> p = {}) {
  return {Step::kEnqueue, {}, pod, std::move(u), std::move(p)};
}

TEST(SchedulingQueueV1_37Test, InFlightPodsRows) {
  const ClusterEvent assigned_add = event_v1_37::AssignedPodAdd();
  const std::vector<InFlightRow> rows = {
      {"Pod and interested events are registered in inFlightPods/inFlightEvents",
       {{kPvAdd, {{"fooPlugin1", true}}}},
       {"targetpod"},
       {EventStep(kPvcAdd), PopStep("targetpod"), EventStep(kPvAdd), EventStep(kPvUpdate)},
       Keys({"targetpod"}),
       {},
       {},
       {},
       1},
      {"Pod, registered in inFlightPods, is enqueued back to backoffQ",
       {{kPvAdd, {{"fooPlugin1", true}}},
        {kNodeAdd, {{"fooPlugin1", true}}},
        {kPvcAdd, {{"fooPlugin1", true}}}},
       {"targetpod", "targetpod2"},
       {EventStep(kPvcAdd), PopStep("targetpod"), EventStep(kPvAdd), PopStep("targetpod2"),
        EventStep(kNodeAdd), Enqueue("targetpod")},
       Keys({"targetpod2"}),
       {},
       Keys({"targetpod"}),
       {},
       1},
      {"All Pods registered in inFlightPods are enqueued back to activeQ",
       {{kPvAdd, {{"fooPlugin1", true}}},
        {kNodeAdd, {{"fooPlugin1", true}}},
        {kPvcAdd, {{"fooPlugin1", true}}},
        {kCsiNodeUpdate, {{"fooPlugin1", true}}}},
       {"targetpod", "targetpod2"},
       {EventStep(kPvcAdd), PopStep("targetpod"), EventStep(kPvAdd), PopStep("targetpod2"),
        EventStep(kNodeAdd), Enqueue("targetpod"), EventStep(kCsiNodeUpdate),
        Enqueue("targetpod2")},
       {},
       {},
       Keys({"targetpod", "targetpod2"}),
       {},
       0},
      {"One intermediate Pod registered in inFlightPods is enqueued back to activeQ",
       {{kPvAdd, {{"fooPlugin1", true}}},
        {kNodeAdd, {{"fooPlugin1", true}}},
        {assigned_add, {{"fooPlugin1", true}}}},
       {"targetpod", "targetpod2", "targetpod3"},
       {EventStep(kPvcAdd), PopStep("targetpod"), EventStep(kPvAdd), PopStep("targetpod2"),
        EventStep(kNodeAdd), PopStep("targetpod3"), EventStep(assigned_add), Enqueue("targetpod2")},
       Keys({"targetpod", "targetpod3"}),
       {},
       Keys({"targetpod2"}),
       {},
       3},
      {"events before popping Pod are ignored when Pod is enqueued back to queue",
       {{assigned_add, {{"fooPlugin1", false}}}},
       {"targetpod"},
       {EventStep(event_v1_37::UnschedulableTimeout()), PopStep("targetpod"),
        EventStep(assigned_add), Enqueue("targetpod", {"fooPlugin1"})},
       {},
       {},
       {},
       Keys({"targetpod"}),
       0},
      {"pod is enqueued to backoff if no failed plugin",
       {{assigned_add, {{"fooPlugin1", true}}}},
       {"targetpod"},
       {PopStep("targetpod"), EventStep(assigned_add), Enqueue("targetpod")},
       {},
       {},
       Keys({"targetpod"}),
       {},
       0},
      {"pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable",
       {{assigned_add, {{"fooPlugin1", true}}}},
       {"targetpod"},
       {PopStep("targetpod"), EventStep(kNodeAdd), Enqueue("targetpod", {"fooPlugin1"})},
       {},
       {},
       {},
       Keys({"targetpod"}),
       0},
      {"pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it "
       "returns Skip",
       {{assigned_add, {{"fooPlugin1", false}}}},
       {"targetpod"},
       {PopStep("targetpod"), EventStep(assigned_add), Enqueue("targetpod", {"fooPlugin1"})},
       {},
       {},
       {},
       Keys({"targetpod"}),
       0},
      {"pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue",
       {{assigned_add, {{"fooPlugin3", false}, {"fooPlugin2", true}, {"fooPlugin1", true}}}},
       {"targetpod"},
       {PopStep("targetpod"), EventStep(assigned_add),
        Enqueue("targetpod", {"fooPlugin2", "fooPlugin3"}, {"fooPlugin1"})},
       {},
       Keys({"targetpod"}),
       {},
       {},
       0},
      {"pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue",
       {{assigned_add, {{"fooPlugin2", false}, {"fooPlugin1", true}}}},
       {"targetpod"},
       {PopStep("targetpod"), EventStep(assigned_add),
        Enqueue("targetpod", {"fooPlugin1", "fooPlugin2"})},
       {},
       {},
       Keys({"targetpod"}),
       {},
       0},
      {"pod is enqueued to activeQ because the pending plugin has a hint fn and it returns Queue "
       "for a concurrent event that was received while some other pod was in flight",
       {{assigned_add, {{"fooPlugin3", false}, {"fooPlugin2", true}, {"fooPlugin1", true}}}},
       {"targetpod", "targetpod2"},
       {PopStep("targetpod"), EventStep(kNodeAdd), PopStep("targetpod2"), EventStep(assigned_add),
        Enqueue("targetpod"), Enqueue("targetpod2", {"fooPlugin2", "fooPlugin3"}, {"fooPlugin1"})},
       {},
       Keys({"targetpod2"}),
       Keys({"targetpod"}),
       {},
       0},
  };
  const std::map<std::string, std::string> uids = {
      {"targetpod", "pod1"}, {"targetpod2", "pod2"}, {"targetpod3", "pod3"}};
  for (const InFlightRow& row : rows) {
    SCOPED_TRACE(row.name);
    VirtualClock clock(1000 * kSec);
    SchedulingQueueV1_37 q(QueueOptions{}, clock, MakeSetup(row.hints));
    for (const std::string& name : row.initial) q.Add(MakePod(name, uids.at(name)));
    std::map<std::string, QueuedPodInfo> popped;
    for (const Step& step : row.steps) {
      switch (step.kind) {
        case Step::kEvent:
          q.MoveAllToActiveOrBackoffQueue(step.event, {});
          break;
        case Step::kPop: {
          std::optional<QueuedPodInfo> p = q.Pop();
          ASSERT_TRUE(p);
          ASSERT_EQ(p->pod().name(), step.pod);
          popped[step.pod] = *p;
          break;
        }
        case Step::kEnqueue:
          ASSERT_TRUE(q.AddUnschedulableIfNotPresent(
                           Failed(popped.at(step.pod), step.unschedulable, step.pending),
                           q.SchedulingCycle())
                          .ok());
          break;
        case Step::kCreate:
          q.Add(MakePod(step.pod, uids.at(step.pod)));
          break;
      }
    }
    EXPECT_EQ(q.InFlightKeys(), row.want_in_flight);
    EXPECT_EQ(q.ActiveQKeys(), row.want_active);
    EXPECT_EQ(q.BackoffQKeys(), row.want_backoff);
    EXPECT_EQ(q.UnschedulableKeys(), row.want_unschedulable);
    EXPECT_EQ(q.InFlightEventCount(), row.want_events);
  }
}

// TestPop: a Pending plugin's Queue skips backoff; Pop keeps the rejectors.
TEST(SchedulingQueueV1_37Test, PopKeepsPendingPlugins) {
  VirtualClock clock(1000 * kSec);
  SchedulingQueueV1_37 q(QueueOptions{}, clock, MakeSetup({{kPvAdd, {{"fooPlugin1", true}}}}));
  q.Add(MakePod("targetpod", "pod1"));
  std::optional<QueuedPodInfo> p = q.Pop();
  ASSERT_TRUE(p);
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*p, {}, {"fooPlugin1"}), 1).ok());
  EXPECT_EQ(q.UnschedulableKeys(), Keys({"targetpod"}));
  q.MoveAllToActiveOrBackoffQueue(kPvAdd, {});
  EXPECT_EQ(q.ActiveQKeys(), Keys({"targetpod"}));  // queueImmediately: not backoffQ
  p = q.Pop();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pending_plugins, std::set<std::string>{"fooPlugin1"});
  EXPECT_EQ(p->attempts, 2);
}

// TestBackOffFlow (SchedulerPopFromBackoffQ on): the backoff doubles per failure up to 10 s, and
// the flush releases the pod only once its window-aligned expiry has passed.
TEST(SchedulingQueueV1_37Test, BackOffFlow) {
  const std::vector<int64_t> want_backoff = {1, 2, 4, 8, 10, 10, 10};
  VirtualClock clock(1000 * kSec + 300'000'000);  // not on a whole second
  SchedulingQueueV1_37 q(QueueOptions{}, clock, MakeSetup({}));
  q.Add(MakePod("test-pod", "test-uid"));
  for (size_t i = 0; i < want_backoff.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    const int64_t timestamp = clock.NowNs();
    std::optional<QueuedPodInfo> p = q.Pop();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->attempts, static_cast<int>(i + 1));
    ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*p, {"unsched-plugin"}), i).ok());
    q.MoveAllToActiveOrBackoffQueue(event_v1_37::UnschedulableTimeout(), {});
    ASSERT_EQ(q.BackoffQKeys(), Keys({"test-pod"}));
    const QueuedPodInfo* info = q.Find("default/test-pod");
    ASSERT_NE(info, nullptr);
    // Rounded up to the ordering window, as upstream's test does.
    int64_t backoff = *q.BackoffExpiryNs(*info) - timestamp;
    backoff = backoff / kSec * kSec + kSec;
    EXPECT_EQ(backoff, want_backoff[i] * kSec);
    clock.AdvanceNs(kSec);
    q.FlushBackoffQCompleted();
    EXPECT_EQ(q.BackoffQKeys(), Keys({"test-pod"}));  // still backing off after an early flush
    clock.AdvanceNs(backoff);
    q.FlushBackoffQCompleted();
    EXPECT_TRUE(q.BackoffQKeys().empty());
    EXPECT_EQ(q.ActiveQKeys(), Keys({"test-pod"}));
  }
}

// TestBackoffQueue_getBackoffTime and TestBackoffQueue_calculateBackoffDuration.
TEST(SchedulingQueueV1_37Test, GetBackoffTime) {
  VirtualClock clock;
  QueueOptions options;
  options.initial_backoff_ns = 1 * kSec;
  options.max_backoff_ns = 32 * kSec;
  SchedulingQueueV1_37 q(options, clock, MakeSetup({}));
  QueuedPodInfo info;
  info.info = MakePodInfo(MakePod("p", "u"));
  info.timestamp_ns = 7 * kSec;
  EXPECT_EQ(q.BackoffExpiryNs(info), std::nullopt);  // no backoff
  info.unschedulable_count = 16;
  EXPECT_EQ(q.BackoffExpiryNs(info), 39 * kSec);  // capped at max
  info.unschedulable_count = 5;
  info.consecutive_errors_count = 16;
  EXPECT_EQ(q.BackoffExpiryNs(info), 39 * kSec);  // by ConsecutiveErrorsCount
  info.consecutive_errors_count = 0;
  EXPECT_EQ(q.BackoffExpiryNs(info), 23 * kSec);  // 1 s << 4
  QueueOptions none;
  none.initial_backoff_ns = 0;
  none.max_backoff_ns = 0;
  SchedulingQueueV1_37 q0(none, clock, MakeSetup({}));
  EXPECT_EQ(q0.BackoffExpiryNs(info), std::nullopt);  // zero max: no backoff
}

// TestPriorityQueue_UpdateWhenInflight: the pod's own update while in flight is an in-flight
// TargetPod event that requeues it when its rejector's hint says Queue.
TEST(SchedulingQueueV1_37Test, UpdateWhenInFlight) {
  VirtualClock clock(1000 * kSec);
  SchedulingQueueV1_37 q(QueueOptions{}, clock,
                         MakeSetup({{kTargetPodUpdate, {{"fakePlugin", true}}}}));
  PodPtr pod = MakePod("test-pod", "test-uid");
  q.Add(pod);
  std::optional<QueuedPodInfo> p = q.Pop();
  ASSERT_TRUE(p);
  PodPtr updated =
      MakePod("test-pod", "test-uid", 0, ", tolerations: [{key: foo, effect: NoSchedule}]");
  q.Update(pod, updated);
  EXPECT_EQ(q.InFlightEventCount(), 1u);  // UpdatePodToleration on TargetPod
  QueuedPodInfo failed = Failed(*p, {"fakePlugin"});
  failed.info = MakePodInfo(updated);
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(failed, q.SchedulingCycle()).ok());
  ASSERT_EQ(q.BackoffQKeys(), Keys({"test-pod"}));
  EXPECT_EQ(q.Find("default/test-pod")->pod().obj.spec().tolerations_size(), 1);
}

// TestHighPriorityFlushUnschedulableEntitiesLeftover: pods older than 5 min leave the pool at
// the leftover flush, in priority order.
TEST(SchedulingQueueV1_37Test, HighPriorityFlushLeftover) {
  VirtualClock clock(1000 * kSec);
  SchedulingQueueV1_37 q(QueueOptions{}, clock, MakeSetup({{kNodeAdd, {{"fakePlugin", true}}}}));
  q.Add(MakePod("test-highpod", "tp-high", 1000));
  std::optional<QueuedPodInfo> high = q.Pop();
  q.Add(MakePod("test-midpod", "tp-mid", 100));
  std::optional<QueuedPodInfo> mid = q.Pop();
  ASSERT_TRUE(high && mid);
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*high, {"fakePlugin"}), 2).ok());
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*mid, {"fakePlugin"}), 2).ok());
  clock.AdvanceNs(300 * kSec);
  q.FlushUnschedulablePodsLeftover();
  EXPECT_EQ(q.UnschedulableKeys().size(), 2u);  // exactly 5 min: not yet
  clock.AdvanceNs(1 * kSec);
  q.FlushUnschedulablePodsLeftover();
  EXPECT_EQ(q.Pop()->pod().name(), "test-highpod");
  EXPECT_EQ(q.Pop()->pod().name(), "test-midpod");
}

// KEP-5142 (TestPriorityQueue_Pop with SchedulerPopFromBackoffQ): an empty activeQ pops
// backoffQ's head before its backoff ends, but never a pod of the error heap.
TEST(SchedulingQueueV1_37Test, PopFromBackoffQOnlyForRejections) {
  VirtualClock clock(1000 * kSec);
  std::vector<std::string> log;
  SchedulingQueueV1_37 q(QueueOptions{}, clock, MakeSetup({{kNodeAdd, {{"fooPlugin", true}}}}), 0,
                         [&](const std::string& key, std::string_view from, std::string_view to,
                             std::string_view cause) {
                           log.push_back(key + " " + std::string(from) + "->" + std::string(to) +
                                         " " + std::string(cause));
                         });
  q.Add(MakePod("rejected", "u1"));
  q.Add(MakePod("errored", "u2"));
  std::optional<QueuedPodInfo> a = q.Pop(), b = q.Pop();
  ASSERT_TRUE(a && b);
  q.MoveAllToActiveOrBackoffQueue(kNodeAdd, {});  // in flight: kept for both
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*a, {"fooPlugin"}), 2).ok());
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*b, {}), 2).ok());
  EXPECT_EQ(q.BackoffQKeys(), Keys({"rejected", "errored"}));
  EXPECT_TRUE(q.PopsFromBackoffQ());
  std::optional<QueuedPodInfo> again = q.Pop();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->pod().name(), "rejected");
  EXPECT_FALSE(q.Poppable());  // the error heap waits for the flush
  EXPECT_EQ(log, (std::vector<std::string>{
                     "default/rejected none->active UnscheduledPodAdd",
                     "default/errored none->active UnscheduledPodAdd",
                     "default/rejected active->inflight Pop",
                     "default/errored active->inflight Pop",
                     "default/rejected inflight->backoff ScheduleAttemptFailure",
                     "default/errored inflight->backoff ScheduleAttemptFailure",
                     "default/rejected backoff->inflight Pop",
                 }));
}

// SchedulerPopFromBackoffQ off (TestPriorityQueue_Pop / TestBackOffFlow without the gate): an
// empty activeQ does not pop backoffQ's head, and the expiry is not truncated to a 1 s window, so
// the pod waits for the first flush at or after its exact expiry.
TEST(SchedulingQueueV1_37Test, WithoutPopFromBackoffQPodsWaitForTheFlush) {
  VirtualClock clock(1000 * kSec + kSec / 2);
  QueueSetupV1_37 setup = MakeSetup({{kNodeAdd, {{"fooPlugin", true}}}});
  setup.pop_from_backoff_q = false;
  SchedulingQueueV1_37 q(QueueOptions{}, clock, std::move(setup), 0);
  q.Add(MakePod("rejected", "u1"));
  std::optional<QueuedPodInfo> a = q.Pop();
  ASSERT_TRUE(a);
  q.MoveAllToActiveOrBackoffQueue(kNodeAdd, {});  // in flight: its hint sends it to backoffQ
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(Failed(*a, {"fooPlugin"}), 1).ok());
  EXPECT_EQ(q.BackoffQKeys(), Keys({"rejected"}));
  EXPECT_FALSE(q.PopsFromBackoffQ());
  EXPECT_FALSE(q.Poppable());
  EXPECT_FALSE(q.Pop());
  // Backoff 1 s from t = 1000.5 s: at 1001 s (a whole-second flush) it has not expired; with the
  // gate on, the expiry would have been truncated to 1001 s.
  clock.SetNs(1001 * kSec);
  q.FlushBackoffQCompleted();
  EXPECT_EQ(q.BackoffQKeys(), Keys({"rejected"}));
  clock.SetNs(1002 * kSec);
  q.FlushBackoffQCompleted();
  EXPECT_TRUE(q.Poppable());
  std::optional<QueuedPodInfo> again = q.Pop();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->pod().name(), "rejected");
}

// TestPriorityQueue_moveToBackoffQ: PreEnqueue runs on entry to backoffQ; a gated pod goes to
// the pool, where only its gating plugin's events reach it.
TEST(SchedulingQueueV1_37Test, GatedPodsWaitForTheirPluginsEvents) {
  VirtualClock clock(1000 * kSec);
  const ClusterEvent gate_event =
      Ev(resource::kTargetPod, action::kUpdatePodSchedulingGatesEliminated);
  SchedulingQueueV1_37 q(
      QueueOptions{}, clock,
      MakeSetup({{gate_event, {{"SchedulingGates", true}}}}, /*with_gate=*/true));
  PodPtr gated = MakePod("gated", "g", 0, ", schedulingGates: [{name: wait}]");
  q.Add(gated);
  EXPECT_EQ(q.UnschedulableKeys(), Keys({"gated"}));
  EXPECT_EQ(q.Find("default/gated")->gating_plugin, "SchedulingGates");
  q.MoveAllToActiveOrBackoffQueue(kNodeAdd, {});  // not the gate's event
  EXPECT_EQ(q.UnschedulableKeys(), Keys({"gated"}));
  PodPtr ungated = MakePod("gated", "g");
  q.Update(gated, ungated);  // the gate removed: TargetPod event, SchedulingGates says Queue
  EXPECT_EQ(q.ActiveQKeys(), Keys({"gated"}));
  EXPECT_TRUE(q.Find("default/gated")->gating_plugin.empty());
}

TEST(SchedulingQueueV1_37Test, EventLabels) {
  EXPECT_EQ(EventLabelV1_37(kNodeAdd), "NodeAdd");
  EXPECT_EQ(EventLabelV1_37(event_v1_37::AssignedPodDelete()), "AssignedPodDelete");
  EXPECT_EQ(EventLabelV1_37(Ev(resource::kNode, action::kUpdateNodeTaint)), "NodeUpdateNodeTaint");
  EXPECT_EQ(EventLabelV1_37(event_v1_37::UnschedulableTimeout()), "UnschedulableTimeout");
}

}  // namespace
}  // namespace schedcheck::reference

namespace schedcheck::reference {
namespace {

// OpportunisticBatching's signPod (scheduling_queue.go at v1.37.2): a pod is signed when it is
// added and when an update reaches it in a sub-queue; an update while it is in flight is only
// recorded, so the failed attempt requeues it with the signature it was popped with (the failure
// handler takes the informer's newer pod but keeps the QueuedPodInfo's signature).
TEST(SchedulingQueueV1_37Test, PodsAreSignedOnAddAndOnQueuedUpdates) {
  VirtualClock clock(0);
  QueueSetupV1_37 setup = MakeSetup({{kTargetPodUpdate, {{"fooPlugin1", true}}}});
  setup.sign_pod = [](const Pod& pod) -> PodSignature {
    return std::make_shared<const std::string>(pod.obj.spec().containers(0).image());
  };
  SchedulingQueueV1_37 q(QueueOptions{}, clock, setup);
  PodPtr a = ParsePod(
      "metadata: {name: p, namespace: default, uid: u}\n"
      "spec: {containers: [{name: c, image: a}]}",
      CompatLevel::kV1_27);
  PodPtr b = ParsePod(
      "metadata: {name: p, namespace: default, uid: u}\n"
      "spec: {containers: [{name: c, image: b}]}",
      CompatLevel::kV1_27);
  PodPtr c = ParsePod(
      "metadata: {name: p, namespace: default, uid: u}\n"
      "spec: {containers: [{name: c, image: c}]}",
      CompatLevel::kV1_27);
  q.Add(a);
  ASSERT_NE(q.Find("default/p"), nullptr);
  EXPECT_EQ(*q.Find("default/p")->signature, "a");
  q.Update(a, b);  // in activeQ: signed again
  EXPECT_EQ(*q.Find("default/p")->signature, "b");
  std::optional<QueuedPodInfo> popped = q.Pop();
  ASSERT_TRUE(popped);
  EXPECT_EQ(*popped->signature, "b");
  q.Update(b, c);  // in flight: recorded only
  QueuedPodInfo failed = Failed(*popped, {"fooPlugin1"});
  failed.info = MakePodInfo(c);  // the failure handler's newer copy
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(failed, q.SchedulingCycle()).ok());
  const QueuedPodInfo* requeued = q.Find("default/p");
  ASSERT_NE(requeued, nullptr);
  EXPECT_EQ(requeued->pod().obj.spec().containers(0).image(), "c");
  EXPECT_EQ(*requeued->signature, "b");
}

}  // namespace
}  // namespace schedcheck::reference
