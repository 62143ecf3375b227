// Node and pod templates of upstream's scheduler_perf (test/integration/scheduler_perf/config and
// templates of kubernetes v1.27), written as code: the values come from those YAML templates.
// Pure functions; names and labels are given by the caller. Used by the workload generators.
#ifndef SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_
#define SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_

#include <string>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::workloads {

inline constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";
inline constexpr char kHostnameLabel[] = "kubernetes.io/hostname";

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

}  // namespace schedcheck::workloads

#endif  // SCHEDCHECK_HARNESS_WORKLOADS_TEMPLATES_H_
