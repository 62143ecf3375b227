// A case's cluster, loaded into the reference: cache, snapshot, namespaces and PDBs, the nominated
// pods, and the framework for the case's profile. Shared by `check` and `explain`.
#ifndef SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_
#define SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/check/case.h"
#include "reference/cache/cache.h"
#include "reference/engine/engine.h"
#include "reference/framework/handle.h"
#include "reference/k8s/k8s.pb.h"
#include "reference/runtime/framework.h"

namespace schedcheck::check {

// Pods nominated to nodes (status.nominatedNodeName set, spec.nodeName empty), in input order.
class StaticNominator : public reference::PodNominator {
 public:
  void Add(reference::PodInfoPtr pod, const std::string& node) {
    by_node_[node].push_back(std::move(pod));
  }
  std::vector<reference::PodInfoPtr> NominatedPodsForNode(const std::string& node) const override {
    auto it = by_node_.find(node);
    return it == by_node_.end() ? std::vector<reference::PodInfoPtr>{} : it->second;
  }

 private:
  std::map<std::string, std::vector<reference::PodInfoPtr>> by_node_;
};

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
};

// The cluster a case describes.
ClusterInput ClusterInputOf(const Case& c);

class Cluster {
 public:
  // Errors name the object ("pods[3] (default/p): spec.containers[0]...: invalid quantity").
  // `engine` picks the plugin factories (plain rules by default; reference/engine/engine.h);
  // `gates`, a run's --feature-gates at 1.37 (pods' requests and the gated plugin rules).
  static Result<std::unique_ptr<Cluster>> Build(
      const ClusterInput& input, const reference::Profile& profile, const std::string& compat,
      reference::Engine engine = reference::Engine::kPlain,
      const reference::FeatureGates& gates = {});

  reference::Cache& cache() { return cache_; }
  const reference::Snapshot& snapshot() const { return snapshot_; }
  const reference::Framework& framework() const { return *framework_; }
  reference::Framework& framework() { return *framework_; }
  // Refreshes the snapshot from the cache (after an assume or a binding).
  void Refresh() { cache_.UpdateSnapshot(&snapshot_); }
  // Node names in the order they were given.
  const std::vector<std::string>& node_names() const { return node_names_; }

 private:
  explicit Cluster(const reference::Features& features) : cache_(features), handle_(features) {}

  reference::Cache cache_;
  reference::Snapshot snapshot_;
  reference::ClusterObjects objects_;
  StaticNominator nominator_;
  reference::Handle handle_;
  std::unique_ptr<reference::Framework> framework_;
  std::vector<std::string> node_names_;
};

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_CLUSTER_H_
