// Why a pod fits no node, and the message the scheduler reports for it: framework.Diagnosis and
// framework.FitError of upstream's framework/types.go. The scheduling cycle builds one from the
// filters' statuses; DefaultPreemption builds one from the statuses of its dry runs.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_FIT_ERROR_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_FIT_ERROR_H_

#include <map>
#include <set>
#include <string>

#include "reference/framework/interface.h"

namespace schedcheck::reference {

// Why no node was feasible (framework.Diagnosis).
struct Diagnosis {
  NodeToStatus node_to_status;
  std::set<std::string> unschedulable_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;
  // v1.37's FitError.Error() appends the PostFilter message as it is; v1.27 adds a period.
  bool post_filter_msg_verbatim = false;
};

// "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match ... ." (FitError.Error()).
std::string FitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis);
// The same from the number of nodes that gave each reason (FitError.Error()'s histogram).
std::string FitErrorMessageFromReasonCounts(int num_all_nodes,
                                            const std::map<std::string, int>& reason_counts,
                                            const std::string& post_filter_msg,
                                            bool post_filter_msg_verbatim = false);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_FIT_ERROR_H_
