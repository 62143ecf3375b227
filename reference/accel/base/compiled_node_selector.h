// Node selectors (required node affinity, preferred terms, nodeSelector-style requirements)
// compiled for the fast engine once per pod or per plugin, with label keys and values interned, so
// that matching one of thousands of nodes compares integers instead of looking strings up in
// protobuf maps. Same results as NodeSelectorTermMatches / NodeSelectorMatches /
// PodMatchesRequiredNodeAffinity on the proto (reference/api/selectors.h).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_NODE_SELECTOR_H_
#define SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_NODE_SELECTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/accel/base/compiled_label_selector.h"
#include "reference/api/label_ids.h"
#include "reference/api/objects.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// A Gt / Lt operand or label value as Kubernetes parses it: base-10 int64, an optional "+".
bool ParseNodeSelectorInt(const std::string& text, int64_t* out);

class CompiledNodeSelectorTerm {
 public:
  explicit CompiledNodeSelectorTerm(const k8s::NodeSelectorTerm& term);
  bool Matches(const Node& node) const;

 private:
  enum class Numeric { kNone, kGt, kLt };
  struct Expression {
    Numeric numeric;  // Gt / Lt against `bound`; kNone: `set_op` over `values`
    LabelSetOp set_op;
    LabelId key;
    std::vector<LabelId> values;  // In / NotIn
    int64_t bound = 0;            // Gt / Lt
  };
  struct NameField {
    bool in;  // In (else NotIn)
    std::string name;
  };
  bool never_ = false;  // empty, or a requirement that matches no node whatever its labels
  std::vector<Expression> expressions_;
  std::vector<NameField> fields_;
};

// A preferred scheduling term: its weight counts for the nodes its term matches.
struct WeightedNodeSelectorTerm {
  int32_t weight;
  CompiledNodeSelectorTerm term;
};

// Terms are ORed; no terms match nothing.
class CompiledNodeSelector {
 public:
  explicit CompiledNodeSelector(const k8s::NodeSelector& selector);
  bool Matches(const Node& node) const {
    for (const CompiledNodeSelectorTerm& t : terms_) {
      if (t.Matches(node)) return true;
    }
    return false;
  }

 private:
  std::vector<CompiledNodeSelectorTerm> terms_;
};

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

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_NODE_SELECTOR_H_
