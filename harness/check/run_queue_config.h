// queueConfig of `kind: queue` cases (docs/FORMATS.md#conformance-case-files) and the event/node
// arguments of its ops.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_CONFIG_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_CONFIG_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/check/case.h"
#include "harness/check/cluster.h"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "reference/framework/handle.h"
#include "reference/framework/node_info.h"
#include "reference/queue/new_scheduling_queue.h"
#include "reference/queue/scheduling_queue.h"

namespace schedcheck::check {

// Every time and duration of a queue case (queueConfig durations, op seconds and offsets) and the
// virtual clock itself stay within this many seconds (about 31.7 years) of t = 0: then every sum
// and difference the queue computes of them (timestamp + backoff, now - timestamp) fits in int64
// nanoseconds, which merely fitting each value would not ensure.
inline constexpr int64_t kMaxQueueCaseSeconds = 1'000'000'000;

struct QueueCaseConfig {
  reference::QueueOptions options;
  // pluginEvents: fake plugins that only register events.
  reference::ClusterEventMap fake_plugin_events;
  // pluginsWithoutEnqueueExtensions: test Filter plugins that implement no EnqueueExtensions;
  // their events come from Framework::EventRegistrations (upstream's default registration).
  std::vector<std::string> plugins_without_enqueue_extensions;
};

// Defaults 1 s / 10 s / 300 s, each a number of seconds in [0, kMaxQueueCaseSeconds]; queueSort
// must be PrioritySort; queueingHints are not a v1.27
// concept (an error here: such cases carry a newer compat level and are skipped before this).
Result<QueueCaseConfig> ParseQueueCaseConfig(const nlohmann::json& config);

// At compat "1.37": the durations as above, queueingHints (fixed answers) and preEnqueue
// ([SchedulingGates]) of the one profile "default-scheduler", whose QueueSort is PrioritySort.
struct QueueCaseConfigV1_37 {
  reference::QueueOptions options;
  reference::QueueSetup setup;
};
Result<QueueCaseConfigV1_37> ParseQueueCaseConfigV1_37(const nlohmann::json& config);

// An event at compat "1.37": {resource, action}, any resource name, the action one v1.37
// ActionType name or several joined by '|'; {resource: "*", action: All} is UnschedulableTimeout.
Result<reference::ClusterEvent> ParseQueueEventV1_37(const nlohmann::json& v,
                                                     const std::string& field);

// The event registrations of the pluginsWithoutEnqueueExtensions: the test plugins (Filter plugins
// rejecting every node, without EnqueueExtensions) are enabled in a profile of their own
// (with PrioritySort and DefaultBinder, which every profile needs) built by Framework::Create over
// the engine's registry, and that Framework's EventRegistrations for them are returned: upstream's
// fillEventToPluginMap gives each the default events (v1.27 framework.go allClusterEvents).
Result<reference::ClusterEventMap> RegistrationsWithoutEnqueueExtensions(
    const std::vector<std::string>& plugins, const reference::Handle& handle,
    reference::Engine engine);

// The predefined event with this label, or for any other name an event on a resource no
// plugin registers (so only pods without rejectors move).
reference::ClusterEvent ResolveEvent(const std::string& label);

// The NodeInfo for an event's `node`: an inline Node object or the name of a case node, with the
// case's pods bound to it.
Result<std::shared_ptr<reference::NodeInfo>> NodeInfoArg(const Case& c, const Cluster& cluster,
                                                         const nlohmann::json& node);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_CONFIG_H_
