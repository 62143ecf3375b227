#include "reference/framework/pod_info.h"

namespace schedcheck::reference {

bool AffinityTerm::Matches(const Pod& pod, const Labels* ns_labels) const {
  bool ns_match = namespaces.count(pod.ns()) > 0;
  if (!ns_match && has_namespace_selector) {
    // Upstream matches the selector against a nil label set when the namespace is unknown, so
    // an empty selector (or NotIn / DoesNotExist only) still matches: use an empty set.
    static const Labels kNoLabels;
    ns_match = LabelSelectorMatches(namespace_selector, ns_labels ? *ns_labels : kNoLabels);
  }
  // An absent (nil) labelSelector is labels.Nothing().
  return ns_match && has_selector && LabelSelectorMatches(selector, pod.labels());
}

AffinityTerm MakeAffinityTerm(const Pod& pod, const k8s::PodAffinityTerm& term) {
  AffinityTerm t;
  t.namespaces.insert(term.namespaces().begin(), term.namespaces().end());
  t.has_namespace_selector = term.has_namespace_selector();
  if (t.has_namespace_selector) t.namespace_selector = term.namespace_selector();
  if (t.namespaces.empty() && !t.has_namespace_selector) t.namespaces.insert(pod.ns());
  t.has_selector = term.has_label_selector();
  if (t.has_selector) t.selector = term.label_selector();
  t.topology_key = term.topology_key();
  return t;
}

namespace {

std::vector<WeightedAffinityTerm> MakeWeighted(
    const Pod& pod, const google::protobuf::RepeatedPtrField<k8s::WeightedPodAffinityTerm>& in) {
  std::vector<WeightedAffinityTerm> out;
  out.reserve(in.size());
  for (const auto& w : in)
    out.push_back({MakeAffinityTerm(pod, w.pod_affinity_term()), w.weight()});
  return out;
}

}  // namespace

PodInfoPtr MakePodInfo(PodPtr pod) {
  auto info = std::make_shared<PodInfo>();
  info->pod = pod;
  const k8s::PodSpec& spec = pod->obj.spec();
  if (spec.has_affinity()) {
    const k8s::Affinity& a = spec.affinity();
    if (a.has_pod_affinity()) {
      for (const auto& t : a.pod_affinity().required_during_scheduling_ignored_during_execution()) {
        info->required_affinity_terms.push_back(MakeAffinityTerm(*pod, t));
      }
      info->preferred_affinity_terms = MakeWeighted(
          *pod, a.pod_affinity().preferred_during_scheduling_ignored_during_execution());
    }
    if (a.has_pod_anti_affinity()) {
      const auto& anti = a.pod_anti_affinity();
      for (const auto& t : anti.required_during_scheduling_ignored_during_execution()) {
        info->required_anti_affinity_terms.push_back(MakeAffinityTerm(*pod, t));
      }
      info->preferred_anti_affinity_terms =
          MakeWeighted(*pod, anti.preferred_during_scheduling_ignored_during_execution());
    }
  }
  return info;
}

PodInfoPtr UpdatedPodInfo(const PodInfoPtr& old_info, PodPtr new_pod) {
  if (old_info && old_info->pod && old_info->pod->uid() == new_pod->uid()) {
    auto info = std::make_shared<PodInfo>(*old_info);
    info->pod = std::move(new_pod);
    return info;
  }
  return MakePodInfo(std::move(new_pod));
}

}  // namespace schedcheck::reference
