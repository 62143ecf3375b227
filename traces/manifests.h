// Kubernetes manifests (YAML multi-document or JSON files, folders of them, `List` objects) read
// into typed objects. Used by `schedcheck explain` and the `manifests` importer.
#ifndef SCHEDCHECK_TRACES_MANIFESTS_H_
#define SCHEDCHECK_TRACES_MANIFESTS_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"
#include "traces/input_limits.h"

namespace schedcheck::trace {

struct Manifests {
  std::vector<k8s::Node> nodes;
  std::vector<k8s::Pod> pods;
  std::vector<k8s::Namespace> namespaces;
  std::vector<k8s::PriorityClass> priority_classes;
  std::vector<k8s::PodDisruptionBudget> pdbs;
  std::vector<k8s::Service> services;
  std::vector<k8s::ReplicationController> replication_controllers;
  std::vector<k8s::ReplicaSet> replica_sets;
  std::vector<k8s::StatefulSet> stateful_sets;
  // The storage kinds the volume plugins read (a StatefulSet's claim templates add claims).
  std::vector<k8s::PersistentVolume> persistent_volumes;
  std::vector<k8s::PersistentVolumeClaim> persistent_volume_claims;
  std::vector<k8s::StorageClass> storage_classes;
  std::vector<k8s::CSINode> csi_nodes;
  std::vector<k8s::CSIDriver> csi_drivers;
  std::vector<k8s::CSIStorageCapacity> csi_storage_capacities;
  int skipped = 0;  // objects of other kinds (Secrets, ConfigMaps, ...), ignored
  // Where each node and pod came from, parallel to `nodes` and `pods` ("c.yaml: line 6", an
  // expanded pod's workload), for errors found after loading (a node given twice, a bad quantity).
  std::vector<std::string> node_sources, pod_sources;
};

// Reads files and folders (recursively, in name order; .yaml .yml .json .jsonl). Objects are
// dispatched on `kind`; `List` / `*List` objects contribute their items. Workloads (Deployments,
// ReplicaSets, StatefulSets, DaemonSets, Jobs, ReplicationControllers, PodTemplates) become the
// pods their controllers would create (traces/importers/workloads.h), after all pods, unless
// pods of theirs are given; a Deployment's ReplicaSet joins replica_sets. Errors name the file,
// the document's line and the field. `limits` (`explain --limit`): records bounds the objects
// decoded in all (expanded pods included), the byte and entry limits each of them, the YAML limits
// every YAML file.
Result<Manifests> LoadManifests(const std::vector<std::string>& paths,
                                const InputLimits& limits = {});

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_MANIFESTS_H_
