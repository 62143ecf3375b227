#include "reference/accel/inter_pod_affinity/cache_keys.h"

#include "reference/accel/base/cache_key.h"

namespace schedcheck::reference::interpodaffinity::fast {
namespace {

// Every field CompiledTerm and AffinityTerm::Matches read.
void AppendTerm(std::string& key, const AffinityTerm& term) {
  AppendKeyNumber(key, static_cast<int64_t>(term.namespaces.size()));
  for (const std::string& ns : term.namespaces) AppendKeyText(key, ns);  // a sorted set
  key += term.has_namespace_selector ? 'S' : '-';
  if (term.has_namespace_selector) AppendKeySelector(key, term.namespace_selector);
  key += term.has_selector ? 'L' : '-';
  if (term.has_selector) AppendKeySelector(key, term.selector);
  AppendKeyText(key, term.topology_key);
}

void AppendTerms(std::string& key, const std::vector<AffinityTerm>& terms) {
  AppendKeyNumber(key, static_cast<int64_t>(terms.size()));
  for (const AffinityTerm& t : terms) AppendTerm(key, t);
}

void AppendTerms(std::string& key, const std::vector<WeightedAffinityTerm>& terms) {
  AppendKeyNumber(key, static_cast<int64_t>(terms.size()));
  for (const WeightedAffinityTerm& t : terms) {
    AppendKeyNumber(key, t.weight);
    AppendTerm(key, t.term);
  }
}

// What AffinityTerm::Matches reads of a pod: its namespace and labels (interned ids are fixed
// for the life of the process; label_ids is sorted by key), and the namespace's labels.
void AppendPod(std::string& key, const Pod& pod, const Labels& namespace_labels) {
  AppendKeyNumber(key, pod.namespace_id);
  AppendKeyNumber(key, static_cast<int64_t>(pod.label_ids.size()));
  for (const auto& [k, v] : pod.label_ids) {
    AppendKeyNumber(key, k);
    AppendKeyNumber(key, v);
  }
  AppendKeyLabels(key, namespace_labels);
}

}  // namespace

std::string IncomingPodKey(const Pod& pod, const Labels& namespace_labels) {
  std::string key;
  AppendPod(key, pod, namespace_labels);
  return key;
}

std::string RequiredTermsKey(const std::vector<AffinityTerm>& terms) {
  std::string key;
  AppendTerms(key, terms);
  return key;
}

std::string ScoreKey(const Pod& pod, const Labels& namespace_labels, int32_t hard_weight,
                     const std::vector<WeightedAffinityTerm>& preferred_affinity,
                     const std::vector<WeightedAffinityTerm>& preferred_anti_affinity) {
  std::string key;
  AppendKeyNumber(key, hard_weight);
  AppendPod(key, pod, namespace_labels);
  AppendTerms(key, preferred_affinity);
  AppendTerms(key, preferred_anti_affinity);
  return key;
}

}  // namespace schedcheck::reference::interpodaffinity::fast
