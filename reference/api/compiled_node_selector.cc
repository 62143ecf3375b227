#include "reference/api/compiled_node_selector.h"

#include <algorithm>
#include <charconv>

namespace schedcheck::reference {
bool ParseNodeSelectorInt(const std::string& text, int64_t* out) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end && begin != end;
}

CompiledNodeSelectorTerm::CompiledNodeSelectorTerm(const k8s::NodeSelectorTerm& term) {
  if (term.match_expressions().empty() && term.match_fields().empty()) never_ = true;
  for (const auto& req : term.match_expressions()) {
    const std::string& op = req.operator_();
    Expression e{Op::kIn, InternLabel(req.key()), {}, 0};
    if (op == "In" || op == "NotIn") {
      e.op = op == "In" ? Op::kIn : Op::kNotIn;
      if (req.values().empty()) never_ = true;  // both need at least one value
      for (const std::string& v : req.values()) e.values.push_back(InternLabel(v));
    } else if (op == "Exists" || op == "DoesNotExist") {
      e.op = op == "Exists" ? Op::kExists : Op::kDoesNotExist;
      if (!req.values().empty()) never_ = true;  // both must have no values
    } else if (op == "Gt" || op == "Lt") {
      e.op = op == "Gt" ? Op::kGt : Op::kLt;
      if (req.values_size() != 1 || !ParseNodeSelectorInt(req.values(0), &e.bound)) never_ = true;
    } else {
      never_ = true;  // unknown operator
    }
    expressions_.push_back(std::move(e));
  }
  for (const auto& req : term.match_fields()) {
    // Only metadata.name is a supported field, with In/NotIn and exactly one value.
    if (req.key() != "metadata.name" || req.values_size() != 1 ||
        (req.operator_() != "In" && req.operator_() != "NotIn")) {
      never_ = true;
      continue;
    }
    fields_.push_back({req.operator_() == "In", req.values(0)});
  }
}

bool CompiledNodeSelectorTerm::Matches(const Node& node) const {
  if (never_) return false;
  for (const Expression& e : expressions_) {
    const LabelId value = node.label_ids.Get(e.key);
    const bool present = value != kNoLabel;
    switch (e.op) {
      case Op::kIn:
        if (!present || std::find(e.values.begin(), e.values.end(), value) == e.values.end()) return false;
        break;
      case Op::kNotIn:
        if (present && std::find(e.values.begin(), e.values.end(), value) != e.values.end()) return false;
        break;
      case Op::kExists:
        if (!present) return false;
        break;
      case Op::kDoesNotExist:
        if (present) return false;
        break;
      case Op::kGt:
      case Op::kLt: {
        int64_t have = 0;
        if (!present || !ParseNodeSelectorInt(LabelText(value), &have)) return false;
        if (e.op == Op::kGt ? !(have > e.bound) : !(have < e.bound)) return false;
        break;
      }
    }
  }
  for (const NameField& f : fields_) {
    const bool equal = node.name() == f.name;
    if (f.in ? !equal : equal) return false;
  }
  return true;
}

CompiledNodeSelector::CompiledNodeSelector(const k8s::NodeSelector& selector) {
  for (const auto& term : selector.node_selector_terms()) terms_.emplace_back(term);
}

}  // namespace schedcheck::reference
