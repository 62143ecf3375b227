// FitErrorMessage (framework/fit_error.h) for the fast engine: the same text, counted per
// shared reason list rather than per node and reason. Rejected nodes' statuses mostly share a
// handful of reason lists (Status copies share theirs), so thousands of nodes cost one hash
// lookup each by address, and each distinct list's reasons are counted once by text.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_
#define SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/framework/fit_error.h"

namespace schedcheck::reference {

// The nodes per reason of a set of statuses, FitError.Error()'s histogram, counted per reason list.
// A list is known by its address, so the counter keeps a copy of one status per list: a list
// stays alive while it is counted, and its address cannot come back holding other reasons.
class ReasonCounter {
 public:
  void Add(const Status& status) {
    const std::vector<std::string>* list = &status.reasons();
    if (list != last_list_) {
      auto [it, inserted] = nodes_per_list_.try_emplace(list, 0);
      if (inserted) holders_.push_back(status);
      last_list_ = list;
      last_count_ = &it->second;
    }
    ++*last_count_;  // neighbours mostly share a list: no lookup for them
  }
  // Every reason with the number of nodes that gave it.
  std::map<std::string, int> ReasonCounts() const;

 private:
  std::unordered_map<const std::vector<std::string>*, int> nodes_per_list_;
  std::vector<Status> holders_;  // one status per list in nodes_per_list_
  const std::vector<std::string>* last_list_ = nullptr;
  int* last_count_ = nullptr;  // nodes_per_list_[last_list_]; its nodes never move
};

std::string FastFitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_
