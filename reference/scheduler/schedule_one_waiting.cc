// Pods waiting on Permit (framework/runtime/waiting_pods_map.go): a binding cycle that waits
// holds its pending plugins with their timeouts; a plugin's Allow from another pod's cycle drops
// one, and the last Allow lets the binding go on at once. The timeout of the first pending plugin
// to expire rejects the pod (BindingCycle). Also the cache's PodGroup objects (GenericWorkload).
#include <algorithm>

#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {

void Scheduler::UpdateWait(Binding* b) {
  b->waiting_plugin.clear();
  b->wait_ns = 0;
  b->due_ns = b->bind_due_ns;
  if (b->pending_waits.empty()) return;
  // The earliest deadline; among equal ones the first plugin by name.
  auto first = std::min_element(b->pending_waits.begin(), b->pending_waits.end(),
                                [](const auto& x, const auto& y) { return x.second < y.second; });
  b->waiting_plugin = first->first;
  b->wait_ns = first->second;
  b->due_ns = std::max(b->bind_due_ns, b->wait_start_ns + b->wait_ns);
}

bool Scheduler::WaitingPodsView::Allow(const std::string& uid, std::string_view plugin) {
  for (Binding& b : s_->bindings_) {
    if (b.assumed->uid() != uid || b.pending_waits.empty() || b.in_pre_bind) continue;
    auto it = b.pending_waits.find(std::string(plugin));
    if (it != b.pending_waits.end()) b.pending_waits.erase(it);
    UpdateWait(&b);
    if (b.pending_waits.empty()) {
      // WaitOnPermit returns Success now; the bind latency, if any, still applies.
      b.due_ns = std::max(b.bind_due_ns, s_->clock_.NowNs());
      b.allowed = true;
    }
    return true;
  }
  return false;
}

void Scheduler::WaitingPodsView::Activate(const std::vector<PodPtr>& pods) {
  s_->queue_->Activate(pods);
}

void Scheduler::OnPodGroup(WatchEvent type, const k8s::PodGroup& group) {
  if (type == WatchEvent::kDeleted) {
    cache_.pod_groups().DeletePodGroup(group.metadata().namespace_(), group.metadata().name());
  } else {
    cache_.pod_groups().AddPodGroup(group);
  }
}

}  // namespace schedcheck::reference
