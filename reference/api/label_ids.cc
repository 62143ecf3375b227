#include "reference/api/label_ids.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace schedcheck::reference {
namespace {

class InternTable {
 public:
  InternTable() {
    texts_.emplace_back();  // id 0 is kNoLabel; its text is never looked up by a caller
  }

  LabelId Intern(std::string_view text) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ids_.find(text);
    if (it != ids_.end()) return it->second;
    // A deque never moves its elements, so the views used as map keys stay valid.
    const std::string& stored = texts_.emplace_back(text);
    LabelId id = static_cast<LabelId>(texts_.size() - 1);
    ids_.emplace(stored, id);
    return id;
  }

  const std::string& Text(LabelId id) {
    std::lock_guard<std::mutex> lock(mu_);
    return texts_.at(id);
  }

 private:
  std::mutex mu_;
  std::deque<std::string> texts_;
  std::unordered_map<std::string_view, LabelId> ids_;
};

InternTable& Table() {
  static InternTable* table = new InternTable();  // never destroyed: ids outlive static objects
  return *table;
}

}  // namespace

LabelId InternLabel(std::string_view text) { return Table().Intern(text); }

const std::string& LabelText(LabelId id) { return Table().Text(id); }

LabelIds::LabelIds(const google::protobuf::Map<std::string, std::string>& labels) {
  std::vector<Pair> pairs;
  pairs.reserve(labels.size());
  for (const auto& [key, value] : labels) pairs.emplace_back(InternLabel(key), InternLabel(value));
  std::sort(pairs.begin(), pairs.end());
  size_ = static_cast<uint32_t>(pairs.size());
  if (pairs.size() <= kInline) {
    std::copy(pairs.begin(), pairs.end(), inline_.begin());
  } else {
    spilled_ = std::move(pairs);
  }
}

}  // namespace schedcheck::reference
