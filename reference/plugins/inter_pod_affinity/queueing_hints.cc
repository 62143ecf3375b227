// InterPodAffinity's v1.37 EventsToRegister and queueing hints (interpodaffinity/plugin.go at
// v1.37.2). The hints parse the rejected pod's required terms afresh (framework.GetAffinityTerms)
// and match them with Matches(pod, nil): a namespaceSelector is matched against no labels, never
// against the namespace lister, exactly as upstream's hints do.
#include <string>
#include <vector>

#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "reference/plugins/inter_pod_affinity/parse.h"

namespace schedcheck::reference {
namespace {

using TermList = google::protobuf::RepeatedPtrField<k8s::PodAffinityTerm>;

// framework.GetAffinityTerms: the first term that does not parse is the error.
Result<std::vector<AffinityTerm>> GetAffinityTerms(const Pod& pod, const TermList& terms) {
  std::vector<AffinityTerm> out;
  for (const k8s::PodAffinityTerm& term : terms) {
    std::string err = interpodaffinity::PodAffinityTermError(term);
    if (!err.empty()) return Error{err};
    out.push_back(MakeAffinityTerm(pod, term));
  }
  return out;
}

// GetPodAffinityTerms / GetPodAntiAffinityTerms: the required terms (none without affinity).
const TermList& RequiredAffinityTerms(const Pod& pod) {
  static const TermList kNone;
  const k8s::PodSpec& spec = pod.obj.spec();
  if (!spec.has_affinity() || !spec.affinity().has_pod_affinity()) return kNone;
  return spec.affinity().pod_affinity().required_during_scheduling_ignored_during_execution();
}
const TermList& RequiredAntiAffinityTerms(const Pod& pod) {
  static const TermList kNone;
  const k8s::PodSpec& spec = pod.obj.spec();
  if (!spec.has_affinity() || !spec.affinity().has_pod_anti_affinity()) return kNone;
  return spec.affinity().pod_anti_affinity().required_during_scheduling_ignored_during_execution();
}

// podMatchesAllAffinityTerms: false for no terms.
bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  for (const AffinityTerm& t : terms) {
    if (!t.Matches(pod, nullptr)) return false;
  }
  return true;
}

bool PodMatchesAnyAffinityTerms(const std::vector<AffinityTerm>& terms, const Pod& pod) {
  for (const AffinityTerm& t : terms) {
    if (t.Matches(pod, nullptr)) return true;
  }
  return false;
}

bool Unscheduled(const Pod& pod) {
  return pod.node_name().empty() && pod.obj.status().nominated_node_name().empty();
}

// isSchedulableAfterAssignedPodChange. Affinity is satisfied by one pod matching all terms, so an
// update or add counts when the pod comes to match them all; anti-affinity is lifted when a pod
// stops matching (update), or goes away (delete) while it matches the rejected pod's terms or the
// rejected pod matches its own.
Result<QueueingHint> IsSchedulableAfterAssignedPodChange(const Pod& pod, const EventObjects& e) {
  // A change of nodeName or nominatedNodeName arrives as Add / Delete.
  if ((e.new_pod && Unscheduled(*e.new_pod)) || (e.old_pod && Unscheduled(*e.old_pod))) {
    return QueueingHint::kQueueSkip;
  }
  auto terms = GetAffinityTerms(pod, RequiredAffinityTerms(pod));
  if (!terms.ok()) return terms.error();
  auto anti_terms = GetAffinityTerms(pod, RequiredAntiAffinityTerms(pod));
  if (!anti_terms.ok()) return anti_terms.error();

  if (e.new_pod && e.old_pod) {
    if (!PodMatchesAllAffinityTerms(*terms, *e.old_pod) &&
        PodMatchesAllAffinityTerms(*terms, *e.new_pod)) {
      return QueueingHint::kQueue;
    }
    if (PodMatchesAnyAffinityTerms(*anti_terms, *e.old_pod) &&
        !PodMatchesAnyAffinityTerms(*anti_terms, *e.new_pod)) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kQueueSkip;
  }
  if (e.new_pod) {
    return PodMatchesAllAffinityTerms(*terms, *e.new_pod) ? QueueingHint::kQueue
                                                          : QueueingHint::kQueueSkip;
  }
  const Pod& deleted = *e.old_pod;
  if (PodMatchesAnyAffinityTerms(*anti_terms, deleted)) return QueueingHint::kQueue;
  auto deleted_anti_terms = GetAffinityTerms(deleted, RequiredAntiAffinityTerms(deleted));
  if (!deleted_anti_terms.ok()) return deleted_anti_terms.error();
  return PodMatchesAnyAffinityTerms(*deleted_anti_terms, pod) ? QueueingHint::kQueue
                                                              : QueueingHint::kQueueSkip;
}

// isSchedulableAfterTargetPodUpdateLabel: another pod's anti-affinity may no longer select it.
Result<QueueingHint> IsSchedulableAfterTargetPodUpdateLabel(const Pod&, const EventObjects&) {
  return QueueingHint::kQueue;
}

// isSchedulableAfterNodeChange. Affinity: a node added with a term's topology key, or updated to
// gain it or change its value. Anti-affinity: any added node (with any anti-affinity term), or an
// update that removes a term's topology key or changes its value.
Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod& pod, const EventObjects& e) {
  auto terms = GetAffinityTerms(pod, RequiredAffinityTerms(pod));
  if (!terms.ok()) return terms.error();
  const Labels& modified = e.new_node->labels();
  for (const AffinityTerm& term : *terms) {
    auto now = modified.find(term.topology_key);
    if (e.old_node == nullptr) {
      if (now != modified.end()) return QueueingHint::kQueue;
      continue;
    }
    const Labels& original = e.old_node->labels();
    auto before = original.find(term.topology_key);
    if (before == original.end() && now != modified.end()) return QueueingHint::kQueue;
    if (before != original.end() && now != modified.end() && before->second != now->second) {
      return QueueingHint::kQueue;
    }
  }
  auto anti_terms = GetAffinityTerms(pod, RequiredAntiAffinityTerms(pod));
  if (!anti_terms.ok()) return anti_terms.error();
  for (const AffinityTerm& term : *anti_terms) {
    if (e.old_node == nullptr) return QueueingHint::kQueue;
    const Labels& original = e.old_node->labels();
    auto before = original.find(term.topology_key);
    auto now = modified.find(term.topology_key);
    if (before != original.end() && now == modified.end()) return QueueingHint::kQueue;
    if (before != original.end() && now != modified.end() && before->second != now->second) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> InterPodAffinity::EventsToRegisterWithHints() const {
  return {
      {{std::string(resource::kAssignedPod),
        action::kAdd | action::kUpdatePodLabel | action::kDelete, ""},
       IsSchedulableAfterAssignedPodChange},
      {{std::string(resource::kTargetPod), action::kUpdatePodLabel, ""},
       IsSchedulableAfterTargetPodUpdateLabel},
      {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeLabel, ""},
       IsSchedulableAfterNodeChange},
  };
}

}  // namespace schedcheck::reference
