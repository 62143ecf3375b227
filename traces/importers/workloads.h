// Workload controllers expanded into the pods their controllers would create, for the manifests,
// watch and kss importers (README.md "Workloads"). Pure functions over Kubernetes JSON:
// deterministic (the random name suffixes of upstream's controllers become counters, see
// GeneratedSuffix) and bounded (kMaxWorkloadPods).
//
//   Deployment            -> a ReplicaSet "<deployment>-<template hash>" (kept as a selector
//                            object), then that ReplicaSet's pods
//   ReplicaSet, ReplicationController
//                         -> spec.replicas (default 1) pods "<owner>-<suffix>"
//   StatefulSet           -> spec.replicas pods "<set>-<ordinal>", ordinals from
//                            spec.ordinals.start (default 0); each volumeClaimTemplate becomes a
//                            persistentVolumeClaim volume named as the template, claim
//                            "<template>-<set>-<ordinal>", and that PersistentVolumeClaim (unbound:
//                            the template's spec, the selector's matchLabels as labels), created
//                            just before its pod as upstream's controller does
//   DaemonSet             -> one pod per node the DaemonSet controller would run it on (v1.27
//                            NodeShouldRunDaemonPod), in node name order, pinned by the node
//                            affinity and carrying the tolerations the controller adds
//   Job                   -> min(parallelism (default 1), completions when set) pods, none when
//                            suspended; "<job>-<suffix>", Indexed: "<job>-<index>-<suffix>"
//   PodTemplate           -> one pod with the template's name (no owner)
// Every pod carries the template's labels (plus the labels the controller adds), the owner's
// namespace and an ownerReference to its controller (controller: true; for a Deployment the
// ReplicaSet), and no nodeName unless the template sets one.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_WORKLOADS_H_
#define SCHEDCHECK_TRACES_IMPORTERS_WORKLOADS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"
#include "traces/input_limits.h"

namespace schedcheck::trace {

// Most pods one controller may expand to (spec.replicas, parallelism, ...): a bound on untrusted
// input; a larger count is an error naming the field.
inline constexpr int64_t kMaxWorkloadPods = 100'000;

// Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, PodTemplate.
bool IsWorkloadKind(const std::string& kind);

// How many more objects the caller's limits let an expansion give: the tighter of `--limit
// records` (objects per import) and `--limit expanded-objects` (objects all workloads expand to).
struct RecordRoom {
  int64_t left = INT64_MAX;
  int64_t limit = INT64_MAX;           // the limit itself, for the message
  std::string limit_name = "records";  // its `--limit` name
};

// The room `limits` leave after `records_used` objects of the import, `expanded_used` of them
// made by expansions.
RecordRoom RoomFor(const InputLimits& limits, int64_t records_used, int64_t expanded_used);

// The objects `workload` stands for, in creation order: for a Deployment its ReplicaSet first,
// then pods; for a StatefulSet each pod's claims before it (JSON, kind set). `nodes`: the cluster's
// nodes (read for DaemonSets only). Errors name `where` and the field. A workload that would give
// more objects than `room` leaves is an error before they are built (a Deployment of 10^5 replicas
// under --limit records=1000 is refused at once, not after its pods).
Result<std::vector<nlohmann::json>> ExpandWorkload(const nlohmann::json& workload,
                                                   const std::string& where,
                                                   const std::vector<k8s::Node>& nodes,
                                                   RecordRoom room = {});

// "Kind/namespace/name" ("default" for an empty namespace), the key ownerReferences are matched by.
std::string WorkloadKey(const std::string& kind, const std::string& ns, const std::string& name);
// The WorkloadKey of the controller of an object (its first ownerReference with controller:
// true), "" when none. For a pod owned by a ReplicaSet "<d>-<hash>" (no '-' in hash) it also
// returns, through `deployment`, the key of the Deployment that ReplicaSet would belong to.
std::string ControllerKey(const k8s::ObjectMeta& meta, std::string* deployment = nullptr);
// The WorkloadKey of `workload` itself.
std::string WorkloadKeyOf(const nlohmann::json& workload);

// Collects what given objects say about workloads that must not be expanded: the controllers
// of given pods (a pod owned by ReplicaSet "<d>-<hash>" also names Deployment <d>) and of given
// ReplicaSets (their Deployment). A workload whose WorkloadKeyOf is in `keys` has its pods (or
// its ReplicaSet) in the input already, and is kept as given. Given claims are kept too: the
// StatefulSet controller creates a claim only when none of that name exists (HasClaim: an
// expanded claim to leave out).
struct GivenOwners {
  std::set<std::string> keys;
  std::set<std::string> claims;  // WorkloadKey("PersistentVolumeClaim", ns, name)
  void AddPod(const k8s::ObjectMeta& pod_meta);
  void AddReplicaSet(const k8s::ObjectMeta& rs_meta);
  void AddClaim(const k8s::ObjectMeta& claim_meta);
  bool Has(const nlohmann::json& workload) const { return keys.count(WorkloadKeyOf(workload)) > 0; }
  bool HasClaim(const nlohmann::json& object) const;
};

// The 5-character suffix of the i-th generated name (upstream: 5 random characters of
// rand.SafeEncodeString's alphabet): i in base 27 over that alphabet, "bbbbb", "bbbbc", ...
std::string GeneratedSuffix(int64_t i);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_WORKLOADS_H_
