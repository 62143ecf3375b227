#include "reference/accel/inter_pod_affinity/compiled_term.h"

namespace schedcheck::reference::interpodaffinity::fast {

CompiledTerm::CompiledTerm(const AffinityTerm& term, int32_t weight)
    : topology_key_(InternLabel(term.topology_key)), weight_(weight) {
  for (const std::string& ns : term.namespaces) namespaces_.push_back(InternLabel(ns));
  if (term.has_namespace_selector) {
    // AffinityTerm::Matches with null namespace labels matches the selector against no labels.
    static const Labels kNoLabels;
    all_namespaces_ = LabelSelectorMatches(term.namespace_selector, kNoLabels);
  }
  if (term.has_selector) selector_ = CompiledLabelSelector(term.selector);
}

std::vector<CompiledTerm> CompileTerms(const std::vector<AffinityTerm>& terms) {
  std::vector<CompiledTerm> out;
  out.reserve(terms.size());
  for (const AffinityTerm& t : terms) out.emplace_back(t);
  return out;
}

std::vector<CompiledTerm> CompileTerms(const std::vector<WeightedAffinityTerm>& terms) {
  std::vector<CompiledTerm> out;
  out.reserve(terms.size());
  for (const WeightedAffinityTerm& t : terms) out.emplace_back(t.term, t.weight);
  return out;
}

}  // namespace schedcheck::reference::interpodaffinity::fast
