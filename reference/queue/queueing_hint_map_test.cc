#include "reference/queue/queueing_hint_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "reference/plugins/registry.h"
#include "reference/runtime/profile.h"
#include "reference/runtime/queue_setup.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using namespace action;

ClusterEvent Event(std::string_view resource, uint32_t bits) {
  return {std::string(resource), bits, ""};
}

// The fake hint functions of upstream's test, counting their calls.
struct Hints {
  int calls = 0;
  QueueingHintFn queue = [this](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    ++calls;
    return QueueingHint::kQueue;
  };
  QueueingHintFn skip = [this](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    ++calls;
    return QueueingHint::kQueueSkip;
  };
  QueueingHintFn error = [this](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    ++calls;
    return Error{"unexpected error"};
  };
};

const PodPtr& Pod1() {
  static const PodPtr pod =
      testing::ParsePod("metadata: {name: pod1, namespace: ns1, uid: '1'}", CompatLevel::kV1_27);
  return pod;
}

struct Row {
  std::string name;
  Rejectors rejectors;
  ClusterEvent event;
  EventObjects objects;
  std::vector<std::pair<ClusterEvent, std::vector<std::pair<std::string, QueueingHintFn>>>> map;
  QueueingStrategy want;
  int want_calls;
};

// Every row of kubernetes v1.37.2 pkg/scheduler/backend/queue/scheduling_queue_test.go
// Test_isPodWorthRequeuing, strategy and number of hint calls.
TEST(IsPodWorthRequeuingTest, TestIsPodWorthRequeuingRows) {
  Hints h;
  const ClusterEvent node_add = Event(resource::kNode, kAdd);
  const ClusterEvent wildcard = Event(resource::kWildCard, kAllV1_37);
  EventObjects new_node;
  new_node.new_node = testing::ParseNode("metadata: {name: n}");
  EventObjects same_pod;
  same_pod.new_pod =
      testing::ParsePod("metadata: {name: pod1, namespace: ns1, uid: '1'}", CompatLevel::kV1_27);
  EventObjects other_pod;
  other_pod.new_pod = testing::ParsePod("metadata: {name: pod-different, namespace: ns2, uid: '2'}",
                                        CompatLevel::kV1_27);
  const std::vector<Row> rows = {
      {"return Queue when no queueing hint function is registered for the event",
       {{"fooPlugin1"}, {}},
       node_add,
       new_node,
       {{Event(resource::kAssignedPod, kAdd), {{"fooPlugin1", h.queue}}}},
       QueueingStrategy::kQueueSkip,
       0},
      {"Treat the event as Queue when QueueHintFn returns error",
       {{"fooPlugin1"}, {}},
       node_add,
       new_node,
       {{node_add, {{"fooPlugin1", h.error}}}},
       QueueingStrategy::kQueueAfterBackoff,
       1},
      {"return Queue when the event is wildcard",
       {{"fooPlugin1"}, {}},
       wildcard,
       {},
       {},
       QueueingStrategy::kQueueAfterBackoff,
       0},
      {"return Queue when the event is wildcard and the wildcard targets the pod to be requeued "
       "right now",
       {{"fooPlugin1"}, {}},
       wildcard,
       same_pod,
       {},
       QueueingStrategy::kQueueAfterBackoff,
       0},
      {"return Skip when the event is wildcard, but the wildcard targets a different pod",
       {{"fooPlugin1"}, {}},
       wildcard,
       other_pod,
       {},
       QueueingStrategy::kQueueSkip,
       0},
      {"interprets Queue from the Pending plugin as queueImmediately",
       {{"fooPlugin1", "fooPlugin3"}, {"fooPlugin2"}},
       node_add,
       new_node,
       {{node_add,
         {{"fooPlugin1", h.queue},
          {"fooPlugin2", h.queue},
          {"fooPlugin3", h.queue},
          {"fooPlugin4", h.error}}}},
       QueueingStrategy::kQueueImmediately,
       2},
      {"interprets Queue from the Unschedulable plugin as queueAfterBackoff",
       {{"fooPlugin1", "fooPlugin2"}, {}},
       node_add,
       new_node,
       {{node_add, {{"fooPlugin1", h.skip}, {"fooPlugin2", h.queue}}}},
       QueueingStrategy::kQueueAfterBackoff,
       2},
      {"Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins "
       "is ignored",
       {{"fooPlugin1", "fooPlugin2"}, {}},
       node_add,
       new_node,
       {{node_add, {{"fooPlugin1", h.skip}, {"fooPlugin2", h.skip}, {"fooPlugin3", h.queue}}}},
       QueueingStrategy::kQueueSkip,
       2},
      {"If event is specific Node update event, queueing hint function for "
       "NodeUpdate/UpdateNodeLabel is also executed",
       {{"fooPlugin1", "fooPlugin2"}, {}},
       Event(resource::kNode, kUpdateNodeLabel),
       new_node,
       {{Event(resource::kNode, kUpdateNodeLabel),
         {{"fooPlugin1", h.queue}, {"fooPlugin2", h.queue}}},
        {Event(resource::kNode, kUpdateV1_37), {{"fooPlugin1", h.queue}}},
        {node_add, {{"fooPlugin1", h.queue}}}},
       QueueingStrategy::kQueueAfterBackoff,
       1},
      {"If event with '*' Resource, queueing hint function for specified Resource is also executed",
       {{"fooPlugin1"}, {}},
       node_add,
       new_node,
       {{Event(resource::kWildCard, kAdd), {{"fooPlugin1", h.queue}}}},
       QueueingStrategy::kQueueAfterBackoff,
       1},
      {"If event is a wildcard one, queueing hint function for all kinds of events is executed",
       {{"fooPlugin1"}, {}},
       Event(resource::kNode, kUpdateNodeLabel | kUpdateNodeTaint),
       new_node,
       {{wildcard, {{"fooPlugin1", h.queue}}}},
       QueueingStrategy::kQueueAfterBackoff,
       1},
  };
  for (const Row& row : rows) {
    QueueingHintMap map;
    for (const auto& [event, fns] : row.map) {
      for (const auto& [plugin, fn] : fns) map.Add(event, {plugin, fn});
    }
    h.calls = 0;
    EXPECT_EQ(IsPodWorthRequeuing(map, *Pod1(), row.rejectors, row.event, row.objects), row.want)
        << row.name;
    EXPECT_EQ(h.calls, row.want_calls) << row.name;
  }
}

