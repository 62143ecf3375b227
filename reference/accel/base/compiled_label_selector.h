// Label selectors compiled for the fast engine: keys and values interned (reference/api/
// label_ids.h), matched against the interned label sets Pod and Node carry (label_ids), with the
// answers of the plain LabelSelectorMatches (reference/api/selectors.h).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_LABEL_SELECTOR_H_
#define SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_LABEL_SELECTOR_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reference/api/label_ids.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// The set-based operators of label and node selector requirements.
enum class LabelSetOp : uint8_t { kIn, kNotIn, kExists, kDoesNotExist };

// Whether a label whose interned value is `value` (kNoLabel: the key is absent) satisfies `op`
// over `values` (In / NotIn: few, so a linear scan).
inline bool LabelSetOpHolds(LabelSetOp op, LabelId value, const std::vector<LabelId>& values) {
  const bool present = value != kNoLabel;
  switch (op) {
    case LabelSetOp::kIn:
      return present && std::find(values.begin(), values.end(), value) != values.end();
    case LabelSetOp::kNotIn:
      return !present || std::find(values.begin(), values.end(), value) == values.end();
    case LabelSetOp::kExists:
      return present;
    case LabelSetOp::kDoesNotExist:
      return !present;
  }
  return false;
}

// A label selector with its strings interned, matched against interned label sets (Pod and Node
// label_ids): the answers of LabelSelectorMatches without hashing strings. Plugins compile the
// incoming pod's selectors once per cycle and match them against every existing pod.
class CompiledLabelSelector {
 public:
  // Matches nothing, as a nil selector.
  CompiledLabelSelector() = default;
  // A present selector; a malformed one (!LabelSelectorValid) matches nothing.
  explicit CompiledLabelSelector(const k8s::LabelSelector& selector);

  bool Matches(const LabelIds& labels) const;

 private:
  struct Requirement {
    LabelId key = kNoLabel;
    LabelSetOp op = LabelSetOp::kExists;
    std::vector<LabelId> values;  // In / NotIn
  };

  bool matches_nothing_ = true;
  std::vector<Requirement> requirements_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_BASE_COMPILED_LABEL_SELECTOR_H_
