// Internal to harness/workloads: accumulates the API events of one workload and lays out the
// timeline described in workloads.h. Events may be added in any order; Finish() sorts them by
// time, keeping the order of addition among events at the same instant.
#ifndef SCHEDCHECK_HARNESS_WORKLOADS_BUILDER_H_
#define SCHEDCHECK_HARNESS_WORKLOADS_BUILDER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/workloads/workloads.h"
#include "reference/base/rand.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::workloads {

inline constexpr int64_t kMs = 1'000'000;
inline constexpr int64_t kSec = 1'000'000'000;
inline constexpr char kInitialNs[] = "sched-0";
inline constexpr char kMeasuredNs[] = "sched-1";

// Makes the pod named `name` in namespace `ns` from a template.
using PodMaker = std::function<k8s::Pod(const std::string& ns, const std::string& name)>;
// Adds, at t_ns, the objects the i-th pod of a phase (in namespace `ns`) needs before it is
// created, such as its claim and volume; called just before that pod is added.
using PodDependents = std::function<void(int64_t t_ns, const std::string& ns, int64_t i)>;
// Prepares a perf node before it is added (upstream's PrepareNodeStrategy patching the node).
using NodePreparer = std::function<void(k8s::Node& node)>;

class Builder {
 public:
  Builder(std::string_view shape, const WorkloadParams& params);

  const WorkloadParams& params() const { return params_; }
  // The trace header's compatibility level (default: the trace format's, 1.27), for shapes only
  // a later level reads (the DRA shapes: "1.37").
  void SetCompat(const std::string& compat) { workload_.trace.header.set_compat(compat); }
  Rand& rand() { return rand_; }
  // The latest event time so far.
  int64_t last_ns() const { return last_ns_; }
  // The first whole second at least 1 s after every event so far.
  int64_t NextPhaseNs() const { return (last_ns_ / kSec + 2) * kSec; }

  // RFC 3339 of the instant t_ns, in whole seconds (as the API server stamps creationTimestamp).
  std::string CreationTimestamp(int64_t t_ns) const;

  void AddNode(int64_t t_ns, trace::EventType type, const k8s::Node& node);
  // ADDED pods get metadata.creationTimestamp (whole seconds) unless they already have one.
  void AddPod(int64_t t_ns, trace::EventType type, k8s::Pod pod);
  // Storage objects, read by the volume plugins.
  void AddPersistentVolume(int64_t t_ns, trace::EventType type, const k8s::PersistentVolume& pv);
  void AddPersistentVolumeClaim(int64_t t_ns, trace::EventType type,
                                const k8s::PersistentVolumeClaim& pvc);
  void AddCSINode(int64_t t_ns, trace::EventType type, const k8s::CSINode& csi_node);
  // DRA objects (resource.k8s.io/v1), read by DynamicResources at compat 1.37.
  void AddResourceSlice(int64_t t_ns, const k8s::ResourceSlice& slice);
  void AddDeviceClass(int64_t t_ns, const k8s::DeviceClass& device_class);
  void AddResourceClaimTemplate(int64_t t_ns, const k8s::ResourceClaimTemplate& claim_template);
  void AddResourceClaim(int64_t t_ns, const k8s::ResourceClaim& claim);

  // Namespaces sched-0 and sched-1, then params().nodes perf nodes "scheduler-perf-<i>" at t = 0;
  // with `zones`, each node gets a zone label drawn from them (upstream's
  // labelNodePrepareStrategy picks one at random per node). `prepare`, when set, is applied to
  // each node (after its zone label) before it is added.
  void AddPerfNodes(const std::vector<std::string>& zones, const NodePreparer& prepare = nullptr);
  // params().initial_pods pods "<prefix><i>" in sched-0 at 1 s + i ms; `dependents`, when set,
  // adds each pod's objects at its instant, before it.
  void AddInitialPods(std::string_view prefix, const PodMaker& make,
                      const PodDependents& dependents = nullptr);
  // params().measured_pods pods "<prefix><i>" in sched-1 from NextPhaseNs(), 1 ms apart; records
  // them as the measured pods. Returns the arrival of the last one (or the start when none).
  // `dependents` as for AddInitialPods.
  int64_t AddMeasuredPods(std::string_view prefix, const PodMaker& make,
                          const PodDependents& dependents = nullptr);
  // The pod of the last event added. REQUIRES: the last event added a pod.
  const k8s::Pod& last_pod() const { return workload_.trace.records.back().api().pod(); }
  // Every pod ADDED so far in namespace `ns`, as added, in order of addition.
  std::vector<k8s::Pod> PodsAdded(std::string_view ns) const;
  // Every node ADDED so far, in order of addition.
  std::vector<k8s::Node> NodesAdded() const;
  // Returns a shuffled 0..n-1 (Fisher-Yates on the builder's generator).
  std::vector<int64_t> Shuffled(int64_t n);

  Workload Finish();

 private:
  // Appends a record at t_ns of the given type; the caller sets its object.
  trace::ApiEvent* AddEvent(int64_t t_ns, trace::EventType type);

  std::string shape_;
  WorkloadParams params_;
  Rand rand_;
  int64_t epoch_ns_ = 0;
  int64_t last_ns_ = 0;
  Workload workload_;
};

// The shapes, by their names in workloads.h (perf_shapes.cc and requeue_shapes.cc).
void SchedulingBasic(Builder& b);
void SchedulingNodeAffinity(Builder& b);
void SchedulingPodAntiAffinity(Builder& b);
void SchedulingPodAffinity(Builder& b);
void TopologySpreading(Builder& b);
void PreferredTopologySpreading(Builder& b);
void Unschedulable(Builder& b);
void MixedChurn(Builder& b);
void PreemptionBasic(Builder& b);
void SchedulingInTreePVs(Builder& b);          // storage_shapes.cc
void SchedulingMigratedInTreePVs(Builder& b);  // storage_shapes.cc
void SchedulingCSIPVs(Builder& b);             // storage_shapes.cc
void RequeueNodeAdd(Builder& b);
void RequeuePodDelete(Builder& b);
void RequeueTaintRemoval(Builder& b);
void RequeueGateRemoval(Builder& b);
void RequeueMissingRegistration(Builder& b);
void DayChurn(Builder& b);          // day_churn.cc
void DayChurnLarge(Builder& b);     // day_churn.cc
void DraClaimTemplate(Builder& b);  // dra_shapes.cc
void DraManyDevices(Builder& b);    // dra_shapes.cc
void DraPartitionable(Builder& b);  // dra_shapes.cc

}  // namespace schedcheck::workloads

#endif  // SCHEDCHECK_HARNESS_WORKLOADS_BUILDER_H_
