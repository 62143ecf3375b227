// The incoming pod's affinity terms prepared once per cycle for matching every existing pod
// (namespaces and selector interned), and a cache for interning existing pods' topology keys.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

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

// Interns the topology keys of existing pods' terms. Nearly all terms of a cluster share a few
// keys, so remembering the last one saves most lookups in the global table.
class TopologyKeyIds {
 public:
  LabelId Get(const std::string& key) {
    if (last_id_ == kNoLabel || key != last_) {
      last_ = key;
      last_id_ = InternLabel(key);
    }
    return last_id_;
  }

 private:
  std::string last_;
  LabelId last_id_ = kNoLabel;
};

}  // namespace schedcheck::reference::interpodaffinity::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_COMPILED_TERM_H_
