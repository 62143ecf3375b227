#include "reference/accel/inter_pod_affinity/interned_topology_counts.h"

namespace schedcheck::reference::interpodaffinity::fast {

TopologyToMatchedTermCount::TopologyToMatchedTermCount(
    std::initializer_list<std::pair<TopologyPair, int64_t>> counts) {
  for (const auto& [pair, count] : counts)
    Add(InternLabel(pair.key), InternLabel(pair.value), count);
}

int64_t TopologyToMatchedTermCount::Get(const TopologyPair& pair) const {
  return Get(InternLabel(pair.key), InternLabel(pair.value));
}

bool TopologyToMatchedTermCount::operator==(const TopologyToMatchedTermCount& other) const {
  if (non_zero_ != other.non_zero_) return false;
  bool same = true;
  counts_.ForEach([&](uint64_t pair, int64_t count) {
    if (count == 0) return;
    const int64_t* theirs = other.counts_.Find(pair);
    if (theirs == nullptr || *theirs != count) same = false;
  });
  return same;
}

interpodaffinity::TopologyToMatchedTermCount TopologyToMatchedTermCount::ToPlain() const {
  interpodaffinity::TopologyToMatchedTermCount out;
  counts_.ForEach([&](uint64_t pair, int64_t count) {
    if (count == 0) return;
    out[{LabelText(static_cast<LabelId>(pair >> 32)), LabelText(static_cast<LabelId>(pair))}] =
        count;
  });
  return out;
}

ScoreMap TopologyScores::ToPlain() const {
  ScoreMap out;
  scores_.ForEach([&](uint64_t pair, int64_t score) {
    out[LabelText(static_cast<LabelId>(pair >> 32))][LabelText(static_cast<LabelId>(pair))] = score;
  });
  return out;
}

}  // namespace schedcheck::reference::interpodaffinity::fast
