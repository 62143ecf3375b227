#include "reference/plugins/priority_sort/priority_sort.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> PrioritySort::New(const PluginArgs& args,
                                                  [[maybe_unused]] const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"PrioritySort takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<PrioritySort>());
}

bool PrioritySort::Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  // Pod::priority is spec.priority, 0 when unset (corev1helpers.PodPriority).
  const int32_t pa = a.pod().priority;
  const int32_t pb = b.pod().priority;
  if (pa != pb) return pa > pb;
  if (a.timestamp_ns != b.timestamp_ns) return a.timestamp_ns < b.timestamp_ns;
  // Deterministic tie-break (ours, documented): upstream's heap orders exact ties arbitrarily.
  return a.sequence < b.sequence;
}

}  // namespace schedcheck::reference
