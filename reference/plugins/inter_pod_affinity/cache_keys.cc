#include "reference/plugins/inter_pod_affinity/cache_keys.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace schedcheck::reference::interpodaffinity {
namespace {

// Numbers end with ';' and texts are length-prefixed, so that no choice of label text can make
// two different keys equal.
void AppendNumber(std::string& key, int64_t n) {
  key += std::to_string(n);
  key += ';';
}

void AppendText(std::string& key, std::string_view text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

// A label map in key order (protobuf maps iterate in no fixed order).
void AppendLabels(std::string& key, const Labels& labels) {
  std::vector<std::pair<std::string_view, std::string_view>> sorted(labels.begin(), labels.end());
  std::sort(sorted.begin(), sorted.end());
  AppendNumber(key, static_cast<int64_t>(sorted.size()));
  for (const auto& [k, v] : sorted) {
    AppendText(key, k);
    AppendText(key, v);
  }
}

// matchLabels in key order, then matchExpressions in order.
void AppendSelector(std::string& key, const k8s::LabelSelector& selector) {
  AppendLabels(key, selector.match_labels());
  AppendNumber(key, selector.match_expressions_size());
  for (const k8s::LabelSelectorRequirement& r : selector.match_expressions()) {
    AppendText(key, r.key());
    AppendText(key, r.operator_());
    AppendNumber(key, r.values_size());
    for (const std::string& v : r.values()) AppendText(key, v);
  }
}

// Every field CompiledTerm and AffinityTerm::Matches read.
void AppendTerm(std::string& key, const AffinityTerm& term) {
  AppendNumber(key, static_cast<int64_t>(term.namespaces.size()));
  for (const std::string& ns : term.namespaces) AppendText(key, ns);  // a sorted set
  key += term.has_namespace_selector ? 'S' : '-';
  if (term.has_namespace_selector) AppendSelector(key, term.namespace_selector);
  key += term.has_selector ? 'L' : '-';
  if (term.has_selector) AppendSelector(key, term.selector);
  AppendText(key, term.topology_key);
}

void AppendTerms(std::string& key, const std::vector<AffinityTerm>& terms) {
  AppendNumber(key, static_cast<int64_t>(terms.size()));
  for (const AffinityTerm& t : terms) AppendTerm(key, t);
}

void AppendTerms(std::string& key, const std::vector<WeightedAffinityTerm>& terms) {
  AppendNumber(key, static_cast<int64_t>(terms.size()));
  for (const WeightedAffinityTerm& t : terms) {
    AppendNumber(key, t.weight);
    AppendTerm(key, t.term);
  }
}

// What AffinityTerm::Matches reads of a pod: its namespace and labels (interned ids are fixed
// for the life of the process; label_ids is sorted by key), and the namespace's labels.
void AppendPod(std::string& key, const Pod& pod, const Labels& namespace_labels) {
  AppendNumber(key, pod.namespace_id);
  AppendNumber(key, static_cast<int64_t>(pod.label_ids.size()));
  for (const auto& [k, v] : pod.label_ids) {
    AppendNumber(key, k);
    AppendNumber(key, v);
  }
  AppendLabels(key, namespace_labels);
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
  AppendNumber(key, hard_weight);
  AppendPod(key, pod, namespace_labels);
  AppendTerms(key, preferred_affinity);
  AppendTerms(key, preferred_anti_affinity);
  return key;
}

}  // namespace schedcheck::reference::interpodaffinity
