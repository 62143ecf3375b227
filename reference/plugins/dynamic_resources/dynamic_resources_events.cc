// DynamicResources' EventsToRegister with its QueueingHints (dynamicresources.go,
// isSchedulableAfterClaimChange, isSchedulableAfterTargetPodUpdate). The PreQueueingHint belongs
// to SchedulerPreQueueingHints, alpha and off.
#include <google/protobuf/util/message_differencer.h>

#include "reference/plugins/dynamic_resources/dynamic_resources.h"
#include "reference/plugins/dynamic_resources/pod_claims.h"

namespace schedcheck::reference {

std::vector<ClusterEventWithHint> DynamicResources::EventsToRegisterWithHints() const {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  const ClusterObjects* objects = handle_.objects;
  QueueingHintFn after_claim_change = [objects](const Pod& pod,
                                                const EventObjects& e) -> Result<QueueingHint> {
    auto claims = As<k8s::ResourceClaim>(e);
    if (!claims.ok()) return claims.error();
    const auto [original, modified] = *claims;
    if (modified == nullptr) {
      // A deleted claim frees its devices only when it was allocated.
      if (original == nullptr || !original->status().has_allocation())
        return QueueingHint::kQueueSkip;
      return QueueingHint::kQueue;
    }
    bool uses_claim = false;
    auto pod_claims = PodResourceClaims(pod, *objects);
    if (!pod_claims.ok()) return QueueingHint::kQueueSkip;  // still waits for a claim
    for (const k8s::ResourceClaim* claim : *pod_claims) {
      if (ClaimUid(*claim) == ClaimUid(*modified)) uses_claim = true;
    }
    // A deallocated claim frees devices for every pod.
    if (original != nullptr && original->status().has_allocation() &&
        !modified->status().has_allocation()) {
      return QueueingHint::kQueue;
    }
    if (!uses_claim) return QueueingHint::kQueueSkip;
    if (original == nullptr) return QueueingHint::kQueue;
    if (google::protobuf::util::MessageDifferencer::Equals(original->status(),
                                                           modified->status())) {
      return QueueingHint::kQueueSkip;
    }
    return QueueingHint::kQueue;
  };
  QueueingHintFn after_target_pod_update =
      [objects](const Pod&, const EventObjects& e) -> Result<QueueingHint> {
    if (e.new_pod == nullptr)
      return Error{"unexpected object in isSchedulableAfterTargetPodUpdate"};
    if (!PodResourceClaims(*e.new_pod, *objects).ok()) return QueueingHint::kQueueSkip;
    return QueueingHint::kQueue;
  };
  return {
      {event(resource::kNode,
             action::kAdd | action::kUpdateNodeLabel | action::kUpdateNodeAllocatable),
       nullptr},
      {event(resource::kResourceClaim, action::kAdd | action::kUpdateV1_37 | action::kDelete),
       after_claim_change},
      {event(resource::kTargetPod, action::kUpdatePodGeneratedResourceClaim),
       after_target_pod_update},
      {event(resource::kDeviceClass, action::kAdd | action::kUpdateV1_37), nullptr},
      {event(resource::kResourceSlice, action::kAdd | action::kUpdateV1_37), nullptr},
  };
}

std::vector<ClusterEvent> DynamicResources::EventsToRegister() const {
  std::vector<ClusterEvent> events;
  for (const ClusterEventWithHint& registered : EventsToRegisterWithHints()) {
    events.push_back(registered.event);
  }
  return events;
}

}  // namespace schedcheck::reference
