#include "reference/queue/new_scheduling_queue.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "reference/api/pod_requests.h"

namespace schedcheck::reference {

QueueHooks HooksFromSetup(const QueueSetup& setup) {
  QueueHooks hooks;
  auto less = setup.less;
  hooks.less = [less](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    return less && less(a, b);
  };
  // PreEnqueue of the profile the pod names (none when no profile matches, as upstream's
  // per-profile map lookup): the first rejection, with its plugin.
  auto profiles = std::make_shared<std::map<std::string, QueueProfile>>(setup.profiles);
  hooks.pre_enqueue = [profiles](const Pod& pod) {
    auto it = profiles->find(pod.scheduler_name());
    if (it == profiles->end()) return Status();
    for (const PreEnqueueFunction& pl : it->second.pre_enqueue) {
      Status s = pl.fn(pod);
      if (s.IsSuccess()) continue;
      s.WithPlugin(pl.plugin);
      return s;
    }
    return Status();
  };
  return hooks;
}

ClusterEventMap EventMapFromSetup(const QueueSetup& setup) {
  ClusterEventMap out;
  for (const std::string& name : setup.profile_order) {
    auto it = setup.profiles.find(name);
    if (it == setup.profiles.end()) continue;
    for (const auto& reg : it->second.events) out.push_back(reg);
  }
  return out;
}

QueueSetupV1_37 SetupV1_37FromSetup(QueueSetup setup) {
  QueueSetupV1_37 out;
  out.less = std::move(setup.less);
  for (auto& [name, profile] : setup.profiles) {
    QueueProfileV1_37& p = out.profiles[name];
    p.hints = std::move(profile.hints);
    p.pre_enqueue = std::move(profile.pre_enqueue);
    std::stable_sort(p.pre_enqueue.begin(), p.pre_enqueue.end(),
                     [](const PreEnqueueFunction& a, const PreEnqueueFunction& b) {
                       return a.plugin < b.plugin;
                     });
  }
  out.sign_pod = std::move(setup.sign_pod);
  out.move_walk = std::move(setup.move_walk);
  return out;
}

std::unique_ptr<SchedulingQueueInterface> NewSchedulingQueue(const Features& features,
                                                             QueueOptions options,
                                                             const Clock& clock, QueueSetup setup,
                                                             QueueEnvironment environment) {
  if (features.scheduler_queueing_hints) {
    QueueSetupV1_37 with_hints = SetupV1_37FromSetup(std::move(setup));
    with_hints.pop_from_backoff_q = features.scheduler_pop_from_backoff_q;
    with_hints.pod_resource_gates = PodResourceGatesOf(features);
    return std::make_unique<SchedulingQueueV1_37>(options, clock, std::move(with_hints),
                                                  environment.epoch_ns, std::move(environment.sink),
                                                  std::move(environment.pod_lookup));
  }
  ClusterEventMap events = EventMapFromSetup(setup);
  return std::make_unique<SchedulingQueue>(options, clock, HooksFromSetup(setup), std::move(events),
                                           environment.objects, std::move(environment.sink),
                                           std::move(environment.pod_lookup));
}

}  // namespace schedcheck::reference
