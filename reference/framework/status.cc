#include "reference/framework/status.h"

namespace schedcheck::reference {
namespace {

constexpr std::string_view kCodeNames[] = {
    "Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip",
};

}  // namespace

std::string_view CodeName(Code code) { return kCodeNames[static_cast<int>(code)]; }

bool ParseCode(std::string_view name, Code* code) {
  for (int i = 0; i < static_cast<int>(std::size(kCodeNames)); ++i) {
    if (kCodeNames[i] == name) {
      *code = static_cast<Code>(i);
      return true;
    }
  }
  return false;
}

std::string Status::Message() const {
  std::string out;
  for (size_t i = 0; i < reasons_.size(); ++i) {
    if (i > 0) out += ", ";
    out += reasons_[i];
  }
  return out;
}

std::string Status::DebugString() const {
  std::string out(CodeName(code_));
  if (!reasons_.empty()) out += ": " + Message();
  if (!plugin_.empty()) out += " (plugin " + plugin_ + ")";
  return out;
}

}  // namespace schedcheck::reference
