#include "reference/plugins/inter_pod_affinity/parse.h"

#include <map>
#include <vector>

#include "reference/api/selectors.h"

namespace schedcheck::reference::interpodaffinity {
namespace {

using StringList = google::protobuf::RepeatedPtrField<std::string>;

// labels.NewRequirement's errors (all of them, aggregated) for one requirement.
std::string RequirementError(const std::string& key, const std::string& op,
                             const StringList& values) {
  std::vector<std::string> errs;
  if ((op == "In" || op == "NotIn") && values.empty()) {
    errs.push_back("values: Invalid value: " + GoStringSlice(values) +
                   ": for 'in', 'notin' operators, values set can't be empty");
  }
  if ((op == "Exists" || op == "DoesNotExist") && !values.empty()) {
    errs.push_back("values: Invalid value: " + GoStringSlice(values) +
                   ": values set must be empty for exists and does not exist");
  }
  for (int i = 0; i < values.size(); ++i) {
    // v0.27's wording at either level, as the reference has always parsed these terms.
    std::string msg = LabelValueError(values[i], /*reworded_messages=*/false);
    if (msg.empty()) continue;
    errs.push_back("values[" + std::to_string(i) + "][" + key +
                   "]: Invalid value: " + GoQuote(values[i]) + ": " + msg);
  }
  return AggregateError(errs);
}

// metav1.LabelSelectorAsSelector: matchLabels first, then matchExpressions; first error wins.
std::string SelectorError(const k8s::LabelSelector& selector) {
  // Go walks matchLabels in random order; sort so the reported error is deterministic.
  std::map<std::string, std::string> labels(selector.match_labels().begin(),
                                            selector.match_labels().end());
  for (const auto& [key, value] : labels) {
    StringList one;
    one.Add()->assign(value);
    std::string err = RequirementError(key, "In", one);
    if (!err.empty()) return err;
  }
  for (const auto& req : selector.match_expressions()) {
    const std::string& op = req.operator_();
    if (op != "In" && op != "NotIn" && op != "Exists" && op != "DoesNotExist") {
      return "\"" + op + "\" is not a valid label selector operator";
    }
    std::string err = RequirementError(req.key(), op, req.values());
    if (!err.empty()) return err;
  }
  return "";
}

}  // namespace

std::string PodAffinityTermError(const k8s::PodAffinityTerm& term) {
  if (term.has_label_selector()) {
    std::string err = SelectorError(term.label_selector());
    if (!err.empty()) return err;
  }
  if (term.has_namespace_selector()) return SelectorError(term.namespace_selector());
  return "";
}

std::string PodAffinityParseError(const k8s::Pod& pod) {
  if (!pod.spec().has_affinity()) return "";
  const k8s::Affinity& a = pod.spec().affinity();
  std::vector<std::string> errs;
  auto first_error = [&](const char* label, const auto& terms, auto get_term) {
    for (const auto& t : terms) {
      std::string err = PodAffinityTermError(get_term(t));
      if (!err.empty()) {
        errs.push_back(std::string(label) + ": " + err);
        return;
      }
    }
  };
  auto plain = [](const k8s::PodAffinityTerm& t) -> const k8s::PodAffinityTerm& { return t; };
  auto weighted = [](const k8s::WeightedPodAffinityTerm& t) -> const k8s::PodAffinityTerm& {
    return t.pod_affinity_term();
  };
  const auto& aff = a.pod_affinity();
  const auto& anti = a.pod_anti_affinity();
  first_error("requiredAffinityTerms", aff.required_during_scheduling_ignored_during_execution(),
              plain);
  first_error("requiredAntiAffinityTerms",
              anti.required_during_scheduling_ignored_during_execution(), plain);
  first_error("preferredAffinityTerms", aff.preferred_during_scheduling_ignored_during_execution(),
              weighted);
  first_error("preferredAntiAffinityTerms",
              anti.preferred_during_scheduling_ignored_during_execution(), weighted);
  // utilerrors.NewAggregate: one error prints as itself, several as "[a, b]".
  if (errs.empty()) return "";
  if (errs.size() == 1) return errs[0];
  std::string out = "[";
  for (size_t i = 0; i < errs.size(); ++i) out += (i ? ", " : "") + errs[i];
  return out + "]";
}

}  // namespace schedcheck::reference::interpodaffinity
