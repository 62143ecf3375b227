// FastInterPodAffinity PreFilter, PreFilter extensions and Filter: the plain filtering.cc's
// results with interned labels and per-node contributions kept across cycles.
#include <string>

#include "reference/accel/inter_pod_affinity/cache_keys.h"
#include "reference/accel/inter_pod_affinity/contribution_cache.h"
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"

namespace schedcheck::reference {
namespace interpodaffinity::fast {
namespace {

// Adds `value` at (key, node[key]) when the node has the label. `Sink` is a
// TopologyToMatchedTermCount, or a node's Contribution to one.
template <typename Sink>
void Update(Sink& m, const Node& node, LabelId key, int64_t value) {
  LabelId node_value = node.label_ids.Get(key);
  if (node_value != kNoLabel) m.Add(key, node_value, value);
}

// podMatchesAllAffinityTerms: false for no terms. The incoming pod's terms have their
// namespaceSelector merged, hence no namespace labels.
bool PodMatchesAllAffinityTerms(const std::vector<CompiledTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  for (const CompiledTerm& t : terms) {
    if (!t.Matches(pod)) return false;
  }
  return true;
}

// updateWithAffinityTerms: one count per term, only when `pod` matches all of them.
template <typename Sink>
void UpdateWithAffinityTerms(Sink& m, const std::vector<CompiledTerm>& terms, const Pod& pod,
                             const Node& node, int64_t value) {
  if (!PodMatchesAllAffinityTerms(terms, pod)) return;
  for (const CompiledTerm& t : terms) Update(m, node, t.topology_key(), value);
}

// updateWithAntiAffinityTerms for the incoming pod's terms: one count per matching term.
template <typename Sink>
void UpdateWithAntiAffinityTerms(Sink& m, const std::vector<CompiledTerm>& terms, const Pod& pod,
                                 const Node& node, int64_t value) {
  for (const CompiledTerm& t : terms) {
    if (t.Matches(pod)) Update(m, node, t.topology_key(), value);
  }
}

// updateWithAntiAffinityTerms for an existing pod's terms against the incoming pod.
template <typename Sink>
void UpdateWithExistingAntiAffinityTerms(Sink& m, const std::vector<CompiledExistingTerm>& terms,
                                         const Pod& incoming, const Labels& ns_labels,
                                         const Node& node, int64_t value) {
  for (const CompiledExistingTerm& t : terms) {
    if (t.Matches(incoming, ns_labels)) Update(m, node, t.topology_key(), value);
  }
}

PreFilterState* ReadPreFilterState(const CycleState& state, std::string* err) {
  auto* s = state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
  if (s == nullptr) {
    *err = "error reading \"" + std::string(InterPodAffinity::kPreFilterStateKey) +
           "\" from cycleState: not found";
  }
  return s;
}

// satisfyPodAffinity, including the first-pod-of-a-group exception.
bool SatisfyPodAffinity(const PreFilterState& s, const Node& node) {
  bool pods_exist = true;
  for (const CompiledTerm& term : *s.affinity_terms) {
    LabelId value = node.label_ids.Get(term.topology_key());
    // Every topology key must exist on the node.
    if (value == kNoLabel) return false;
    if (s.affinity_counts.Get(term.topology_key(), value) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // No pod anywhere matches the terms: let the pod through if it matches its own terms, or a
  // group with self-affinity could never start.
  return s.affinity_counts.empty() && s.matches_own_affinity_terms;
}

// satisfyPodAntiAffinity.
bool SatisfyPodAntiAffinity(const PreFilterState& s, const Node& node) {
  if (s.anti_affinity_counts.empty()) return true;
  for (const CompiledTerm& term : *s.anti_affinity_terms) {
    LabelId value = node.label_ids.Get(term.topology_key());
    if (value == kNoLabel) continue;
    if (s.anti_affinity_counts.Get(term.topology_key(), value) > 0) return false;
  }
  return true;
}

// satisfyExistingPodsAntiAffinity: any of the node's labels is a matched topology pair.
bool SatisfyExistingPodsAntiAffinity(const PreFilterState& s, const Node& node) {
  if (s.existing_anti_affinity_counts.empty()) return true;
  for (const auto& [key, value] : node.label_ids) {
    if (s.existing_anti_affinity_counts.Get(key, value) > 0) return false;
  }
  return true;
}

}  // namespace

void PreFilterState::UpdateWithPod(const PodInfo& pod, const Node& node, int64_t multiplier) {
  // `pod` (a nominated pod, or a preemption victim) need not be on any node: its terms are
  // matched as they are (AffinityTerm::Matches), not compiled.
  for (const AffinityTerm& t : pod.required_anti_affinity_terms) {
    if (t.Matches(*pod_info->pod, &namespace_labels)) {
      Update(existing_anti_affinity_counts, node, InternLabel(t.topology_key), multiplier);
    }
  }
  UpdateWithAffinityTerms(affinity_counts, *affinity_terms, *pod.pod, node, multiplier);
  UpdateWithAntiAffinityTerms(anti_affinity_counts, *anti_affinity_terms, *pod.pod, node,
                              multiplier);
}

}  // namespace interpodaffinity::fast

namespace ipa = interpodaffinity::fast;
using ipa::PreFilterState;

Status FastInterPodAffinity::PreFilter(CycleState& state, const Pod& pod,
                                       [[maybe_unused]] PreFilterResult* result) {
  auto info = interpodaffinity::NewPodInfo(pod);
  if (!info.ok()) {
    return Status(Code::kUnschedulableAndUnresolvable, "parsing pod: " + info.message());
  }
  for (AffinityTerm& t : (*info)->required_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t, handle_);
  }
  for (AffinityTerm& t : (*info)->required_anti_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t, handle_);
  }
  auto s = std::make_unique<PreFilterState>();
  s->pod_info = *info;
  s->affinity_terms = std::make_shared<const std::vector<ipa::CompiledTerm>>(
      ipa::CompileTerms(s->pod_info->required_affinity_terms));
  s->anti_affinity_terms = std::make_shared<const std::vector<ipa::CompiledTerm>>(
      ipa::CompileTerms(s->pod_info->required_anti_affinity_terms));
  s->matches_own_affinity_terms = ipa::PodMatchesAllAffinityTerms(*s->affinity_terms, pod);
  s->namespace_labels = interpodaffinity::GetNamespaceLabelsSnapshot(pod.ns(), handle_);
  const PodInfo& incoming = *s->pod_info;

