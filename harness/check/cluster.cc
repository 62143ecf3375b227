#include "harness/check/cluster.h"

#include <algorithm>
#include <map>
#include <utility>

#include "reference/plugins/default_preemption/preemption.h"

namespace schedcheck::check {
namespace {

using reference::WatchEvent;

// Objects keyed "namespace/name" (an empty namespace is "default"); a later duplicate wins.
template <typename Object>
std::map<std::string, Object> ByKey(const std::vector<Object>& objects) {
  std::map<std::string, Object> out;
  for (const Object& o : objects) {
    const std::string& ns = o.metadata().namespace_();
    out[(ns.empty() ? "default" : ns) + "/" + o.metadata().name()] = o;
  }
  return out;
}

// Cluster-scoped objects keyed by name; a later duplicate wins.
template <typename Object>
std::map<std::string, Object> ByName(const std::vector<Object>& objects) {
  std::map<std::string, Object> out;
  for (const Object& o : objects) out[o.metadata().name()] = o;
  return out;
}

// Delivers each object as an add to `handler` (a Scheduler informer handler).
template <typename Object, typename Handler>
void AddEach(const std::map<std::string, Object>& objects, Handler handler) {
  for (const auto& [key, object] : objects) handler(WatchEvent::kAdded, object);
}

// The Scheduler's options for one case or explanation: a configuration of the one profile, and
// the engine's plugins and schedulePod.
Result<reference::SchedulerOptions> SchedulerOptionsFor(const reference::Profile& profile,
                                                        const ClusterOptions& o) {
  const std::optional<reference::CompatLevel> level = reference::ParseCompatLevel(o.compat);
  if (!level) return Error{"compat: unknown level \"" + o.compat + "\" (1.27 or 1.37)"};
  Result<reference::Features> features = reference::FeaturesFor(*level, o.gates);
  if (!features.ok()) return features.error();
  reference::SchedulerOptions options;
  options.config.profiles = {profile};
  options.features = *features;
  options.registry = &reference::PluginRegistryFor(o.engine);
  options.pod_scheduler = reference::MakePodScheduler(o.engine, o.seed, 0);
  // The clock stays at 0 and stands for an instant after every start time a case holds.
  options.epoch_unix_ns = reference::kNowAfterEveryStart;
  return options;
}

// "c.yaml: line 6: " when the input says where object i came from, else "".
std::string SourceOf(const std::vector<std::string>& sources, size_t i) {
  return i < sources.size() ? sources[i] + ": " : "";
}

}  // namespace

ClusterInput ClusterInputOf(const Case& c) {
  return ClusterInput{c.nodes,        c.pods,          c.namespaces,
                      c.pdbs,         c.services,      c.replication_controllers,
                      c.replica_sets, c.stateful_sets, c.storage};
}

Result<std::unique_ptr<Cluster>> Cluster::Build(const ClusterInput& input,
                                                const reference::Profile& profile,
                                                const std::string& compat,
                                                reference::Engine engine) {
  ClusterOptions options;
  options.compat = compat;
  options.engine = engine;
  return Build(input, profile, options);
}

Result<std::unique_ptr<Cluster>> Cluster::Build(const ClusterInput& input,
                                                const reference::Profile& profile,
                                                const ClusterOptions& options) {
  std::unique_ptr<Cluster> c(new Cluster());
  Result<reference::SchedulerOptions> scheduler_options = SchedulerOptionsFor(profile, options);
  if (!scheduler_options.ok()) return scheduler_options.error();
  auto scheduler = reference::Scheduler::New(std::move(*scheduler_options), c->clock_);
  if (!scheduler.ok()) {
    if (options.config_source.empty()) return scheduler.error();
    return Error{options.config_source + ": " + scheduler.message()};
  }
  c->scheduler_ = std::move(*scheduler);
  reference::Scheduler& s = *c->scheduler_;
  c->framework_ = s.FrameworkFor(profile.scheduler_name);
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    auto node = reference::BuildNode(input.nodes[i]);
    const std::string where = SourceOf(input.node_sources, i) + "nodes[" + std::to_string(i) +
                              "] (" + input.nodes[i].metadata().name() + ")";
    if (!node.ok()) return Error{where + ": " + node.message()};
    if (s.GetNode((*node)->name()) != nullptr) {
      const auto first = std::find(c->node_names_.begin(), c->node_names_.end(), (*node)->name());
      const size_t j = static_cast<size_t>(first - c->node_names_.begin());
      return Error{where + ": node \"" + (*node)->name() + "\" already exists (" +
                   SourceOf(input.node_sources, j) + "nodes[" + std::to_string(j) + "])"};
    }
    c->node_names_.push_back((*node)->name());
    s.OnNode(WatchEvent::kAdded, *node);
  }
  // The informers of the kinds plugins read, before any pod reaches the queue.
  for (const auto& [name, ns] : ByName(input.namespaces)) s.OnNamespace(WatchEvent::kAdded, ns);
  for (const auto& [key, pdb] : ByKey(input.pdbs)) s.OnPodDisruptionBudget(WatchEvent::kAdded, pdb);
  AddEach(ByKey(input.services), [&](WatchEvent t, const auto& o) { s.OnService(t, o); });
  AddEach(ByKey(input.replication_controllers),
          [&](WatchEvent t, const auto& o) { s.OnReplicationController(t, o); });
  AddEach(ByKey(input.replica_sets), [&](WatchEvent t, const auto& o) { s.OnReplicaSet(t, o); });
  AddEach(ByKey(input.stateful_sets), [&](WatchEvent t, const auto& o) { s.OnStatefulSet(t, o); });
  const StorageInput& storage = input.storage;
  AddEach(ByName(storage.persistent_volumes),
          [&](WatchEvent t, const auto& o) { s.OnPersistentVolume(t, o); });
  AddEach(ByKey(storage.persistent_volume_claims),
          [&](WatchEvent t, const auto& o) { s.OnPersistentVolumeClaim(t, o); });
  AddEach(ByName(storage.storage_classes),
          [&](WatchEvent t, const auto& o) { s.OnStorageClass(t, o); });
  AddEach(ByName(storage.csi_nodes), [&](WatchEvent t, const auto& o) { s.OnCSINode(t, o); });
  AddEach(ByName(storage.csi_drivers), [&](WatchEvent t, const auto& o) { s.OnCSIDriver(t, o); });
  AddEach(ByKey(storage.csi_storage_capacities),
          [&](WatchEvent t, const auto& o) { s.OnCSIStorageCapacity(t, o); });
  for (size_t i = 0; i < input.pods.size(); ++i) {
    auto pod = reference::BuildPod(input.pods[i], s.features());
    const std::string where = SourceOf(input.pod_sources, i) + "pods[" + std::to_string(i) + "] (" +
                              input.pods[i].metadata().name() + ")";
    if (!pod.ok()) return Error{where + ": " + pod.message()};
    const reference::PodPtr held = s.GetPod((*pod)->key);
    if (held != nullptr && !held->node_name().empty() && !(*pod)->node_name().empty())
      return Error{where + ": pod " + (*pod)->key + " already in the cache"};
    s.OnPod(WatchEvent::kAdded, *pod);
  }
  s.UpdateSnapshot();
  return c;
}

std::string NoProfileFor(const reference::Pod& pod, Cluster& cluster) {
  if (cluster.scheduler().FrameworkFor(pod.scheduler_name()) != nullptr) return "";
  return "pod: no profile for schedulerName \"" + pod.scheduler_name() + "\"";
}

void Cluster::AddPendingPod(const reference::PodPtr& pod) {
  if (pod->node_name().empty()) scheduler_->OnPod(WatchEvent::kAdded, pod);
}

}  // namespace schedcheck::check
