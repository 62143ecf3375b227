// Status: the outcome of one plugin at one extension point (framework/interface.go). Scheduling
// outcomes travel as Status; infrastructure failures use Result/Error instead.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedcheck::reference {

enum class Code {
  kSuccess = 0,
  kError = 1,
  kUnschedulable = 2,
  // Rejected, and preemption on this node cannot help.
  kUnschedulableAndUnresolvable = 3,
  kWait = 4,  // Permit only
  kSkip = 5,  // Bind: not handled; PreFilter / PreScore (v1.27+): skip my Filter / Score
};

// "Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip".
std::string_view CodeName(Code code);
// Inverse of CodeName; false for an unknown name.
bool ParseCode(std::string_view name, Code* code);

// Interns a plugin name: the same stable string for equal names, never freed (a profile has a
// few dozen plugins). Lets a status carry its plugin without allocating.
const std::string& InternPluginName(std::string_view name);

// Statuses are created and copied for every rejected node (thousands per failing attempt), so
// copies are cheap: the reasons are one shared immutable list, the plugin an interned name.
// The list's count of holders is a plain integer, not an atomic one (an atomic increment and
// decrement per copy cost more than the rest of a rejection): a status and its copies stay on
// the thread that made them, as everything in the single-threaded reference does.
class Status {
 public:
  Status() = default;  // Success
  explicit Status(Code code, std::vector<std::string> reasons = {})
      : code_(code), reasons_(reasons.empty() ? nullptr : new SharedReasons{std::move(reasons)}) {}
  Status(Code code, std::string reason)
      : code_(code), reasons_(new SharedReasons{std::vector<std::string>(1, std::move(reason))}) {}
  Status(const Status& other)
      : code_(other.code_), reasons_(other.reasons_), plugin_(other.plugin_) {
    if (reasons_ != nullptr) ++reasons_->holders;
  }
  Status(Status&& other) noexcept
      : code_(other.code_), reasons_(other.reasons_), plugin_(other.plugin_) {
    other.reasons_ = nullptr;
  }
  Status& operator=(const Status& other) {
    if (this != &other) {
      if (other.reasons_ != nullptr) ++other.reasons_->holders;
      Release();
      code_ = other.code_;
      reasons_ = other.reasons_;
      plugin_ = other.plugin_;
    }
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    if (this != &other) {
      Release();
      code_ = other.code_;
      reasons_ = other.reasons_;
      plugin_ = other.plugin_;
      other.reasons_ = nullptr;
    }
    return *this;
  }
  ~Status() { Release(); }

  static Status Success() { return Status(); }
  static Status Error(std::string message) { return Status(Code::kError, std::move(message)); }

  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const {
    return reasons_ ? reasons_->list : EmptyReasons();
  }
  // The plugin that produced this status ("failed plugin" upstream); empty when synthesised.
  const std::string& plugin() const { return plugin_ ? *plugin_ : EmptyName(); }
  Status& WithPlugin(std::string_view plugin) {
    plugin_ = plugin.empty() ? nullptr : &InternPluginName(plugin);
    return *this;
  }
  // WithPlugin for a name InternPluginName returned, without interning it again (the batch
  // filter loop names the same plugin for thousands of nodes).
  Status& WithInternedPlugin(const std::string& interned) {
    plugin_ = interned.empty() ? nullptr : &interned;
    return *this;
  }
  void AppendReason(std::string reason);

  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  bool IsWait() const { return code_ == Code::kWait; }
  // Unschedulable or UnschedulableAndUnresolvable (upstream IsUnschedulable in v1.27).
  bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable;
  }

  // Reasons joined with ", " (Status.Message()).
  std::string Message() const;
  // "Unschedulable: reason1, reason2" for logs and test failures.
  std::string DebugString() const;

  bool operator==(const Status& other) const {
    return code_ == other.code_ && plugin() == other.plugin() && reasons() == other.reasons();
  }

 private:
  struct SharedReasons {
    std::vector<std::string> list;  // never changed once shared
    uint32_t holders = 1;
  };
  void Release() {
    if (reasons_ != nullptr && --reasons_->holders == 0) delete reasons_;
    reasons_ = nullptr;
  }
  static const std::vector<std::string>& EmptyReasons();
  static const std::string& EmptyName();

  Code code_ = Code::kSuccess;
  SharedReasons* reasons_ = nullptr;     // null: no reasons
  const std::string* plugin_ = nullptr;  // interned; null: none
};

// The status of a rejection whose code and text never change, made once per thread and then
// copied: a copy shares the reason list, so rejecting thousands of nodes alike allocates nothing.
// Per thread, as the list's holder count is not atomic.
//   return ConstantStatus<Code::kUnschedulable, kErrReason>();
template <Code code, const std::string_view& reason>
const Status& ConstantStatus() {
  static thread_local const Status status(code, std::string(reason));
  return status;
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_
