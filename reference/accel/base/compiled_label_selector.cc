#include "reference/accel/base/compiled_label_selector.h"

#include <string>
#include <utility>

#include "reference/api/selectors.h"

namespace schedcheck::reference {

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

}  // namespace schedcheck::reference
