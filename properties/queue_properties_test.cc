// Direct properties of the scheduling queue: the backoff formula, pop order, event matching,
// gating and the leftover flush.
#include <algorithm>
#include <set>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/runtime/queue_setup.h"

namespace schedcheck::properties {
namespace {

using reference::PodPtr;

PodPtr QueuePod(const std::string& name, int32_t priority, bool gated) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name(name);
  obj.mutable_spec()->add_containers()->set_name("c");
  obj.mutable_spec()->set_priority(priority);
  if (gated) obj.mutable_spec()->add_scheduling_gates()->set_name(kGateName);
  return *reference::BuildPod(obj, reference::FeaturesFor(reference::CompatLevel::kV1_27));
}

// A queue over the default profile's QueueSort and PreEnqueue, with test plugins A (NodeAdd) and
// B (AssignedPodDelete) registered.
struct TestQueue {
  VirtualClock clock;
  std::unique_ptr<check::Cluster> cluster =
      std::move(*check::Cluster::Build({}, reference::DefaultProfile("1.27"), "1.27"));
  reference::SchedulingQueue queue{
      reference::QueueOptions{},
      clock,
      reference::HooksFromFrameworks({&cluster->framework()}),
      {{*reference::PredefinedClusterEvent("NodeAdd"), "A"},
       {*reference::PredefinedClusterEvent("AssignedPodDelete"), "B"}}};
};

// calculateBackoffDuration: `initial` for attempts <= 1, else min(initial * 2^(attempts-1), max).
RC_GTEST_PROP(QueueProperties, BackoffEqualsTheFormula, ()) {
  const int64_t initial = *rc::gen::inRange<int64_t>(1, 20LL * kNanosPerSecond);
  const int64_t max = *rc::gen::inRange<int64_t>(1, 600LL * kNanosPerSecond);
  const int attempts = *rc::gen::inRange(0, 80);
  __int128 want = initial;
  if (attempts > 1) {
    for (int i = 1; i < attempts && want <= max; ++i) want *= 2;
    want = std::min<__int128>(want, max);
  }
  RC_ASSERT(reference::CalculateBackoffDuration(initial, max, attempts) ==
            static_cast<int64_t>(want));
  RC_ASSERT(reference::CalculateBackoffDuration(initial, max, attempts + 1) >=
            std::min(reference::CalculateBackoffDuration(initial, max, attempts), max));
}

// Pops follow PrioritySort: priority descending, then queue timestamp ascending; every pod once.
RC_GTEST_PROP(QueueProperties, PopsFollowQueueSort, ()) {
  TestQueue q;
  const int n = *rc::gen::inRange(1, 12);
  std::map<std::string, std::pair<int32_t, int64_t>> added;
  for (int i = 0; i < n; ++i) {
    const std::string name = "p" + std::to_string(i);
    int32_t prio = *rc::gen::element(0, 5, 10, 1000);
    int64_t ts = *rc::gen::inRange<int64_t>(0, 5) * kNanosPerSecond;
    q.queue.Add(QueuePod(name, prio, false), ts);
    added["default/" + name] = {prio, ts};
  }
  std::vector<std::string> popped;
  while (auto info = q.queue.Pop()) popped.push_back(info->pod().key);
  RC_ASSERT(popped.size() == added.size());
  RC_ASSERT(std::set<std::string>(popped.begin(), popped.end()).size() == added.size());
  for (size_t i = 1; i < popped.size(); ++i) {
    auto [p0, t0] = added[popped[i - 1]];
    auto [p1, t1] = added[popped[i]];
    RC_ASSERT(p0 > p1 || (p0 == p1 && t0 <= t1));
  }
}

// A pod rejected only by plugins that did not register an event stays put when that event
// fires; a pod rejected by a registering plugin moves (its backoff has expired, so to activeQ).
RC_GTEST_PROP(QueueProperties, OnlyRegisteredEventsMoveRejectedPods, ()) {
  TestQueue q;
  std::set<std::string> plugins = {*rc::gen::element<std::string>("A", "B", "C")};
  for (const char* extra : {"A", "B", "C"}) {
    if (*rc::gen::arbitrary<bool>()) plugins.insert(extra);
  }
  const std::string event =
      *rc::gen::element<std::string>("NodeAdd", "AssignedPodDelete", "NodeTaintChange", "PvcAdd");
  q.queue.PlaceInUnschedulable(QueuePod("p", 0, false), plugins, 0);
  q.clock.AdvanceNs(20 * kNanosPerSecond);
  q.queue.MoveAllToActiveOrBackoffQueue(*reference::PredefinedClusterEvent(event));
  const bool registered = (event == "NodeAdd" && plugins.count("A")) ||
                          (event == "AssignedPodDelete" && plugins.count("B"));
  RC_ASSERT(q.queue.InActiveQ("default/p") == registered);
  RC_ASSERT(q.queue.InUnschedulable("default/p") == !registered);
}

// Gated pods are never popped, whatever events, flushes and clock moves happen; once the gate is
// removed by an update they are.
RC_GTEST_PROP(QueueProperties, GatedPodsAreNeverPopped, ()) {
  TestQueue q;
  std::map<std::string, PodPtr> gated;
  const int n = *rc::gen::inRange(1, 8);
  for (int i = 0; i < n; ++i) {
    const std::string name = "p" + std::to_string(i);
    const bool g = *rc::gen::arbitrary<bool>();
    PodPtr pod = QueuePod(name, *rc::gen::element(0, 10), g);
    if (g) gated[pod->key] = pod;
    q.queue.Add(pod);
  }
  const int steps = *rc::gen::inRange(0, 10);
  for (int i = 0; i < steps; ++i) {
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        q.queue.MoveAllToActiveOrBackoffQueue(*reference::PredefinedClusterEvent("NodeAdd"));
        break;
      case 1:
        q.clock.AdvanceNs(*rc::gen::element<int64_t>(1, 31, 301) * kNanosPerSecond);
        break;
      case 2:
        q.queue.FlushBackoffQCompleted();
        break;
      case 3:
        q.queue.FlushUnschedulablePodsLeftover();
        break;
      default:
        if (auto info = q.queue.Pop()) {
          RC_ASSERT(gated.count(info->pod().key) == 0);
          info->unschedulable_plugins = {"A"};
          RC_ASSERT(q.queue.AddUnschedulableIfNotPresent(*info, q.queue.SchedulingCycle()).ok());
        }
    }
  }
  for (const auto& [key, pod] : gated) RC_ASSERT(q.queue.InUnschedulable(key));
  while (auto info = q.queue.Pop()) RC_ASSERT(gated.count(info->pod().key) == 0);
  for (const auto& [key, pod] : gated)
    q.queue.Update(pod, QueuePod(pod->name(), pod->priority, false));
  std::set<std::string> popped;
  while (auto info = q.queue.Pop()) popped.insert(info->pod().key);
  for (const auto& [key, pod] : gated) RC_ASSERT(popped.count(key) == 1);
}

// The leftover flush empties the pool of every ungated pod that waited longer than the timeout
// (default 300 s), whatever its rejecting plugins, and keeps the others.
RC_GTEST_PROP(QueueProperties, LeftoverFlushReleasesEveryTimedOutPod, ()) {
  TestQueue q;
  const int n = *rc::gen::inRange(1, 8);
  std::map<std::string, int64_t> placed;
  for (int i = 0; i < n; ++i) {
    const std::string name = "p" + std::to_string(i);
    int64_t ts = *rc::gen::inRange<int64_t>(0, 400) * kNanosPerSecond;
    q.queue.PlaceInUnschedulable(QueuePod(name, 0, false),
                                 {*rc::gen::element<std::string>("A", "B", "C")}, ts);
    placed["default/" + name] = ts;
  }
  q.clock.SetNs(*rc::gen::inRange<int64_t>(400, 800) * kNanosPerSecond);
  q.queue.FlushUnschedulablePodsLeftover();
  for (const auto& [key, ts] : placed) {
    const bool due = q.clock.NowNs() - ts > 300 * kNanosPerSecond;
    RC_ASSERT(q.queue.InUnschedulable(key) == !due);
  }
}

}  // namespace
}  // namespace schedcheck::properties
