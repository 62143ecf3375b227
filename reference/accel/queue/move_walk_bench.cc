// The cost of one move of the v1.37 queue (MoveAllToActiveOrBackoffQueue) by the plain walk and
// by the accelerator's in-place walk, over unschedulable pools of 1k, 10k and 100k pods:
//   bazel run -c opt //reference/accel/queue:move_walk_bench
// Every pod of the pool was rejected by NodeResourcesFit, whose hint skips the event, so the pool
// is the same before and after each move and each iteration measures one whole walk. The hint map
// has the shape of the v1.37 default profile's: kRegistrations events, each with hint functions of
// several plugins (the walk matches the event against every registration). "per_pod" is the
// move's cost divided by the pool's size.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "reference/accel/queue/fast_move_walk.h"
#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

Result<QueueingHint> Skip(const Pod&, const EventObjects&) { return QueueingHint::kQueueSkip; }
Result<QueueingHint> Queue(const Pod&, const EventObjects&) { return QueueingHint::kQueue; }

// Registrations as many and as wide as the default profile's at v1.37: pod events on the three
// pod resources, node events, storage events; NodeResourcesFit on node additions and allocatable
// changes (where it skips) and on assigned-pod deletions.
QueueingHintMap DefaultShapedHints() {
  QueueingHintMap map;
  const std::string plugins[] = {"NodeAffinity",    "NodePorts",     "InterPodAffinity",
                                 "TaintToleration", "VolumeBinding", "PodTopologySpread"};
  int i = 0;
  for (std::string_view r :
       {resource::kAssignedPod, resource::kUnscheduledPod, resource::kTargetPod,
        resource::kPersistentVolume, resource::kPersistentVolumeClaim, resource::kStorageClass,
        resource::kCSINode, resource::kCSIDriver, resource::kCSIStorageCapacity}) {
    for (uint32_t a : {action::kAdd, action::kDelete, action::kUpdateV1_37}) {
      map.Add({std::string(r), a, ""}, {plugins[i++ % 6], Queue});
      map.Add({std::string(r), a, ""}, {plugins[i++ % 6], Queue});
    }
  }
  map.Add({std::string(resource::kNode), action::kAdd | action::kUpdateNodeAllocatable, ""},
          {"NodeResourcesFit", Skip});
  map.Add({std::string(resource::kAssignedPod), action::kDelete, ""}, {"NodeResourcesFit", Queue});
  map.Add({std::string(resource::kNode), action::kAdd | action::kUpdateNodeTaint, ""},
          {"TaintToleration", Queue});
  map.Add({std::string(resource::kNode), action::kAdd | action::kUpdateNodeLabel, ""},
          {"NodeAffinity", Queue});
  map.Add({std::string(resource::kWildCard), action::kAllV1_37, ""}, {"DynamicResources", Queue});
  return map;
}

// A queue whose unschedulable pool holds `pods` pods, in 10 namespaces.
std::unique_ptr<SchedulingQueueV1_37> PoolOf(int pods, const VirtualClock& clock, bool fast) {
  QueueSetupV1_37 setup;
  setup.less = [](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    return a.timestamp_ns < b.timestamp_ns;
  };
  setup.profiles["default-scheduler"].hints = DefaultShapedHints();
  if (fast) setup.move_walk = std::make_shared<FastMoveWalk>();
  auto queue = std::make_unique<SchedulingQueueV1_37>(QueueOptions{}, clock, std::move(setup));
  for (int i = 0; i < pods; ++i) {
    const std::string name = "pod-" + std::to_string(i), ns = "ns-" + std::to_string(i % 10);
    queue->Add(testing::ParsePod("metadata: {name: " + name + ", namespace: " + ns + ", uid: " +
                                     ns + "." + name + "}\nspec: {containers: [{name: c}]}\n",
                                 CompatLevel::kV1_27));
    std::optional<QueuedPodInfo> info = queue->Pop();
    info->unschedulable_plugins = {"NodeResourcesFit"};
    (void)queue->AddUnschedulableIfNotPresent(*info, queue->SchedulingCycle());
  }
  return queue;
}

void BM_Move(benchmark::State& state, bool fast) {
  VirtualClock clock(1000 * kNanosPerSecond);
  const int pods = static_cast<int>(state.range(0));
  std::unique_ptr<SchedulingQueueV1_37> queue = PoolOf(pods, clock, fast);
  const ClusterEvent event{std::string(resource::kNode), action::kUpdateNodeAllocatable, ""};
  for (auto _ : state) queue->MoveAllToActiveOrBackoffQueue(event, {});
  if (queue->UnschedulableKeys().size() != static_cast<size_t>(pods)) {
    state.SkipWithError("the move moved pods: the walk was not measured alone");
  }
  state.counters["per_pod"] =
      benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

void BM_PlainWalk(benchmark::State& state) { BM_Move(state, false); }
void BM_FastWalk(benchmark::State& state) { BM_Move(state, true); }

BENCHMARK(BM_PlainWalk)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FastWalk)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace schedcheck::reference

BENCHMARK_MAIN();