// The v1.37 default profile's framework over an empty cluster (null when it cannot be built, a
// test failure), with or without GenericWorkload.
struct DefaultProfileV137 {
  Snapshot snapshot;
  ClusterObjects objects;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw;

  explicit DefaultProfileV137(bool generic_workload = false) {
    handle.snapshot = &snapshot;
    handle.objects = &objects;
    handle.features = FeaturesFor(CompatLevel::kV1_37);
    handle.features.generic_workload = generic_workload;
    auto made = Framework::Create(DefaultProfile("1.37"), PluginRegistry(), &handle);
    EXPECT_TRUE(made.ok()) << made.message();
    if (made.ok()) fw = std::move(*made);
  }
  DefaultProfileV137(const DefaultProfileV137&) = delete;
  DefaultProfileV137& operator=(const DefaultProfileV137&) = delete;
};

// The map over the v1.37 default profile: registrations as the plugins make them, Pod
// registrations unrolled, plugins with only the v1.27 interface (the volume placeholders) on their
// own events without hints, plugins with neither (DynamicResources) on every resource, and only
// the points whose rejection leaves a pod unschedulable.
TEST(QueueingHintMapTest, BuildsFromTheV137DefaultProfile) {
  const DefaultProfileV137 profile;
  ASSERT_NE(profile.fw, nullptr);
  const QueueingHintMap map = BuildQueueingHintMap(*profile.fw);

  auto plugins_for = [&](const ClusterEvent& event) {
    std::vector<std::string> names;
    for (const auto& [registered, fns] : map.entries()) {
      if (registered.resource != event.resource || registered.action != event.action) continue;
      for (const QueueingHintFunction& fn : fns) names.push_back(fn.plugin);
    }
    return names;
  };
  // Node Add alone: NodeName and NodePorts, without hint functions of their own, and the
  // VolumeRestrictions placeholder's v1.27 registration.
  EXPECT_EQ(plugins_for(Event(resource::kNode, kAdd)),
            (std::vector<std::string>{"NodeName", "NodePorts", "VolumeRestrictions"}));
  EXPECT_EQ(plugins_for(Event(resource::kNode, kAdd | kUpdateNodeTaint)),
            (std::vector<std::string>{"NodeUnschedulable", "TaintToleration"}));
  // No QueueSort, Score-only or Bind plugin registers anything.
  for (const auto& [registered, fns] : map.entries()) {
    for (const QueueingHintFunction& fn : fns) {
      EXPECT_NE(fn.plugin, "PrioritySort");
      EXPECT_NE(fn.plugin, "DefaultBinder");
      EXPECT_NE(fn.plugin, "ImageLocality");
      EXPECT_NE(fn.plugin, "NodeResourcesBalancedAllocation");
    }
  }
  // DynamicResources: Node Add, label and allocatable updates, without a hint function; its
  // ResourceClaim registration with isSchedulableAfterClaimChange.
  EXPECT_EQ(plugins_for(Event(resource::kNode, kAdd | kUpdateNodeLabel | kUpdateNodeAllocatable)),
            (std::vector<std::string>{"DynamicResources"}));
  EXPECT_EQ(plugins_for(Event(resource::kResourceClaim, kAdd | kUpdateV1_37 | kDelete)),
            (std::vector<std::string>{"DynamicResources"}));

  const PodPtr pod = testing::ParsePod("metadata: {name: p, uid: p}", CompatLevel::kV1_27);
  EventObjects unschedulable_node;
  unschedulable_node.new_node =
      testing::ParseNode("metadata: {name: n}\nspec: {unschedulable: true}");
  const ClusterEvent node_add = Event(resource::kNode, kAdd);
  // NodeName has no hint: any node add may help.
  EXPECT_EQ(IsPodWorthRequeuing(map, *pod, {{"NodeName"}, {}}, node_add, unschedulable_node),
            QueueingStrategy::kQueueAfterBackoff);
  // NodeUnschedulable's hint: an unschedulable node does not help.
  EXPECT_EQ(
      IsPodWorthRequeuing(map, *pod, {{"NodeUnschedulable"}, {}}, node_add, unschedulable_node),
      QueueingStrategy::kQueueSkip);
  // The same plugin Pending: Queue from it means straight to activeQ.
  EXPECT_EQ(IsPodWorthRequeuing(map, *pod, {{}, {"NodeName"}}, node_add, unschedulable_node),
            QueueingStrategy::kQueueImmediately);
  // A label change reaches a volume placeholder's catch-all registration.
  EventObjects label_change;
  label_change.old_node = testing::ParseNode("metadata: {name: n}");
  label_change.new_node = testing::ParseNode("metadata: {name: n, labels: {a: b}}");
  EXPECT_EQ(IsPodWorthRequeuing(map, *pod, {{"VolumeBinding"}, {}},
                                Event(resource::kNode, kUpdateNodeLabel), label_change),
            QueueingStrategy::kQueueAfterBackoff);
}

