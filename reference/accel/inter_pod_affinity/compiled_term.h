// Affinity terms with their namespaces, labelSelector and topology key interned, matched against
// the interned labels of Pod (label_ids, namespace_id): the incoming pod's terms, compiled once
// per cycle, and the existing pods' terms, compiled once per PodInfo (ExistingTermsCache).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/accel/base/compiled_label_selector.h"
#include "reference/api/label_ids.h"
#include "reference/api/selectors.h"
#include "reference/framework/pod_info.h"

namespace schedcheck::reference::interpodaffinity::fast {

// AffinityTerm::Matches(pod, nullptr) for an incoming pod's term: the incoming pod's
// namespaceSelectors are merged into namespaces, so no namespace labels are involved.
class CompiledTerm {
 public:
  explicit CompiledTerm(const AffinityTerm& term, int32_t weight = 0);

  bool Matches(const Pod& pod) const {
    if (!all_namespaces_ &&
        std::find(namespaces_.begin(), namespaces_.end(), pod.namespace_id) == namespaces_.end()) {
      return false;
    }
    return selector_.Matches(pod.label_ids);
  }
  LabelId topology_key() const { return topology_key_; }
  int32_t weight() const { return weight_; }

 private:
  LabelId topology_key_ = kNoLabel;
  int32_t weight_ = 0;
  std::vector<LabelId> namespaces_;
  // A namespaceSelector that matches the empty label set (the `{}` left by the merge) matches
  // every namespace.
  bool all_namespaces_ = false;
  CompiledLabelSelector selector_;  // matches nothing for a nil labelSelector
};

std::vector<CompiledTerm> CompileTerms(const std::vector<AffinityTerm>& terms);
std::vector<CompiledTerm> CompileTerms(const std::vector<WeightedAffinityTerm>& terms);

// AffinityTerm::Matches(pod, &ns_labels) for an existing pod's term: its namespaceSelector (not
// merged) is matched against the incoming pod's namespace labels.
class CompiledExistingTerm {
 public:
  explicit CompiledExistingTerm(const AffinityTerm& term, int32_t weight = 0);

  bool Matches(const Pod& pod, const Labels& ns_labels) const {
    if (std::find(namespaces_.begin(), namespaces_.end(), pod.namespace_id) == namespaces_.end() &&
        !(namespace_selector_ && LabelSelectorMatches(*namespace_selector_, ns_labels))) {
      return false;
    }
    return selector_.Matches(pod.label_ids);
  }
  LabelId topology_key() const { return topology_key_; }
  int32_t weight() const { return weight_; }

 private:
  LabelId topology_key_ = kNoLabel;
  int32_t weight_ = 0;
  std::vector<LabelId> namespaces_;
  std::optional<k8s::LabelSelector> namespace_selector_;  // absent: not used
  CompiledLabelSelector selector_;                        // matches nothing for a nil labelSelector
};

// The four term lists of an existing pod's PodInfo, compiled.
struct CompiledPodTerms {
  std::vector<CompiledExistingTerm> required_affinity_terms;  // weight 0
  std::vector<CompiledExistingTerm> required_anti_affinity_terms;
  std::vector<CompiledExistingTerm> preferred_affinity_terms;
  std::vector<CompiledExistingTerm> preferred_anti_affinity_terms;
};

// Existing pods' terms compiled once per PodInfo, not once per cycle: a PodInfo is immutable and
// lives in the NodeInfos from the pod's AddPod to its RemovePod, so its compiled terms are kept
// by the PodInfo's address. Each entry holds a reference to its PodInfo, so that an address is
// never reused for another PodInfo while the entry exists; entries whose PodInfo nobody else
// holds any more are dropped whenever the cache has doubled since the last sweep.
// Not thread-safe: used from PreFilter and PreScore only.
class ExistingTermsCache {
 public:
  // The compiled terms of `info`; a pod without pod (anti-)affinity terms takes no entry.
  const CompiledPodTerms& Get(const PodInfoPtr& info) {
    if (info->required_affinity_terms.empty() && info->required_anti_affinity_terms.empty() &&
        info->preferred_affinity_terms.empty() && info->preferred_anti_affinity_terms.empty()) {
      static const CompiledPodTerms kNone;
      return kNone;
    }
    auto it = entries_.find(info.get());
    if (it != entries_.end()) return it->second.terms;
    return Add(info);
  }
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    PodInfoPtr info;
    CompiledPodTerms terms;
  };
  static constexpr size_t kMinSweepSize = 1024;

  const CompiledPodTerms& Add(const PodInfoPtr& info);

  std::unordered_map<const PodInfo*, Entry> entries_;
  size_t sweep_at_ = kMinSweepSize;
};

}  // namespace schedcheck::reference::interpodaffinity::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_
