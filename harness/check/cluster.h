// A case's cluster, loaded into the reference Scheduler through its informer handlers: nodes,
// then the objects plugins read, then pods (bound ones reach the cache, pending ones the queue and
// its nominator). Check, explain and the properties look at one decision of that Scheduler: its
// profile's framework and snapshot, SchedulePod, or a scheduling cycle of a pod they choose.
#ifndef SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_
#define SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/check/case.h"
#include "reference/base/clock.h"
#include "reference/engine/engine.h"
#include "reference/k8s/k8s.pb.h"
#include "reference/runtime/framework.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::check {

struct ClusterInput {
  std::vector<k8s::Node> nodes;
  std::vector<k8s::Pod> pods;
  std::vector<k8s::Namespace> namespaces;
  std::vector<k8s::PodDisruptionBudget> pdbs;
  std::vector<k8s::Service> services;
  std::vector<k8s::ReplicationController> replication_controllers;
  std::vector<k8s::ReplicaSet> replica_sets;
  std::vector<k8s::StatefulSet> stateful_sets;
  StorageInput storage;
  // Optional, parallel to `nodes` and `pods`: where each came from ("c.yaml: line 6"), to name
  // in errors.
  std::vector<std::string> node_sources, pod_sources;
};

// The cluster a case describes.
ClusterInput ClusterInputOf(const Case& c);

// What the Scheduler is built with besides the cluster.
struct ClusterOptions {
  std::string compat;  // "1.27" or "1.37". REQUIRED: there is no default level.
  // The plugin factories and schedulePod's engine (plain rules by default; engine.h).
  reference::Engine engine = reference::Engine::kPlain;
  // A run's --feature-gates at 1.37 (pods' requests and the gated plugin rules).
  reference::FeatureGates gates;
  uint64_t seed = 0;  // schedulePod's tie-break
  // The file the profile came from, if any: errors building its plugins name it.
  std::string config_source;
};

class Cluster {
 public:
  // A Scheduler with the one profile `profile`, then the cluster delivered to its informers.
  // Errors name the object ("pods[3] (default/p): spec.containers[0]...: invalid quantity",
  // after its source when the input has sources) and the options' config_source; a
  // node or bound pod given twice is an error, other objects given twice keep the later one.
  static Result<std::unique_ptr<Cluster>> Build(const ClusterInput& input,
                                                const reference::Profile& profile,
                                                const ClusterOptions& options);
  // The same with the default options but `compat` and `engine`.
  static Result<std::unique_ptr<Cluster>> Build(
      const ClusterInput& input, const reference::Profile& profile, const std::string& compat,
      reference::Engine engine = reference::Engine::kPlain);

  reference::Scheduler& scheduler() { return *scheduler_; }
  // The profile's framework.
  const reference::Framework& framework() const { return *framework_; }
  // The Scheduler's snapshot as of the last Refresh (Build ends with one).
  const reference::Snapshot& snapshot() const { return scheduler_->snapshot(); }
  // Updates the snapshot from the cache (after the informers delivered a change, or an assume).
  void Refresh() { scheduler_->UpdateSnapshot(); }
  // Delivers `pod`, which check or explain is about to schedule, to the pod informer: the pod
  // lister (DefaultPreemption reads the preemptor's latest version there) and the queue hold it.
  // A pod that names its node already is left out (it would go to the cache).
  void AddPendingPod(const reference::PodPtr& pod);
  // Node names in the order they were given.
  const std::vector<std::string>& node_names() const { return node_names_; }

 private:
  Cluster() = default;

  // Check and explain have no time: the clock stays at 0, and 0 stands for an instant after every
  // timestamp a case holds (DefaultPreemption's "now" without a clock).
  VirtualClock clock_;
  std::unique_ptr<reference::Scheduler> scheduler_;
  const reference::Framework* framework_ = nullptr;
  std::vector<std::string> node_names_;
};

// Why the cluster's Scheduler cannot schedule `pod` ("" when it can): no profile for its
// schedulerName.
std::string NoProfileFor(const reference::Pod& pod, Cluster& cluster);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_
