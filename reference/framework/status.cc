#include "reference/framework/status.h"

#include <mutex>
#include <set>

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

const std::string& InternPluginName(std::string_view name) {
  // The reference is single threaded, but tests may build frameworks on several threads.
  static std::mutex mu;
  static std::set<std::string, std::less<>>* names = new std::set<std::string, std::less<>>();
  // Callers pass the same name again and again (one plugin rejecting node after node).
  static thread_local const std::string* last_name = nullptr;
  if (last_name != nullptr && *last_name == name) return *last_name;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names->find(name);
  if (it == names->end()) it = names->emplace(name).first;
  last_name = &*it;
  return *it;
}

const std::vector<std::string>& Status::EmptyReasons() {
  static const std::vector<std::string>* empty = new std::vector<std::string>();
  return *empty;
}

const std::string& Status::EmptyName() {
  static const std::string* empty = new std::string();
  return *empty;
}

void Status::AppendReason(std::string reason) {
  // Copy on write: other holders keep the list they saw.
  std::vector<std::string> list = reasons_ ? reasons_->list : std::vector<std::string>();
  list.push_back(std::move(reason));
  Release();
  reasons_ = new SharedReasons{std::move(list)};
}

std::string Status::Message() const {
  const std::vector<std::string>& r = reasons();
  std::string out;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i > 0) out += ", ";
    out += r[i];
  }
  return out;
}

std::string Status::DebugString() const {
  std::string out(CodeName(code_));
  if (!reasons().empty()) out += ": " + Message();
  if (!plugin().empty()) out += " (plugin " + plugin() + ")";
  return out;
}

}  // namespace schedcheck::reference
