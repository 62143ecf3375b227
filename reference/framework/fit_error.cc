#include "reference/framework/fit_error.h"

#include <algorithm>
#include <vector>

namespace schedcheck::reference {
namespace {

// "0/N nodes are available: <why>. <post_filter_msg>.", each part only when not empty.
std::string ComposeFitError(int num_all_nodes, const std::string& why,
                            const std::string& post_filter_msg, bool post_filter_msg_verbatim) {
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!why.empty()) msg += " " + why + ".";
  if (!post_filter_msg.empty())
    msg += " " + post_filter_msg + (post_filter_msg_verbatim ? "" : ".");
  return msg;
}

}  // namespace

std::string FitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis) {
  if (!diagnosis.pre_filter_msg.empty()) {
    return ComposeFitError(num_all_nodes, diagnosis.pre_filter_msg, diagnosis.post_filter_msg,
                           diagnosis.post_filter_msg_verbatim);
  }
  // FitError.Error(): how many nodes gave each reason, "<count> <reason>" sorted as strings.
  std::map<std::string, int> reasons;
  for (const auto& [node, status] : diagnosis.node_to_status) {
    for (const std::string& reason : status.reasons()) ++reasons[reason];
  }
  return FitErrorMessageFromReasonCounts(num_all_nodes, reasons, diagnosis.post_filter_msg,
                                         diagnosis.post_filter_msg_verbatim);
}

std::string FitErrorMessageFromReasonCounts(int num_all_nodes,
                                            const std::map<std::string, int>& reason_counts,
                                            const std::string& post_filter_msg,
                                            bool post_filter_msg_verbatim) {
  std::vector<std::string> items;
  for (const auto& [reason, count] : reason_counts) {
    items.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(items.begin(), items.end());
  std::string why;
  for (const std::string& item : items) why += (why.empty() ? "" : ", ") + item;
  return ComposeFitError(num_all_nodes, why, post_filter_msg, post_filter_msg_verbatim);
}

}  // namespace schedcheck::reference
