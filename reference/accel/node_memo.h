// NodeMemo: per-node results remembered across scheduling cycles. A NodeInfo takes a new,
// globally unique generation whenever its node or its pods change (copies keep it, with the same
// content), so a result computed from a NodeInfo and a key (what the result depends on besides
// the node: the pod's request, say) is still right while both the generation and the key are the
// same. Entries sit by node name rank, in one array the batch loops walk in order. A rank that
// now belongs to another node holds that node's generation, never a stale match.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_MEMO_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_MEMO_H_

#include <cstdint>
#include <vector>

#include "reference/framework/node_info.h"

namespace schedcheck::reference {

template <typename Key, typename Value>
class NodeMemo {
 public:
  // The remembered value for `node` under `key`, or null.
  const Value* Find(const NodeInfo& node, const Key& key) const {
    const uint32_t rank = node.name_rank();
    if (rank >= entries_.size() || node.generation() == 0) return nullptr;
    const Entry& e = entries_[rank];
    return e.generation == node.generation() && e.key == key ? &e.value : nullptr;
  }
  void Store(const NodeInfo& node, const Key& key, const Value& value) {
    const uint32_t rank = node.name_rank();
    if (rank >= entries_.size()) entries_.resize(rank + 1);
    entries_[rank] = Entry{node.generation(), key, value};
  }
  // The remembered value, or compute() stored and returned. The reference holds until the next
  // Store or GetOrStore.
  template <typename Compute>
  const Value& GetOrStore(const NodeInfo& node, const Key& key, Compute&& compute) {
    if (const Value* value = Find(node, key)) return *value;
    Store(node, key, compute());
    return entries_[node.name_rank()].value;
  }

 private:
  struct Entry {
    int64_t generation = -1;
    Key key{};
    Value value{};
  };
  std::vector<Entry> entries_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_MEMO_H_
