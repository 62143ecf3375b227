// NewSchedulingQueue: the scheduling queue of a run's features (upstream's NewSchedulingQueue /
// NewPriorityQueue with its Options), behind SchedulingQueueInterface. The queue takes plain
// options — QueueSort's Less, each profile's PreEnqueue plugins, queueing hints and event
// registrations — which the scheduler builds from its profiles (QueueSetupFor in
// reference/runtime/queue_setup.h), as upstream's scheduler.New hands its queue the
// frameworks' maps; the queue never sees a Framework.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_NEW_SCHEDULING_QUEUE_H_
#define SCHEDCHECK_REFERENCE_QUEUE_NEW_SCHEDULING_QUEUE_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/base/clock.h"
#include "reference/base/features.h"
#include "reference/framework/interface.h"
#include "reference/queue/queueing_hint_map.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/queue/scheduling_queue_interface.h"
#include "reference/queue/scheduling_queue_v1_37.h"

namespace schedcheck::reference {

// What the queue needs of one profile (WithPreEnqueuePluginMap, WithQueueingHintMapPerProfile,
// and the v1.27 cluster-event map).
struct QueueProfile {
  // The profile's PreEnqueue plugins in the profile's order: v1.27 runs them in this order and
  // the first rejection gates the pod; v1.37 runs them in plugin-name order.
  std::vector<PreEnqueueFunction> pre_enqueue;
  // v1.37: the profile's queueing hints (buildQueueingHintMap).
  QueueingHintMap hints;
  // v1.27: (registered event, plugin) of the profile's plugins (EventsToRegister); a move
  // matches the events of every profile.
  ClusterEventMap events;
};

// The queue's options from the scheduler's profiles.
struct QueueSetup {
  std::function<bool(const QueuedPodInfo&, const QueuedPodInfo&)> less;  // QueueSort Less
  // Profiles by scheduler name, and the names in the configuration's order.
  std::map<std::string, QueueProfile> profiles;
  std::vector<std::string> profile_order;
  // v1.37 OpportunisticBatching (signPod): the pod's signature under its profile; unset = null.
  std::function<PodSignature(const Pod&)> sign_pod;
  // v1.37: the walk a move makes over the unschedulable pool; null = the queue's plain walk.
  std::shared_ptr<const MoveWalk> move_walk;
};

// What the queue reads and reports besides its options; every field is optional.
struct QueueEnvironment {
  // v1.37: the Unix time of virtual time 0 (backoff windows are whole seconds of Unix time).
  int64_t epoch_ns = 0;
  // v1.27: the namespaces' labels, for AssignedPodAdded's affinity terms.
  const ClusterObjects* objects = nullptr;
  TransitionSink sink;
  Nominator::PodLookup pod_lookup;
};

// The queue a run's `features` call for: with scheduler_queueing_hints the v1.37 priority queue
// (a whole other algorithm: queueing hints, in-flight events), configured by
// scheduler_pop_from_backoff_q and the pod-resource gates that classify pod updates; without,
// the v1.27 one.
std::unique_ptr<SchedulingQueueInterface> NewSchedulingQueue(const Features& features,
                                                             QueueOptions options,
                                                             const Clock& clock, QueueSetup setup,
                                                             QueueEnvironment environment);

// The parts of `setup` each level's queue takes (NewSchedulingQueue uses them; tests may too).
// The v1.37 setup keeps its feature fields at their defaults; NewSchedulingQueue sets them.
QueueHooks HooksFromSetup(const QueueSetup& setup);
ClusterEventMap EventMapFromSetup(const QueueSetup& setup);
QueueSetupV1_37 SetupV1_37FromSetup(QueueSetup setup);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_NEW_SCHEDULING_QUEUE_H_
