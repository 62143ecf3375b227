// PrioritySort (queuesort/priority_sort.go): the default QueueSort plugin. Orders activeQ by
// priority, then by the time the pod entered the queue.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_PRIORITY_SORT_PRIORITY_SORT_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_PRIORITY_SORT_PRIORITY_SORT_H_

#include <memory>
#include <string_view>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class PrioritySort final : public QueueSortPlugin {
 public:
  static constexpr std::string_view kName = "PrioritySort";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Higher spec.priority first; equal priority: earlier queue timestamp first; then (our rule)
  // lower enqueue sequence first. Upstream leaves exact ties to its heap, i.e. arbitrary.
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_PRIORITY_SORT_PRIORITY_SORT_H_
