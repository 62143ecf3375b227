// Label strings as small integers. Every label key and value a pod or node carries is interned
// once when the object enters the scheduler (BuildPod / BuildNode), so that plugins which look
// up one topology label on thousands of nodes, or match one selector against thousands of pods,
// compare integers instead of hashing strings through protobuf's Map.
#ifndef SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_
#define SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <google/protobuf/map.h>

namespace schedcheck::reference {

using LabelId = uint32_t;
// "No such label" (an absent key). The empty string is a valid label value and has its own id.
inline constexpr LabelId kNoLabel = 0;

// The id of `text`: the same text always gets the same id, for the life of the process. The
// table only grows; it holds the distinct label strings seen, a small set in practice.
LabelId InternLabel(std::string_view text);
// The text of an id returned by InternLabel.
const std::string& LabelText(LabelId id);

// (key, value) as one integer, for hash maps keyed by topology pair.
inline uint64_t PackLabelPair(LabelId key, LabelId value) {
  return (static_cast<uint64_t>(key) << 32) | value;
}

// A label set as (key id, value id) pairs sorted by key id. Objects carry a handful of labels,
// so a linear scan beats any hash; up to kInline pairs are held inside the object itself, so
// that a lookup on one of thousands of nodes touches no further memory.
class LabelIds {
 public:
  using Pair = std::pair<LabelId, LabelId>;
  static constexpr size_t kInline = 4;

  LabelIds() = default;
  explicit LabelIds(const google::protobuf::Map<std::string, std::string>& labels);

  // The value id of `key`, or kNoLabel when the set has no such key.
  LabelId Get(LabelId key) const {
    for (const Pair& p : *this) {
      if (p.first == key) return p.second;
    }
    return kNoLabel;
  }
  bool Has(LabelId key) const { return Get(key) != kNoLabel; }
  size_t size() const { return size_; }
  const Pair* begin() const { return size_ <= kInline ? inline_.data() : spilled_.data(); }
  const Pair* end() const { return begin() + size_; }

 private:
  uint32_t size_ = 0;
  std::array<Pair, kInline> inline_{};
  std::vector<Pair> spilled_;  // all the pairs, when there are more than kInline
};

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

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_
