// Status: the outcome of one plugin at one extension point (framework/interface.go). Scheduling
// outcomes travel as Status; infrastructure failures use Result/Error instead.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_

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

class Status {
 public:
  Status() = default;  // Success
  explicit Status(Code code, std::vector<std::string> reasons = {})
      : code_(code), reasons_(std::move(reasons)) {}
  Status(Code code, std::string reason) : code_(code), reasons_{std::move(reason)} {}

  static Status Success() { return Status(); }
  static Status Error(std::string message) { return Status(Code::kError, std::move(message)); }

  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  // The plugin that produced this status ("failed plugin" upstream); empty when synthesised.
  const std::string& plugin() const { return plugin_; }
  Status& WithPlugin(std::string_view plugin) {
    plugin_ = std::string(plugin);
    return *this;
  }
  void AppendReason(std::string reason) { reasons_.push_back(std::move(reason)); }

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

  bool operator==(const Status& other) const = default;

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_STATUS_H_
