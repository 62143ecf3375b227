// `kind: queue` cases at every level: the queue of the case's level (NewSchedulingQueue, behind
// SchedulingQueueInterface) built from queueConfig, driven by the ops list
// (docs/FORMATS.md#conformance-case-files), expectations checked as the ops run. The ops are the
// same at both levels; what differs is how queueConfig and an op's event are written (v1.27: the
// case's profile plus test plugins, and event labels; v1.37: fixed queueing hints, and
// {resource, action} events), and the v1.27 queue's test hooks (ops that write its sub-queues
// directly, as upstream's v1.27 tests do).
#include "harness/check/run_queue.h"

#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "harness/check/cluster.h"
#include "harness/check/queue_op_fields.h"
#include "harness/check/run_queue_config.h"
#include "harness/check/run_queue_runner.h"
#include "reference/base/compat_level.h"
#include "reference/runtime/queue_setup.h"

namespace schedcheck::check {
namespace {

using Verdict = CaseResult::Verdict;

// Unix time of a 1.37 case's virtual t = 0 (a whole second, as casecheck's fake clock).
constexpr int64_t kEpochV1_37Ns = 1'700'000'000LL * kNanosPerSecond;

CaseResult BadInput(std::string detail) { return {Verdict::kBadInput, std::move(detail)}; }

// The v1.27 case's queue: the case's profile (QueueSort, PreEnqueue, its plugins' events) and
// the test plugins' events (pluginEvents, pluginsWithoutEnqueueExtensions).
Result<reference::QueueSetup> SetupV1_27(const QueueCaseConfig& config, const Cluster& cluster,
                                         reference::Engine engine) {
  auto defaults = RegistrationsWithoutEnqueueExtensions(config.plugins_without_enqueue_extensions,
                                                        cluster.framework().handle(), engine);
  if (!defaults.ok()) return defaults.error();
  reference::QueueSetup setup = reference::QueueSetupFor({&cluster.framework()});
  // A v1.27 move matches the events of every profile: the test plugins' join the case's.
  reference::ClusterEventMap& events = setup.profiles[setup.profile_order.front()].events;
  for (const auto& reg : config.fake_plugin_events) events.push_back(reg);
  for (auto& reg : *defaults) events.push_back(std::move(reg));
  return setup;
}

}  // namespace

CaseResult RunQueueCase(const Case& c, reference::Engine engine) {
  std::optional<reference::CompatLevel> level = reference::ParseCompatLevel(c.compat);
  if (!level) return BadInput("compat: unknown level " + c.compat);
  QueueRunnerConfig run;
  run.level = *level;
  std::optional<QueueCaseConfig> config_v1_27;
  if (*level == reference::CompatLevel::kV1_37) {
    auto config = ParseQueueCaseConfigV1_37(c.queue_config);
    if (!config.ok()) return BadInput("queueConfig: " + config.message());
    run.options = config->options;
    run.setup = std::move(config->setup);
    run.environment.epoch_ns = kEpochV1_37Ns;
  } else {
    auto config = ParseQueueCaseConfig(c.queue_config);
    if (!config.ok()) return BadInput("queueConfig: " + config.message());
    run.options = config->options;
    config_v1_27 = std::move(*config);
  }
  if (!c.expect.is_object() || !c.expect.contains("ops") || !c.expect["ops"].is_array())
    return BadInput("expect.ops: missing or not a list");
  std::unique_ptr<Cluster> cluster;
  if (config_v1_27) {
    auto built = Cluster::Build(ClusterInputOf(c), CaseProfile(c), "1.27", engine);
    if (!built.ok()) return BadInput("setup: " + built.message());
    cluster = std::move(*built);
    auto setup = SetupV1_27(*config_v1_27, *cluster, engine);
    if (!setup.ok()) return BadInput("queueConfig: " + setup.message());
    run.setup = std::move(*setup);
  }
  QueueCaseRunner runner(c, cluster.get(), std::move(run));
  Result<std::string> diff = runner.Run(c.expect["ops"]);
  if (!diff.ok()) return BadInput(diff.message());
  if (!diff->empty()) return {Verdict::kFail, *diff};
  return {Verdict::kPass, ""};
}

}  // namespace schedcheck::check