// With GenericWorkload (v1.37, beta, off by default) the default profile gains GangScheduling:
// the only Permit plugin, a PreEnqueue plugin, and the only registration of UnscheduledPod Add
// and of PodGroup events.
TEST(QueueingHintMapTest, GenericWorkloadAddsGangScheduling) {
  for (bool gate : {false, true}) {
    SCOPED_TRACE(gate ? "GenericWorkload on" : "GenericWorkload off");
    const DefaultProfileV137 profile(gate);
    ASSERT_NE(profile.fw, nullptr);
    const QueueingHintMap map = BuildQueueingHintMap(*profile.fw);
    auto plugins_for = [&](const ClusterEvent& event) {
      std::vector<std::string> names;
      for (const auto& [registered, fns] : map.entries()) {
        if (!registered.Covers(event)) continue;
        for (const QueueingHintFunction& fn : fns) names.push_back(fn.plugin);
      }
      return names;
    };
    using Names = std::vector<std::string>;
    EXPECT_EQ(plugins_for(Event(resource::kUnscheduledPod, kAdd)),
              gate ? (Names{"GangScheduling"}) : (Names{}));
    EXPECT_EQ(plugins_for(Event(resource::kPodGroup, kAdd)),
              gate ? (Names{"GangScheduling"}) : Names{});
    EXPECT_EQ(profile.fw->PluginNames(ExtensionPoint::kPermit),
              gate ? Names{"GangScheduling"} : Names{});
    const Names pre_enqueue = profile.fw->PluginNames(ExtensionPoint::kPreEnqueue);
    EXPECT_EQ(std::count(pre_enqueue.begin(), pre_enqueue.end(), "GangScheduling"), gate ? 1 : 0);
  }
}

}  // namespace
}  // namespace schedcheck::reference
