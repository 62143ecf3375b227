#include "reference/accel/fit_error_text.h"

namespace schedcheck::reference {

std::map<std::string, int> ReasonCounter::ReasonCounts() const {
  std::map<std::string, int> reason_counts;
  for (const auto& [list, nodes] : nodes_per_list_) {
    for (const std::string& reason : *list) reason_counts[reason] += nodes;
  }
  return reason_counts;
}

std::string FastFitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis) {
  if (!diagnosis.pre_filter_msg.empty()) return FitErrorMessage(num_all_nodes, diagnosis);
  ReasonCounter counter;
  for (const auto& [node, status] : diagnosis.node_to_status) counter.Add(status);
  return FitErrorMessageFromReasonCounts(num_all_nodes, counter.ReasonCounts(),
                                         diagnosis.post_filter_msg,
                                         diagnosis.post_filter_msg_verbatim);
}

}  // namespace schedcheck::reference
