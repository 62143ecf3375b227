// FastInterPodAffinity construction and events; PreFilter, its extensions and Filter are in
// fast_filtering.cc, PreScore, Score and NormalizeScore in fast_scoring.cc.
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastInterPodAffinity::New(const PluginArgs& args,
                                                          const Handle& handle) {
  auto parsed = ParseInterPodAffinityArgs(args);
  if (!parsed.ok()) return parsed.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastInterPodAffinity>(*parsed, handle));
}

std::vector<ClusterEvent> FastInterPodAffinity::EventsToRegister() const {
  return InterPodAffinity(args_, handle_).EventsToRegister();
}

std::vector<ClusterEventWithHint> FastInterPodAffinity::EventsToRegisterWithHints() const {
  // The plain plugin's (its hints are free functions, so they outlive it).
  return InterPodAffinity(args_, handle_).EventsToRegisterWithHints();
}

}  // namespace schedcheck::reference
