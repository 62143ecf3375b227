#include "reference/framework/interface.h"

#include <algorithm>
#include <iterator>

namespace schedcheck::reference {

PreFilterResult PreFilterResult::Merge(const PreFilterResult& other) const {
  if (all_nodes) return other;
  if (other.all_nodes) return *this;
  PreFilterResult out;
  out.all_nodes = false;
  std::set_intersection(node_names.begin(), node_names.end(), other.node_names.begin(),
                        other.node_names.end(), std::inserter(out.node_names, out.node_names.end()));
  return out;
}

void FilterPlugin::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                               std::vector<BatchRejection>* rejected) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    Status s = Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

Status ScorePlugin::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    scores[i] = 0;
    Status s = Score(state, pod, *nodes[i], &scores[i]);
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

}  // namespace schedcheck::reference
