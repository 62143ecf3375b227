// Node and pod templates of upstream's scheduler_perf (test/integration/scheduler_perf/config and
// templates of kubernetes v1.27), written as code: the values come from those YAML templates.
// Pure functions; names and labels are given by the caller. Used by the workload generators.
#ifndef SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_
#define SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_

#include <cstdint>
#include <string>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::workloads {

inline constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";
inline constexpr char kHostnameLabel[] = "kubernetes.io/hostname";
// The CSI driver, in-tree plugin and annotations of upstream's volume shapes.
inline constexpr char kEbsCsiDriver[] = "ebs.csi.aws.com";
inline constexpr char kAwsEbsInTreePlugin[] = "kubernetes.io/aws-ebs";
inline constexpr char kMigratedPluginsAnnotation[] = "storage.alpha.kubernetes.io/migrated-plugins";
inline constexpr char kBindCompletedAnnotation[] = "pv.kubernetes.io/bind-completed";
// The attach limit of the migrated/CSI node preparation (nodeAllocatableStrategy).
inline constexpr int32_t kEbsAttachLimit = 39;

// node-default.yaml: capacity cpu 4, memory 32Gi, pods 110 (allocatable defaults to capacity),
// condition Ready. Deviation: the node also carries kubernetes.io/hostname = name, as a kubelet
// would set it (upstream's perf nodes have no kubelet), so hostname topology terms mean something.
k8s::Node PerfNode(const std::string& name);
// churn/node-default.yaml: capacity pods 0 (nothing fits), condition Ready.
k8s::Node ChurnNode(const std::string& name);

// The pod templates. Every pod has one container "pause" with containerPort 80.
// pod-default.yaml: requests = limits = 100m / 500Mi.
k8s::Pod DefaultPod(const std::string& ns, const std::string& name);
// pod-with-node-affinity.yaml: required node affinity zone In [zone1, zone2].
k8s::Pod NodeAffinityPod(const std::string& ns, const std::string& name);
// pod-with-pod-affinity.yaml: label color=blue; required pod affinity to color=blue on the zone
// key, namespaces [sched-1, sched-0].
k8s::Pod PodAffinityPod(const std::string& ns, const std::string& name);
// pod-with-pod-anti-affinity.yaml: label color=green; required anti-affinity to color=green on
// the hostname key, namespaces [sched-1, sched-0].
k8s::Pod PodAntiAffinityPod(const std::string& ns, const std::string& name);
// pod-with-topology-spreading.yaml: label color=blue; maxSkew 5 on the zone key, DoNotSchedule.
// With `preferred`, whenUnsatisfiable ScheduleAnyway (pod-with-preferred-topology-spreading).
k8s::Pod TopologySpreadingPod(const std::string& ns, const std::string& name, bool preferred);
// pod-low-priority.yaml: 900m / 500Mi, terminationGracePeriodSeconds 0, no priority.
k8s::Pod LowPriorityPod(const std::string& ns, const std::string& name);
// pod-high-priority.yaml: priority 10, 3000m / 500Mi.
k8s::Pod HighPriorityPod(const std::string& ns, const std::string& name);
// pod-high-priority-large-cpu.yaml: priority 10, requests 9 cpu / 500Mi (fits no perf node).
k8s::Pod LargeCpuPod(const std::string& ns, const std::string& name);

// The volume shapes (SchedulingInTreePVs, SchedulingMigratedInTreePVs, SchedulingCSIPVs).
// makeBasePod (testutils.MakePodSpec: pause:3.9, requests = limits = 100m / 500Mi) with the one
// volume testutils.CreatePodWithPersistentVolume gives it: "vol", from the claim `claim`.
k8s::Pod ClaimPod(const std::string& ns, const std::string& name, const std::string& claim);
// pvc.yaml: annotation pv.kubernetes.io/bind-completed "true", accessModes [ReadOnlyMany],
// requests storage 1Gi. Unbound: the caller binds it.
k8s::PersistentVolumeClaim PerfClaim(const std::string& ns, const std::string& name);
// pv-aws.yaml: accessModes [ReadOnlyMany], capacity storage 1Gi, reclaim policy Retain, an
// awsElasticBlockStore volume with volumeID `volume_id`. Unbound: the caller binds it.
k8s::PersistentVolume AwsEbsVolume(const std::string& name, const std::string& volume_id);
// pv-csi.yaml: as AwsEbsVolume, but a CSI volume of driver ebs.csi.aws.com with volumeHandle
// `volume_handle`.
k8s::PersistentVolume CsiVolume(const std::string& name, const std::string& volume_handle);
// node-default.yaml after upstream's NodeAllocatableStrategy patched it: allocatable = capacity
// (the API server's default) plus attachable-volumes-csi-ebs.csi.aws.com "39".
k8s::Node AttachLimitNode(const std::string& name);
// The CSINode NodeAllocatableStrategy creates for node `node`: annotation
// storage.alpha.kubernetes.io/migrated-plugins = `migrated_plugins` (comma-separated; "" when
// none, as upstream writes it), one driver ebs.csi.aws.com with nodeID = the node and allocatable
// count 39.
k8s::CSINode PerfCSINode(const std::string& node, const std::string& migrated_plugins);

}  // namespace schedcheck::workloads

#endif  // SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_
