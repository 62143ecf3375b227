#include "reference/accel/queue/fast_move_walk.h"

#include <iterator>
#include <map>
#include <optional>
#include <string>

namespace schedcheck::reference {
namespace {

// Each profile's hint functions that match one event, found on a profile's first pod.
class MatchingByProfile {
 public:
  MatchingByProfile(const MoveWalk::Queue& queue, const ClusterEvent& event)
      : queue_(queue), event_(event) {}

  // Null when the queue has no hint map for the profile.
  const MatchingHints* For(const std::string& scheduler_name) {
    auto [it, added] = matching_.try_emplace(scheduler_name);
    if (added) {
      if (const QueueingHintMap* map = queue_.hint_map(scheduler_name)) {
        it->second = MatchingHintFunctions(*map, event_);
      }
    }
    return it->second ? &*it->second : nullptr;
  }

 private:
  const MoveWalk::Queue& queue_;
  const ClusterEvent& event_;
  std::map<std::string, std::optional<MatchingHints>, std::less<>> matching_;
};

}  // namespace

void FastMoveWalk::MoveAll(const Queue& queue, const ClusterEvent& event,
                           const EventObjects& objects,
                           const std::function<bool(const Pod&)>& pre_check) const {
  MatchingByProfile matching(queue, event);
  // `next` is taken before `requeue` erases the entry; a pod gated again comes back at its old
  // key, before `next`, so it is not visited twice. Deciding a pod reads only that pod, so
  // deciding it after earlier pods moved gives what the plain walk decides before moving any.
  for (auto it = queue.pool.begin(); it != queue.pool.end();) {
    auto next = std::next(it);
    const QueuedPodInfo& info = it->second;
    if ((!pre_check || pre_check(info.pod())) && !GatingPluginIgnores(info, event)) {
      const MatchingHints* hints = matching.For(info.pod().scheduler_name());
      const QueueingStrategy strategy =
          hints == nullptr ? IsWorthRequeuingWithoutHintMap(info, event, objects)
                           : IsPodWorthRequeuing(*hints, info.pod(), info.unschedulable_plugins,
                                                 info.pending_plugins, event, objects);
      if (strategy != QueueingStrategy::kQueueSkip) queue.requeue(it, strategy);
    }
    it = next;
  }
}

}  // namespace schedcheck::reference
