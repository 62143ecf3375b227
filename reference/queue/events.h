// The cluster events the v1.27 scheduler moves pods with (internal/queue/events.go,
// docs/SEMANTICS.md#event-registration-and-requeueing), looked up by their queue-metric label.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_EVENTS_H_
#define SCHEDCHECK_REFERENCE_QUEUE_EVENTS_H_

#include <optional>
#include <string_view>

#include "reference/framework/events.h"

namespace schedcheck::reference {

// Labels of queue transitions that are not cluster events (v1.27 metric labels), plus the
// labels this reference uses for the in-flight and removal transitions.
namespace queue_label {
inline constexpr std::string_view kPodAdd = "PodAdd";
inline constexpr std::string_view kPodUpdate = "PodUpdate";
inline constexpr std::string_view kScheduleAttemptFailure = "ScheduleAttemptFailure";
inline constexpr std::string_view kBackoffComplete = "BackoffComplete";
inline constexpr std::string_view kForceActivate = "ForceActivate";
inline constexpr std::string_view kUnschedulableTimeout = "UnschedulableTimeout";
inline constexpr std::string_view kAssignedPodAdd = "AssignedPodAdd";
inline constexpr std::string_view kAssignedPodUpdate = "AssignedPodUpdate";
// Not upstream metric labels: a Pop, a pod deleted from the queue, a finished attempt.
inline constexpr std::string_view kPop = "Pop";
inline constexpr std::string_view kPodDelete = "PodDelete";
inline constexpr std::string_view kDone = "Done";
}  // namespace queue_label

// The predefined event with this label (AssignedPodAdd, NodeAdd, NodeTaintChange, PvcAdd,
// UnschedulableTimeout, WildCardEvent, ...); nullopt for an unknown label.
std::optional<ClusterEvent> PredefinedClusterEvent(std::string_view label);

// True for the node events whose moves upstream filters with preCheckForNode (node add and the
// node-update events).
bool IsNodeEventLabel(std::string_view label);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_EVENTS_H_
