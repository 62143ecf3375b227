// The scheduler_perf shapes (performance-config.yaml of kubernetes v1.27), one function each.
#include <string>
#include <vector>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

const std::vector<std::string> kOneZone = {"zone1"};
const std::vector<std::string> kMoonZones = {"moon-1", "moon-2", "moon-3"};

// Nodes, initial pods and measured pods from one template (most shapes).
void Simple(Builder& b, const std::vector<std::string>& zones, std::string_view prefix,
            const PodMaker& make) {
  b.AddPerfNodes(zones);
  b.AddInitialPods(prefix, make);
  b.AddMeasuredPods(prefix, make);
}

}  // namespace

void SchedulingBasic(Builder& b) { Simple(b, {}, "pod-", DefaultPod); }

void SchedulingNodeAffinity(Builder& b) { Simple(b, kOneZone, "node-affinity-", NodeAffinityPod); }

void SchedulingPodAntiAffinity(Builder& b) {
  Simple(b, {}, "anti-affinity-pod-", PodAntiAffinityPod);
}

void SchedulingPodAffinity(Builder& b) { Simple(b, kOneZone, "affinity-pod-", PodAffinityPod); }

void TopologySpreading(Builder& b) {
  b.AddPerfNodes(kMoonZones);
  b.AddInitialPods("pod-", DefaultPod);
  b.AddMeasuredPods("spreading-pod-", [](const std::string& ns, const std::string& name) {
    return TopologySpreadingPod(ns, name, /*preferred=*/false);
  });
}

void PreferredTopologySpreading(Builder& b) {
  b.AddPerfNodes(kMoonZones);
  b.AddInitialPods("pod-", DefaultPod);
  b.AddMeasuredPods("preferred-spreading-pod-", [](const std::string& ns, const std::string& name) {
    return TopologySpreadingPod(ns, name, /*preferred=*/true);
  });
}

// Initial pods are the large unschedulable ones, every 200 ms from t = 1 s (upstream's churn in
// create mode); the churn goes on every 200 ms while the measured pod-default pods arrive.
void Unschedulable(Builder& b) {
  b.AddPerfNodes({});
  int64_t k = 0;
  for (; k < b.params().initial_pods; ++k) {
    b.AddPod(kSec + k * 200 * kMs, trace::ADDED,
             LargeCpuPod(kInitialNs, "pod-h-" + std::to_string(k)));
  }
  const int64_t start = b.NextPhaseNs();
  const int64_t end = b.AddMeasuredPods("pod-", DefaultPod);
  for (int64_t t = start; t <= end; t += 200 * kMs, ++k) {
    b.AddPod(t, trace::ADDED, LargeCpuPod(kInitialNs, "pod-h-" + std::to_string(k)));
  }
}

// Every second from t = 1 s until the last measured pod arrives, the previous churn node and
// churn pod are deleted and new ones created (upstream's churn in recreate mode with
// churn/node-default.yaml and pod-high-priority-large-cpu.yaml; Services are not modelled).
void MixedChurn(Builder& b) {
  b.AddPerfNodes({});
  b.AddInitialPods("pod-", DefaultPod);
  const int64_t end = b.AddMeasuredPods("pod-", DefaultPod);
  k8s::Node previous_node;
  k8s::Pod previous_pod;
  for (int64_t k = 0, t = kSec; t <= end; ++k, t += kSec) {
    if (k > 0) {
      b.AddNode(t, trace::DELETED, previous_node);
      b.AddPod(t, trace::DELETED, previous_pod);
    }
    previous_node = ChurnNode("node-churn-" + std::to_string(k));
    // The DELETED event carries the object as last seen: the ADDED one.
    previous_pod = LargeCpuPod(kInitialNs, "pod-churn-" + std::to_string(k));
    previous_pod.mutable_metadata()->set_creation_timestamp(b.CreationTimestamp(t));
    b.AddNode(t, trace::ADDED, previous_node);
    b.AddPod(t, trace::ADDED, previous_pod);
  }
}

void PreemptionBasic(Builder& b) {
  b.AddPerfNodes({});
  b.AddInitialPods("pod-", LowPriorityPod);
  b.AddMeasuredPods("pod-", HighPriorityPod);
}

}  // namespace schedcheck::workloads
