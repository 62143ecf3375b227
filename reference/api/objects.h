// Pod and Node as the reference scheduler holds them: the Kubernetes object
// (reference/k8s/k8s.proto) plus values derived once when the object enters the scheduler (parsed
// quantities, effective requests, host ports, priority). Immutable after construction and shared by
// pointer.
#ifndef SCHEDCHECK_REFERENCE_API_OBJECTS_H_
#define SCHEDCHECK_REFERENCE_API_OBJECTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/api/label_ids.h"
#include "reference/api/pod_requests.h"
#include "reference/api/resource.h"
#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// Defaults kube-scheduler assumes for scoring when a container names no cpu / memory request
// (pkg/scheduler/util: DefaultMilliCPURequest, DefaultMemoryRequest = 200 MiB).
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";

struct HostPort {
  std::string host_ip;   // "" is normalised to "0.0.0.0"
  std::string protocol;  // "" is normalised to "TCP"
  int32_t port = 0;
  bool operator==(const HostPort&) const = default;
};

struct Pod {
  // metadata.labels and metadata.namespace interned (label_ids.h), for the fast engine's selector
  // matching; the plain rules never read them. First, so that matching a selector reads the
  // pod's first cache lines only.
  LabelIds label_ids;
  LabelId namespace_id = kNoLabel;
  k8s::Pod obj;
  std::string key;  // "namespace/name"
  int32_t priority = 0;
  // Effective requests (docs/SEMANTICS.md#resource-accounting): max(sum of containers, max of
  // init containers) + overhead, per resource.
  Resource requests;
  // Scoring view (non-zero requests, docs/SEMANTICS.md#resource-accounting): cpu / memory with
  // per-container defaults for missing entries.
  int64_t non_zero_milli_cpu = 0;
  int64_t non_zero_memory = 0;
  // What NodeResourcesFit's PreFilter asks a node for. At v1.27 equal to `requests`; at v1.37 the
  // spec alone (no resize status), where `requests` is what an assigned pod occupies.
  Resource spec_requests;
  // The non-zero cpu / memory the resource scorers use for the pod itself. At v1.27 equal to
  // non_zero_*; at v1.37 every container without a cpu / memory request gets the default before
  // pod-level requests apply, where non_zero_* defaults only what the whole pod leaves unset.
  int64_t score_non_zero_milli_cpu = 0;
  int64_t score_non_zero_memory = 0;
  // v1.27: every containers[*].ports entry (including hostPort 0; users filter). v1.37
  // (GetHostPorts): the entries with a hostPort, of sidecar init containers then containers.
  std::vector<HostPort> container_ports;

  const std::string& name() const { return obj.metadata().name(); }
  const std::string& ns() const { return obj.metadata().namespace_(); }
  const std::string& uid() const { return obj.metadata().uid(); }
  const std::string& node_name() const { return obj.spec().node_name(); }
  const google::protobuf::Map<std::string, std::string>& labels() const {
    return obj.metadata().labels();
  }
  bool terminating() const { return !obj.metadata().deletion_timestamp().empty(); }
  bool HasAffinity() const {
    return obj.spec().has_affinity() && (obj.spec().affinity().has_pod_affinity() ||
                                         obj.spec().affinity().has_pod_anti_affinity());
  }
  bool HasRequiredAntiAffinity() const {
    return obj.spec().has_affinity() && obj.spec().affinity().has_pod_anti_affinity() &&
           obj.spec()
                   .affinity()
                   .pod_anti_affinity()
                   .required_during_scheduling_ignored_during_execution_size() > 0;
  }
  const std::string& scheduler_name() const { return obj.spec().scheduler_name(); }
};
using PodPtr = std::shared_ptr<const Pod>;

struct Node {
  // metadata.labels interned (label_ids.h), for the fast engine's topology lookups by integer
  // key; the plain rules never read them. First, so that a lookup reads the node's first cache
  // line only.
  LabelIds label_ids;
  k8s::Node obj;
  Resource allocatable;

  const std::string& name() const { return obj.metadata().name(); }
  const google::protobuf::Map<std::string, std::string>& labels() const {
    return obj.metadata().labels();
  }
};
using NodePtr = std::shared_ptr<const Node>;

// Builds the scheduler's view of a pod under the run's `features` (which rules compute its
// requests and host ports: with SidecarContainers, component-helpers' PodRequests, which also
// follows PodLevelResources and InPlacePodLevelResourcesVerticalScaling; without, v1.27's sums).
// Fills defaults the API server would have set (namespace "default", uid = "namespace/name" when
// absent, schedulerName "default-scheduler"). Errors name the field:
// "spec.containers[1].resources.requests.cpu: invalid quantity \"x\": ...".
Result<PodPtr> BuildPod(k8s::Pod obj, const Features& features);
Result<NodePtr> BuildNode(k8s::Node obj);

// One ResourceList entry in the unit the scheduler reads (quantity.h), refused when negative as
// the API server refuses it; errors read "`field`.`name`: ...".
Result<int64_t> ParseResourceEntry(const std::string& name, const std::string& text,
                                   const std::string& field);

// Parses a ResourceList (resource name -> quantity) into a Resource; `field` prefixes errors.
Result<Resource> ParseResourceList(const google::protobuf::Map<std::string, std::string>& list,
                                   const std::string& field);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_OBJECTS_H_
