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
#include <typeinfo>
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

  void Write(std::string_view key, std::unique_ptr<StateData> data) {
    const std::type_info* type = data ? &typeid(*data) : nullptr;
    if (Entry* e = Find(key)) {
      e->data = std::move(data);
      e->type = type;
      return;
    }
    entries_.push_back({std::string(key), std::move(data), type});
  }
  // Null when absent (plugins turn that into an Error status, as upstream's "not found").
  StateData* Read(std::string_view key) const {
    const Entry* e = Find(key);
    return e == nullptr ? nullptr : e->data.get();
  }
  // The value as T, or null when absent or of another type. Plugins read their state for every
  // node, so the exact-type case avoids dynamic_cast.
  template <typename T>
  T* ReadAs(std::string_view key) const {
    const Entry* e = Find(key);
    if (e == nullptr || e->data == nullptr) return nullptr;
    if (*e->type == typeid(T)) return static_cast<T*>(e->data.get());
    return dynamic_cast<T*>(e->data.get());
  }

  std::unique_ptr<CycleState> Clone() const {
    auto copy = std::make_unique<CycleState>();
    for (const Entry& e : entries_) {
      copy->entries_.push_back({e.key, e.data ? e.data->Clone() : nullptr, e.type});
    }
    copy->skip_filter_plugins = skip_filter_plugins;
    copy->skip_score_plugins = skip_score_plugins;
    copy->skip_pre_bind_plugins = skip_pre_bind_plugins;
    copy->pre_bind_resume_at = pre_bind_resume_at;
    return copy;
  }

  // v1.27: plugins whose PreFilter returned Skip (their Filter and AddPod/RemovePod are not run)
  // and whose PreScore returned Skip (their Score is not run).
  std::set<std::string, std::less<>> skip_filter_plugins;
  std::set<std::string, std::less<>> skip_score_plugins;
  // v1.37: the PreBind plugins whose PreBindPreFlight returned Skip.
  std::set<std::string, std::less<>> skip_pre_bind_plugins;
  // The PreBind plugin that returned Wait (PreBindPlugin::PreBind), where RunPreBindPlugins
  // resumes; 0 before any did.
  size_t pre_bind_resume_at = 0;

 private:
  struct Entry {
    std::string key;
    std::unique_ptr<StateData> data;
    const std::type_info* type = nullptr;
  };
  // A handful of entries per cycle: a linear scan beats a tree.
  const Entry* Find(std::string_view key) const {
    for (const Entry& e : entries_) {
      if (e.key.size() == key.size() && e.key == key) return &e;
    }
    return nullptr;
  }
  Entry* Find(std::string_view key) {
    return const_cast<Entry*>(static_cast<const CycleState*>(this)->Find(key));
  }

  std::vector<Entry> entries_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_CYCLE_STATE_H_