  // Each node's matches are remembered across cycles (contribution_cache.h): only nodes that
  // changed since are walked.
  using ipa::Contribution;
  // Existing pods' required anti-affinity, matched with the incoming pod's namespace labels.
  ipa::AccumulateContributions(
      handle_.snapshot->have_pods_with_required_anti_affinity(),
      *existing_anti_affinity_cache_.For(ipa::IncomingPodKey(pod, s->namespace_labels)),
      s->existing_anti_affinity_counts, [&](const NodeInfo& n, Contribution& c) {
        for (const PodInfoPtr& existing : n.pods_with_required_anti_affinity()) {
          ipa::UpdateWithExistingAntiAffinityTerms(
              c, existing_terms_.Get(existing).required_anti_affinity_terms, pod,
              s->namespace_labels, *n.node(), 1);
        }
      });
  // The incoming pod's required terms against every pod on every node.
  if (!s->affinity_terms->empty()) {
    ipa::AccumulateContributions(
        handle_.snapshot->node_infos(),
        *affinity_cache_.For(ipa::RequiredTermsKey(incoming.required_affinity_terms)),
        s->affinity_counts, [&](const NodeInfo& n, Contribution& c) {
          for (const PodInfoPtr& existing : n.pods()) {
            ipa::UpdateWithAffinityTerms(c, *s->affinity_terms, *existing->pod, *n.node(), 1);
          }
        });
  }
  if (!s->anti_affinity_terms->empty()) {
    ipa::AccumulateContributions(
        handle_.snapshot->node_infos(),
        *anti_affinity_cache_.For(ipa::RequiredTermsKey(incoming.required_anti_affinity_terms)),
        s->anti_affinity_counts, [&](const NodeInfo& n, Contribution& c) {
          for (const PodInfoPtr& existing : n.pods()) {
            ipa::UpdateWithAntiAffinityTerms(c, *s->anti_affinity_terms, *existing->pod, *n.node(),
                                             1);
          }
        });
  }
  if (s->existing_anti_affinity_counts.empty() && incoming.required_affinity_terms.empty() &&
      incoming.required_anti_affinity_terms.empty()) {
    return Status(Code::kSkip);
  }
  state.Write(std::string(InterPodAffinity::kPreFilterStateKey), std::move(s));
  return Status();
}

Status FastInterPodAffinity::AddPod(CycleState& state, [[maybe_unused]] const Pod& pod_to_schedule,
                                    const PodInfo& pod_to_add, const NodeInfo& node) {
  std::string err;
  PreFilterState* s = ipa::ReadPreFilterState(state, &err);
  if (s == nullptr) return Status::Error(err);
  if (node.node() == nullptr) return Status::Error("node not found");
  s->UpdateWithPod(pod_to_add, *node.node(), 1);
  return Status();
}

Status FastInterPodAffinity::RemovePod(CycleState& state,
                                       [[maybe_unused]] const Pod& pod_to_schedule,
                                       const PodInfo& pod_to_remove, const NodeInfo& node) {
  std::string err;
  PreFilterState* s = ipa::ReadPreFilterState(state, &err);
  if (s == nullptr) return Status::Error(err);
  if (node.node() == nullptr) return Status::Error("node not found");
  s->UpdateWithPod(pod_to_remove, *node.node(), -1);
  return Status();
}

Status FastInterPodAffinity::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                    const NodeInfo& node) {
  if (node.node() == nullptr) return Status::Error("node not found");
  std::string err;
  const PreFilterState* s = ipa::ReadPreFilterState(state, &err);
  if (s == nullptr) return Status::Error(err);
  if (!ipa::SatisfyPodAffinity(*s, *node.node())) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable,
                          InterPodAffinity::kErrReasonAffinityRulesNotMatch>();
  }
  if (!ipa::SatisfyPodAntiAffinity(*s, *node.node())) {
    return ConstantStatus<Code::kUnschedulable,
                          InterPodAffinity::kErrReasonAntiAffinityRulesNotMatch>();
  }
  if (!ipa::SatisfyExistingPodsAntiAffinity(*s, *node.node())) {
    return ConstantStatus<Code::kUnschedulable,
                          InterPodAffinity::kErrReasonExistingAntiAffinityRulesNotMatch>();
  }
  return Status();
}

}  // namespace schedcheck::reference
