// Conformance cases (docs/FORMATS.md#conformance-case-files): one JSON object or YAML document
// each, stating a cluster, a pod, the plugins to run and the expected outcome, with where that
// expectation comes from.
#ifndef SCHEDCHECK_HARNESS_CHECK_CASE_H_
#define SCHEDCHECK_HARNESS_CHECK_CASE_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"
#include "reference/runtime/profile.h"
#include "traces/input_limits.h"

namespace schedcheck::check {

// A plugin named in a case: "NodeAffinity" or "NodeAffinity(PreFilter,Filter)".
struct CasePlugin {
  std::string name;
  std::vector<reference::ExtensionPoint> points;  // empty = every point it implements
};

// The storage objects of a case's cluster, read by the volume plugins.
struct StorageInput {
  std::vector<k8s::PersistentVolume> persistent_volumes;
  std::vector<k8s::PersistentVolumeClaim> persistent_volume_claims;
  std::vector<k8s::StorageClass> storage_classes;
  std::vector<k8s::CSINode> csi_nodes;
  std::vector<k8s::CSIDriver> csi_drivers;
  std::vector<k8s::CSIStorageCapacity> csi_storage_capacities;
};

struct Case {
  std::string id;
  std::string source;
  std::string kind;      // filter, score, schedule, preempt, queue, hint, update
  std::string compat;    // "" = the default level
  std::string location;  // "file: line N" for messages

  bool default_plugins = true;
  std::vector<CasePlugin> plugins;
  std::map<std::string, nlohmann::json> plugin_args;
  std::map<std::string, int32_t> plugin_weights;

  std::vector<k8s::Node> nodes;
  std::vector<k8s::Pod> pods;
  std::vector<k8s::Namespace> namespaces;
  std::vector<k8s::PodDisruptionBudget> pdbs;
  // Selector objects (PodTopologySpread's default constraints read them).
  std::vector<k8s::Service> services;
  std::vector<k8s::ReplicationController> replication_controllers;
  std::vector<k8s::ReplicaSet> replica_sets;
  std::vector<k8s::StatefulSet> stateful_sets;
  StorageInput storage;
  std::optional<k8s::Pod> pod;
  // schedule only: pods scheduled first, in order, by the same scheduler, each assumed on its node.
  std::vector<k8s::Pod> pods_before;

  std::optional<std::vector<std::string>> feasible_nodes;
  bool score_is_weighted_total = false;
  nlohmann::json expect_pre_filter;         // null when absent
  nlohmann::json expect_pre_filter_result;  // null when absent
  nlohmann::json expect_pre_score;          // score only; null when absent
  nlohmann::json expect;
  nlohmann::json queue_config;

  // kind hint (compat 1.37): the incoming event and its objects, Nodes for a Node event, Pods
  // otherwise (absent = nil). `expect` is {"hint": Queue | QueueSkip | NotRegistered, "error": b}.
  // kind update (compat 1.37): the informer update of a Node or a Pod (event_resource "Node" or
  // "Pod", the objects above) and whether the pod is the rejected pod itself; `expect` is
  // {"events": ["Resource/Action", ...]}.
  std::string event_resource;
  uint32_t event_action = 0;
  bool target_pod = false;
  std::optional<k8s::Node> old_node, new_node;
  std::optional<k8s::Pod> old_pod, new_pod;
  // A storage event's objects (resource PersistentVolume, PersistentVolumeClaim or one of the
  // storage.k8s.io kinds), null where absent.
  std::shared_ptr<const google::protobuf::Message> old_object, new_object;
};

// Parses one case object. Errors name `location` and the field ("pods[2].spec.priority: ...").
Result<Case> ParseCase(const nlohmann::json& json, const std::string& location);

// Every case in the files (recursing into directories, files in name order). A file that cannot
// be read, a file without cases or a malformed case is an error naming the file, line and field.
// `limits` (`check --limit`): records bounds the cases in all, the byte and entry limits every
// Kubernetes object of a case (errors name the field, "pods[2].metadata.labels"), the YAML limits
// every YAML file.
Result<std::vector<Case>> LoadCases(const std::vector<std::string>& paths,
                                    const trace::InputLimits& limits = {});

// The profile a case asks for: the default profile, or exactly the listed plugins (each at every
// point it implements, or at the listed points), plus PrioritySort and DefaultBinder when absent.
reference::Profile CaseProfile(const Case& c);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_CASE_H_
