// A keyed priority queue of QueuedPodInfo (upstream internal/heap): lookup by "namespace/name",
// ordered by a Less function. Upstream's heap leaves exact ties in an arbitrary order; here ties
// are broken by QueuedPodInfo::sequence so that every order is deterministic.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_POD_HEAP_H_
#define SCHEDCHECK_REFERENCE_QUEUE_POD_HEAP_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference/framework/interface.h"

namespace schedcheck::reference {

class PodHeap {
 public:
  using Less = std::function<bool(const QueuedPodInfo&, const QueuedPodInfo&)>;
  explicit PodHeap(Less less)
      : less_(std::make_shared<Less>(std::move(less))), order_(Cmp{less_}) {}
  PodHeap(const PodHeap&) = delete;
  PodHeap& operator=(const PodHeap&) = delete;

  bool Contains(const std::string& key) const { return items_.count(key) > 0; }
  const QueuedPodInfo* Get(const std::string& key) const;
  // Inserts, or replaces the entry with the same key and re-positions it.
  void AddOrUpdate(QueuedPodInfo info);
  std::optional<QueuedPodInfo> Delete(const std::string& key);
  const QueuedPodInfo* Peek() const { return order_.empty() ? nullptr : *order_.begin(); }
  std::optional<QueuedPodInfo> Pop();
  // Entries in order (head first).
  std::vector<const QueuedPodInfo*> Ordered() const { return {order_.begin(), order_.end()}; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

 private:
  struct Cmp {
    std::shared_ptr<Less> less;
    bool operator()(const QueuedPodInfo* a, const QueuedPodInfo* b) const {
      if ((*less)(*a, *b)) return true;
      if ((*less)(*b, *a)) return false;
      return a->sequence < b->sequence;
    }
  };

  std::shared_ptr<Less> less_;
  std::map<std::string, std::unique_ptr<QueuedPodInfo>> items_;
  std::set<const QueuedPodInfo*, Cmp> order_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_POD_HEAP_H_
