// Label strings as small integers: an index of an object's labels, built once when the object
// enters the scheduler (BuildPod / BuildNode fill Pod::label_ids, Pod::namespace_id and
// Node::label_ids), for the fast engine (reference/accel), whose plugins look up one topology
// label on thousands of nodes, or match one selector against thousands of pods, comparing
// integers instead of hashing strings through protobuf's Map. The plain rules never read them:
// they match the label strings, as upstream does. It lives here, not in reference/accel, only
// because the objects carry it.
#ifndef SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_
#define SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_

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

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_LABEL_IDS_H_
