// CycleState: per-attempt key/value store shared by a pod's plugins through one scheduling and
// binding cycle (framework/cycle_state.go). Values deep-copy themselves on Clone(), which the
// nominated-pod filter pass and preemption's dry runs use.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_CYCLE_STATE_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_CYCLE_STATE_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace schedcheck::reference {

class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;

  void Write(std::string key, std::unique_ptr<StateData> data) {
    data_[std::move(key)] = std::move(data);
  }
  // Null when absent (plugins turn that into an Error status, as upstream's "not found").
  StateData* Read(std::string_view key) const {
    auto it = data_.find(key);
    return it == data_.end() ? nullptr : it->second.get();
  }
  template <typename T>
  T* ReadAs(std::string_view key) const {
    return dynamic_cast<T*>(Read(key));
  }

  std::unique_ptr<CycleState> Clone() const {
    auto copy = std::make_unique<CycleState>();
    for (const auto& [key, value] : data_) copy->data_[key] = value ? value->Clone() : nullptr;
    copy->skip_filter_plugins = skip_filter_plugins;
    copy->skip_filter_mask = skip_filter_mask;
    copy->skip_score_plugins = skip_score_plugins;
    return copy;
  }

  // v1.27: plugins whose PreFilter returned Skip (their Filter and AddPod/RemovePod are not run)
  // and whose PreScore returned Skip (their Score is not run).
  std::set<std::string, std::less<>> skip_filter_plugins;
  std::set<std::string, std::less<>> skip_score_plugins;
  // skip_filter_plugins as one flag per filter plugin of the framework that ran PreFilter (by
  // position), so the per-node filter loop does not look names up. Empty: use the set.
  std::vector<char> skip_filter_mask;

 private:
  std::map<std::string, std::unique_ptr<StateData>, std::less<>> data_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_CYCLE_STATE_H_
