#include "reference/accel/base/compiled_node_selector.h"

#include <algorithm>

#include "reference/api/selectors.h"

namespace schedcheck::reference {

bool ParseNodeSelectorInt(const std::string& text, int64_t* out) { return GoParseInt64(text, out); }

CompiledNodeSelectorTerm::CompiledNodeSelectorTerm(const k8s::NodeSelectorTerm& term) {
  if (term.match_expressions().empty() && term.match_fields().empty()) never_ = true;
  for (const auto& req : term.match_expressions()) {
    // A requirement labels.NewRequirement rejects (e.g. a value that is not a label value) makes
    // upstream's term match no node.
    if (!NodeSelectorRequirementParses(req)) never_ = true;
    const std::string& op = req.operator_();
    Expression e{Numeric::kNone, LabelSetOp::kIn, InternLabel(req.key()), {}, 0};
    if (op == "In" || op == "NotIn") {
      e.set_op = op == "In" ? LabelSetOp::kIn : LabelSetOp::kNotIn;
      if (req.values().empty()) never_ = true;  // both need at least one value
      for (const std::string& v : req.values()) e.values.push_back(InternLabel(v));
    } else if (op == "Exists" || op == "DoesNotExist") {
      e.set_op = op == "Exists" ? LabelSetOp::kExists : LabelSetOp::kDoesNotExist;
      if (!req.values().empty()) never_ = true;  // both must have no values
    } else if (op == "Gt" || op == "Lt") {
      e.numeric = op == "Gt" ? Numeric::kGt : Numeric::kLt;
      if (req.values_size() != 1 || !ParseNodeSelectorInt(req.values(0), &e.bound)) never_ = true;
    } else {
      never_ = true;  // unknown operator
    }
    expressions_.push_back(std::move(e));
  }
  for (const auto& req : term.match_fields()) {
    // Only metadata.name is a supported field, with In/NotIn and exactly one value.
    if (req.key() != "metadata.name" || req.values_size() != 1 ||
        (req.operator_() != "In" && req.operator_() != "NotIn")) {
      never_ = true;
      continue;
    }
    fields_.push_back({req.operator_() == "In", req.values(0)});
  }
}

bool CompiledNodeSelectorTerm::Matches(const Node& node) const {
  if (never_) return false;
  for (const Expression& e : expressions_) {
    const LabelId value = node.label_ids.Get(e.key);
    if (e.numeric == Numeric::kNone) {
      if (!LabelSetOpHolds(e.set_op, value, e.values)) return false;
      continue;
    }
    int64_t have = 0;
    if (value == kNoLabel || !ParseNodeSelectorInt(LabelText(value), &have)) return false;
    if (e.numeric == Numeric::kGt ? !(have > e.bound) : !(have < e.bound)) return false;
  }
  for (const NameField& f : fields_) {
    const bool equal = node.name() == f.name;
    if (f.in ? !equal : equal) return false;
  }
  return true;
}

CompiledNodeSelector::CompiledNodeSelector(const k8s::NodeSelector& selector) {
  for (const auto& term : selector.node_selector_terms()) terms_.emplace_back(term);
}

RequiredNodeAffinity::RequiredNodeAffinity(const Pod& pod) {
  const k8s::PodSpec& spec = pod.obj.spec();
  for (const auto& [key, value] : spec.node_selector()) {
    node_selector_.emplace_back(InternLabel(key), InternLabel(value));
  }
  if (spec.has_affinity() && spec.affinity().has_node_affinity() &&
      spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    required_.emplace(
        spec.affinity().node_affinity().required_during_scheduling_ignored_during_execution());
  }
}

}  // namespace schedcheck::reference
