// Building the text keys under which the fast engine's plugins keep results across cycles: the key
// names everything a remembered result depends on besides the node. Numbers end with ';' and texts
// are length-prefixed, so that no choice of label text can make two different keys equal; maps go
// in key order, as protobuf maps iterate in no fixed order.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_BASE_CACHE_KEY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_BASE_CACHE_KEY_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/api/selectors.h"

namespace schedcheck::reference {

inline void AppendKeyNumber(std::string& key, int64_t n) {
  key += std::to_string(n);
  key += ';';
}

inline void AppendKeyText(std::string& key, std::string_view text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

// A label map (matchLabels, nodeSelector, a namespace's labels) in key order.
inline void AppendKeyLabels(std::string& key, const Labels& labels) {
  std::vector<std::pair<std::string_view, std::string_view>> sorted(labels.begin(), labels.end());
  std::sort(sorted.begin(), sorted.end());
  AppendKeyNumber(key, static_cast<int64_t>(sorted.size()));
  for (const auto& [k, v] : sorted) {
    AppendKeyText(key, k);
    AppendKeyText(key, v);
  }
}

// matchLabels in key order, then matchExpressions in order.
inline void AppendKeySelector(std::string& key, const k8s::LabelSelector& selector) {
  AppendKeyLabels(key, selector.match_labels());
  AppendKeyNumber(key, selector.match_expressions_size());
  for (const k8s::LabelSelectorRequirement& r : selector.match_expressions()) {
    AppendKeyText(key, r.key());
    AppendKeyText(key, r.operator_());
    AppendKeyNumber(key, r.values_size());
    for (const std::string& v : r.values()) AppendKeyText(key, v);
  }
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_BASE_CACHE_KEY_H_
