#include "reference/accel/fit_error_text.h"

#include <map>
#include <unordered_map>
#include <vector>

namespace schedcheck::reference {

std::string FastFitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis) {
  if (!diagnosis.pre_filter_msg.empty()) return FitErrorMessage(num_all_nodes, diagnosis);
  std::unordered_map<const std::vector<std::string>*, int> nodes_per_list;
  for (const auto& [node, status] : diagnosis.node_to_status) ++nodes_per_list[&status.reasons()];
  std::map<std::string, int> reason_counts;
  for (const auto& [list, nodes] : nodes_per_list) {
    for (const std::string& reason : *list) reason_counts[reason] += nodes;
  }
  return FitErrorMessageFromReasonCounts(num_all_nodes, reason_counts, diagnosis.post_filter_msg);
}

}  // namespace schedcheck::reference
