// The matching rules shared by plugins (SEMANTICS §5.2): label selectors, node selector terms,
// required node affinity, and taint tolerations. Pure functions over Kubernetes objects.
#ifndef SCHEDCHECK_REFERENCE_API_SELECTORS_H_
#define SCHEDCHECK_REFERENCE_API_SELECTORS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/api/compiled_node_selector.h"
#include "reference/api/label_ids.h"
#include "reference/api/objects.h"
#include "traces/k8s.pb.h"

namespace schedcheck::reference {

using Labels = google::protobuf::Map<std::string, std::string>;

// A present selector: matchLabels AND matchExpressions (In, NotIn, Exists, DoesNotExist).
// An empty selector matches everything; callers treat an absent (nil) selector as matching
// nothing. A malformed requirement (unknown operator, In/NotIn without values) matches nothing.
bool LabelSelectorMatches(const k8s::LabelSelector& selector, const Labels& labels);
// True when the selector is well formed (the conditions of metav1.LabelSelectorAsSelector).
bool LabelSelectorValid(const k8s::LabelSelector& selector);

// A label selector with its strings interned, matched against interned label sets (Pod and Node
// label_ids): the answers of LabelSelectorMatches without hashing strings. Plugins compile the
// incoming pod's selectors once per cycle and match them against every existing pod.
class CompiledLabelSelector {
 public:
  // Matches nothing, as a nil selector.
  CompiledLabelSelector() = default;
  // A present selector; a malformed one (!LabelSelectorValid) matches nothing.
  explicit CompiledLabelSelector(const k8s::LabelSelector& selector);

  bool Matches(const LabelIds& labels) const;

 private:
  struct Requirement {
    LabelId key = kNoLabel;
    LabelSetOp op = LabelSetOp::kExists;
    std::vector<LabelId> values;  // In / NotIn
  };

  bool matches_nothing_ = true;
  std::vector<Requirement> requirements_;
};

// One node selector requirement against a label set (In, NotIn, Exists, DoesNotExist, Gt, Lt).
bool NodeSelectorRequirementMatches(const k8s::NodeSelectorRequirement& req, const Labels& labels);
// A term matches when all matchExpressions and all matchFields match; an empty term matches
// nothing. matchFields supports only metadata.name.
bool NodeSelectorTermMatches(const k8s::NodeSelectorTerm& term, const k8s::Node& node);
// Terms are ORed; an empty term list matches nothing.
bool NodeSelectorMatches(const k8s::NodeSelector& selector, const k8s::Node& node);

// spec.nodeSelector AND required node affinity terms (component-helpers GetRequiredNodeAffinity).
bool PodMatchesRequiredNodeAffinity(const k8s::Pod& pod, const k8s::Node& node);

// PodMatchesRequiredNodeAffinity prepared once for a pod that is matched against many nodes
// (upstream's nodeaffinity.GetRequiredNodeAffinity): the nodeSelector and the required terms are
// interned, and a pod without either part matches every node without looking at it.
class RequiredNodeAffinity {
 public:
  explicit RequiredNodeAffinity(const Pod& pod);
  bool Matches(const Node& node) const {
    for (const auto& [key, value] : node_selector_) {
      if (node.label_ids.Get(key) != value) return false;
    }
    return !required_ || required_->Matches(node);
  }

 private:
  std::vector<LabelIds::Pair> node_selector_;
  std::optional<CompiledNodeSelector> required_;
};

// toleration.ToleratesTaint: effect (empty = all) and key (empty with Exists = all) and value.
bool TolerationToleratesTaint(const k8s::Toleration& toleration, const k8s::Taint& taint);
bool TolerationsTolerateTaint(const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations,
                              const k8s::Taint& taint);

// The first taint (in spec order) accepted by `filter` that no toleration tolerates, or null.
template <typename TaintFilter>
const k8s::Taint* FindUntoleratedTaint(
    const google::protobuf::RepeatedPtrField<k8s::Taint>& taints,
    const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations, TaintFilter filter) {
  for (const k8s::Taint& taint : taints) {
    if (!filter(taint)) continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) return &taint;
  }
  return nullptr;
}

inline bool IsNoScheduleOrNoExecute(const k8s::Taint& taint) {
  return taint.effect() == "NoSchedule" || taint.effect() == "NoExecute";
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_SELECTORS_H_
