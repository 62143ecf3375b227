// The v1.37 queue's unschedulable pool and the seam for the walk a cluster event's move makes over
// it (MoveAllToActiveOrBackoffQueue). The plain walk is the queue's own
// (scheduling_queue_v1_37_moves.cc: collect the pool's pods, then requeue them one by one, as
// upstream's moveAllToActiveOrBackoffQueue does); the accelerator's in-place walk
// (reference/accel/queue/fast_move_walk.h) implements MoveWalk and must make the same moves in the
// same order. Both call the rule pieces declared here.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_MOVE_WALK_H_
#define SCHEDCHECK_REFERENCE_QUEUE_MOVE_WALK_H_

#include <functional>
#include <map>
#include <string>

#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/queue/queueing_hint_map.h"

namespace schedcheck::reference {

// Pod keys ("namespace/name") by namespace, then name: the order in which the adapter makes
// upstream visit a move's pods (upstream ranges over a Go map).
struct NamespaceThenNameLess {
  bool operator()(const std::string& a, const std::string& b) const;
};
// unschedulableEntities, for pods.
using UnschedulablePool = std::map<std::string, QueuedPodInfo, NamespaceThenNameLess>;

// framework.ClusterEventIsWildCard at v1.37: the event every registration matches
// (UnschedulableTimeout, ForceActivate).
bool ClusterEventIsWildCard(const ClusterEvent& event);

// The gate test of moveEntitiesToActiveOrBackoffQueue: a gated pod waits for an event of its
// gating plugin; a wildcard event always reconsiders it, so that no pod is stuck behind an
// incomplete hint.
bool GatingPluginIgnores(const QueuedPodInfo& info, const ClusterEvent& event);

// isPodWorthRequeuing for a pod whose profile has no hint map (upstream: "shouldn't reach here
// unless bug"): kQueueAfterBackoff, except kQueueSkip for a wildcard event meant for another pod.
QueueingStrategy IsWorthRequeuingWithoutHintMap(const QueuedPodInfo& info,
                                                const ClusterEvent& event,
                                                const EventObjects& objects);

// A walk over the pool that replaces the plain one. The queue has checked that some plugin is
// interested in the event, and records the event for in-flight pods after the walk.
class MoveWalk {
 public:
  // What the walk may use of the queue.
  struct Queue {
    // Read only: the walk changes the pool through `requeue` alone.
    UnschedulablePool& pool;
    // The hint map of the profile with this scheduler name; null when the queue has none.
    std::function<const QueueingHintMap*(const std::string& scheduler_name)> hint_map;
    // Erases the entry and requeues its pod (requeuePodWithQueueingStrategy, never kQueueSkip).
    // A pod gated again comes back as a new entry at the same key; no other entry changes.
    std::function<void(UnschedulablePool::iterator entry, QueueingStrategy strategy)> requeue;
  };

  virtual ~MoveWalk() = default;
  // Requeues every pod of the pool that passes `pre_check` (null = all), that its gating plugin
  // does not ignore (GatingPluginIgnores) and that isPodWorthRequeuing does not skip, with that
  // strategy, in the pool's order, each pod at most once.
  virtual void MoveAll(const Queue& queue, const ClusterEvent& event, const EventObjects& objects,
                       const std::function<bool(const Pod&)>& pre_check) const = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_MOVE_WALK_H_
