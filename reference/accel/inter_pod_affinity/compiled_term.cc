#include "reference/accel/inter_pod_affinity/compiled_term.h"

#include <algorithm>
#include <iterator>

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

CompiledExistingTerm::CompiledExistingTerm(const AffinityTerm& term, int32_t weight)
    : topology_key_(InternLabel(term.topology_key)), weight_(weight) {
  for (const std::string& ns : term.namespaces) namespaces_.push_back(InternLabel(ns));
  if (term.has_namespace_selector) namespace_selector_ = term.namespace_selector;
  if (term.has_selector) selector_ = CompiledLabelSelector(term.selector);
}

namespace {

std::vector<CompiledExistingTerm> CompileExisting(const std::vector<AffinityTerm>& terms) {
  std::vector<CompiledExistingTerm> out;
  out.reserve(terms.size());
  for (const AffinityTerm& t : terms) out.emplace_back(t);
  return out;
}

std::vector<CompiledExistingTerm> CompileExisting(const std::vector<WeightedAffinityTerm>& terms) {
  std::vector<CompiledExistingTerm> out;
  out.reserve(terms.size());
  for (const WeightedAffinityTerm& t : terms) out.emplace_back(t.term, t.weight);
  return out;
}

}  // namespace

const CompiledPodTerms& ExistingTermsCache::Add(const PodInfoPtr& info) {
  if (entries_.size() >= sweep_at_) {
    // The caller holds `info`, so it is never among the entries dropped.
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.info.use_count() == 1 ? entries_.erase(it) : std::next(it);
    }
    sweep_at_ = std::max(kMinSweepSize, entries_.size() * 2);
  }
  Entry& e = entries_[info.get()];
  e.info = info;
  e.terms.required_affinity_terms = CompileExisting(info->required_affinity_terms);
  e.terms.required_anti_affinity_terms = CompileExisting(info->required_anti_affinity_terms);
  e.terms.preferred_affinity_terms = CompileExisting(info->preferred_affinity_terms);
  e.terms.preferred_anti_affinity_terms = CompileExisting(info->preferred_anti_affinity_terms);
  return e.terms;
}

}  // namespace schedcheck::reference::interpodaffinity::fast
