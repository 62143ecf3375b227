#include "reference/api/selectors.h"

#include <algorithm>
#include <charconv>

namespace schedcheck::reference {
namespace {

bool Contains(const google::protobuf::RepeatedPtrField<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

bool LabelRequirementMatches(const k8s::LabelSelectorRequirement& req, const Labels& labels) {
  auto it = labels.find(req.key());
  const std::string& op = req.operator_();
  if (op == "In") return it != labels.end() && Contains(req.values(), it->second);
  if (op == "NotIn") return it == labels.end() || !Contains(req.values(), it->second);
  if (op == "Exists") return it != labels.end();
  if (op == "DoesNotExist") return it == labels.end();
  return false;
}

}  // namespace

bool LabelSelectorValid(const k8s::LabelSelector& selector) {
  for (const auto& req : selector.match_expressions()) {
    const std::string& op = req.operator_();
    if (op == "In" || op == "NotIn") {
      if (req.values().empty()) return false;
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!req.values().empty()) return false;
    } else {
      return false;
    }
  }
  return true;
}

bool LabelSelectorMatches(const k8s::LabelSelector& selector, const Labels& labels) {
  if (!LabelSelectorValid(selector)) return false;
  for (const auto& [key, value] : selector.match_labels()) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const auto& req : selector.match_expressions()) {
    if (!LabelRequirementMatches(req, labels)) return false;
  }
  return true;
}

CompiledLabelSelector::CompiledLabelSelector(const k8s::LabelSelector& selector) {
  if (!LabelSelectorValid(selector)) return;  // matches nothing
  matches_nothing_ = false;
  requirements_.reserve(selector.match_labels().size() + selector.match_expressions().size());
  for (const auto& [key, value] : selector.match_labels()) {
    requirements_.push_back({InternLabel(key), LabelSetOp::kIn, {InternLabel(value)}});
  }
  for (const auto& req : selector.match_expressions()) {
    Requirement r;
    r.key = InternLabel(req.key());
    const std::string& op = req.operator_();
    r.op = op == "In"       ? LabelSetOp::kIn
           : op == "NotIn"  ? LabelSetOp::kNotIn
           : op == "Exists" ? LabelSetOp::kExists
                            : LabelSetOp::kDoesNotExist;  // the only operator left after validation
    for (const std::string& v : req.values()) r.values.push_back(InternLabel(v));
    requirements_.push_back(std::move(r));
  }
}

bool CompiledLabelSelector::Matches(const LabelIds& labels) const {
  if (matches_nothing_) return false;
  for (const Requirement& r : requirements_) {
    if (!LabelSetOpHolds(r.op, labels.Get(r.key), r.values)) return false;
  }
  return true;
}

bool NodeSelectorRequirementMatches(const k8s::NodeSelectorRequirement& req,
                                    const Labels& labels) {
  auto it = labels.find(req.key());
  const std::string& op = req.operator_();
  if (op == "In") {
    return !req.values().empty() && it != labels.end() && Contains(req.values(), it->second);
  }
  if (op == "NotIn") {
    return !req.values().empty() && (it == labels.end() || !Contains(req.values(), it->second));
  }
  if (op == "Exists") return req.values().empty() && it != labels.end();
  if (op == "DoesNotExist") return req.values().empty() && it == labels.end();
  if (op == "Gt" || op == "Lt") {
    int64_t want = 0, have = 0;
    if (req.values_size() != 1 || !ParseNodeSelectorInt(req.values(0), &want)) return false;
    if (it == labels.end() || !ParseNodeSelectorInt(it->second, &have)) return false;
    return op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool NodeSelectorTermMatches(const k8s::NodeSelectorTerm& term, const k8s::Node& node) {
  if (term.match_expressions().empty() && term.match_fields().empty()) return false;
  for (const auto& req : term.match_expressions()) {
    if (!NodeSelectorRequirementMatches(req, node.metadata().labels())) return false;
  }
  for (const auto& req : term.match_fields()) {
    // Only metadata.name is a supported field, with In/NotIn and exactly one value.
    if (req.key() != "metadata.name" || req.values_size() != 1) return false;
    if (req.operator_() != "In" && req.operator_() != "NotIn") return false;
    bool equal = node.metadata().name() == req.values(0);
    if (req.operator_() == "In" ? !equal : equal) return false;
  }
  return true;
}

bool NodeSelectorMatches(const k8s::NodeSelector& selector, const k8s::Node& node) {
  for (const auto& term : selector.node_selector_terms()) {
    if (NodeSelectorTermMatches(term, node)) return true;
  }
  return false;
}

bool PodMatchesRequiredNodeAffinity(const k8s::Pod& pod, const k8s::Node& node) {
  const auto& labels = node.metadata().labels();
  for (const auto& [key, value] : pod.spec().node_selector()) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  const k8s::PodSpec& spec = pod.spec();
  if (spec.has_affinity() && spec.affinity().has_node_affinity() &&
      spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    return NodeSelectorMatches(
        spec.affinity().node_affinity().required_during_scheduling_ignored_during_execution(), node);
  }
  return true;
}

RequiredNodeAffinity::RequiredNodeAffinity(const Pod& pod) {
  const k8s::PodSpec& spec = pod.obj.spec();
  for (const auto& [key, value] : spec.node_selector()) {
    node_selector_.emplace_back(InternLabel(key), InternLabel(value));
  }
  if (spec.has_affinity() && spec.affinity().has_node_affinity() &&
      spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    required_.emplace(spec.affinity().node_affinity().required_during_scheduling_ignored_during_execution());
  }
}

bool TolerationToleratesTaint(const k8s::Toleration& toleration, const k8s::Taint& taint) {
  if (!toleration.effect().empty() && toleration.effect() != taint.effect()) return false;
  if (!toleration.key().empty() && toleration.key() != taint.key()) return false;
  const std::string& op = toleration.operator_();
  if (op == "Exists") return true;
  if (op.empty() || op == "Equal") return toleration.value() == taint.value();
  return false;
}

bool TolerationsTolerateTaint(const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations,
                              const k8s::Taint& taint) {
  for (const auto& t : tolerations) {
    if (TolerationToleratesTaint(t, taint)) return true;
  }
  return false;
}

}  // namespace schedcheck::reference
