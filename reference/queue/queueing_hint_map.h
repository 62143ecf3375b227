// The v1.37 scheduling queue's requeue decision (backend/queue/scheduling_queue.go at v1.37.2):
// the queueing-hint map built from a profile's plugins (scheduler.go buildQueueingHintMap) and
// isPodWorthRequeuing, which asks the hints of the plugins that rejected a pod whether an event
// may make it schedulable.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_QUEUEING_HINT_MAP_H_
#define SCHEDCHECK_REFERENCE_QUEUE_QUEUEING_HINT_MAP_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedcheck::reference {

struct QueueingHintFunction {
  std::string plugin;
  QueueingHintFn fn;  // never empty: a registration without one gets defaultQueueingHintFn (Queue)
};

// Registered event → its hint functions (built by the scheduler from a profile's plugins:
// BuildQueueingHintMap in reference/runtime/queue_setup.h). Entries in order of first registration;
// the functions of an entry in plugin-name order, then registration order. Upstream keeps a Go map,
// whose order is random; the decision below does not depend on it.
class QueueingHintMap {
 public:
  void Add(const ClusterEvent& event, QueueingHintFunction fn);
  const std::vector<std::pair<ClusterEvent, std::vector<QueueingHintFunction>>>& entries() const {
    return entries_;
  }

 private:
  std::vector<std::pair<ClusterEvent, std::vector<QueueingHintFunction>>> entries_;
};

// queueingStrategy, in increasing priority.
enum class QueueingStrategy { kQueueSkip, kQueueAfterBackoff, kQueueImmediately };

// What rejected a pod in its last attempt (QueuedPodInfo's UnschedulablePlugins and
// PendingPlugins).
struct Rejectors {
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
};

// isPodWorthRequeuing for `pod`: with no rejector, kQueueAfterBackoff; a wildcard event
// (UnschedulableTimeout, ForceActivate) is kQueueAfterBackoff too, unless it carries a pod in
// objects.new_pod that is another pod (ForceActivate for that pod only: kQueueSkip); otherwise
// every hint function of a rejecting plugin registered for an event that matches
// (MatchClusterEventsV1_37) is asked; an error counts as Queue; Queue from a Pending plugin is
// kQueueImmediately (the highest, so it stops there), from an unschedulable plugin
// kQueueAfterBackoff; kQueueSkip when every answer is QueueSkip or no function applies.
// `hint_calls`, when given, counts the calls.
QueueingStrategy IsPodWorthRequeuing(const QueueingHintMap& map, const Pod& pod,
                                     const Rejectors& rejectors, const ClusterEvent& event,
                                     const EventObjects& objects, int* hint_calls = nullptr);
// The hint functions of `map` registered for an event that matches `event`
// (MatchClusterEventsV1_37), in the order isPodWorthRequeuing asks them. The queue computes them
// once per event and asks them for every unschedulable pod.
using MatchingHints = std::vector<const QueueingHintFunction*>;
MatchingHints MatchingHintFunctions(const QueueingHintMap& map, const ClusterEvent& event);
// The same as above with the matching functions given and the rejecting plugins read where they
// are kept (no copies).
QueueingStrategy IsPodWorthRequeuing(const MatchingHints& matching, const Pod& pod,
                                     const std::set<std::string>& unschedulable_plugins,
                                     const std::set<std::string>& pending_plugins,
                                     const ClusterEvent& event, const EventObjects& objects,
                                     int* hint_calls = nullptr);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_QUEUEING_HINT_MAP_H_
