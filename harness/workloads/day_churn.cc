// DayChurn: a day of a large cluster's API activity, the scale of a real capture, so that the
// capture pipeline is measured at the size users bring. Whole-second times throughout, as a
// capture's timestamps have.
//   - params().nodes perf nodes in zones zone-a..c at t = 0;
//   - params().measured_pods pods spread evenly over 24 h (from t = 2 s), each deleted after a
//     lifetime of 5 min + uniform [0, 3 h) if that falls within the day; one in five asks for
//     1 cpu / 2Gi instead of pod-default's 100m / 500Mi;
//   - one 8-cpu pod per hour that fits no node, deleted 10 minutes later (FailedScheduling
//     events, retried at every node update);
//   - every node's label schedcheck.io/revision bumped every params().initial_pods seconds
//     (default 780: 13 min, about 110 updates per node per day), nodes phased evenly;
//   - 1% of the nodes cordoned at 18:00 and uncordoned at 20:00.
//
// DayChurnLarge: the same day on a cluster shaped like a large managed one (the 100,000-node
// capture-scale bench). Deterministic per node index, so a node's shape does not depend on how many
// nodes there are:
//   - racks of 40 nodes (label topology.schedcheck.io/rack), racks spread round-robin over five
//     zones zone-a..zone-e;
//   - sizes: half 8 cpu / 32Gi, 30% 16 cpu / 64Gi, 15% 32 cpu / 128Gi, and 5% GPU nodes of
//     32 cpu / 256Gi with nvidia.com/gpu: 8 and the taint nvidia.com/gpu=present:NoSchedule;
//   - a tenth of the other nodes tainted dedicated=batch:NoSchedule;
//   - pods as in DayChurn, but: 60% 100m / 500Mi, 20% 1 cpu / 2Gi, 5% 4 cpu / 16Gi, 10% batch
//     pods (1 cpu / 2Gi, tolerating dedicated=batch), 5% GPU pods (4 cpu / 16Gi and one
//     nvidia.com/gpu, tolerating the GPU taint); the hourly unschedulable pod asks for 64 cpu;
//   - node updates every params().initial_pods seconds (default 7200: 12 a node a day) and the
//     same cordons.
#include <algorithm>
#include <string>
#include <vector>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

constexpr int64_t kDaySec = 24 * 3600;
constexpr char kRevisionLabel[] = "schedcheck.io/revision";
constexpr char kRackLabel[] = "topology.schedcheck.io/rack";
constexpr char kGpu[] = "nvidia.com/gpu";
constexpr int64_t kNodesPerRack = 40;

void SetRequests(k8s::Pod* pod, const std::string& cpu, const std::string& memory) {
  for (k8s::Container& c : *pod->mutable_spec()->mutable_containers()) {
    auto* requests = c.mutable_resources()->mutable_requests();
    auto* limits = c.mutable_resources()->mutable_limits();
    (*requests)["cpu"] = (*limits)["cpu"] = cpu;
    (*requests)["memory"] = (*limits)["memory"] = memory;
  }
}

k8s::Node Revised(const k8s::Node& node, int64_t revision, bool cordoned) {
  k8s::Node n = node;
  (*n.mutable_metadata()->mutable_labels())[kRevisionLabel] = std::to_string(revision);
  n.mutable_spec()->set_unschedulable(cordoned);
  return n;
}

void SetGpus(k8s::Pod* pod, int64_t gpus) {
  for (k8s::Container& c : *pod->mutable_spec()->mutable_containers()) {
    auto* requests = c.mutable_resources()->mutable_requests();
    (*requests)[kGpu] = (*c.mutable_resources()->mutable_limits())[kGpu] = std::to_string(gpus);
  }
}

void AddTaint(k8s::Node* node, const std::string& key, const std::string& value) {
  k8s::Taint* t = node->mutable_spec()->add_taints();
  t->set_key(key);
  t->set_value(value);
  t->set_effect("NoSchedule");
}

void AddToleration(k8s::Pod* pod, const std::string& key, const std::string& value) {
  k8s::Toleration* t = pod->mutable_spec()->add_tolerations();
  t->set_key(key);
  t->set_operator_("Equal");
  t->set_value(value);
  t->set_effect("NoSchedule");
}

// The i-th node of DayChurnLarge: rack, zone, size, GPUs and taints from i alone (see the top).
void ShapeLargeNode(int64_t i, k8s::Node* node) {
  static const char* const kZones[] = {"zone-a", "zone-b", "zone-c", "zone-d", "zone-e"};
  const int64_t rack = i / kNodesPerRack;
  auto& labels = *node->mutable_metadata()->mutable_labels();
  labels[kZoneLabel] = kZones[rack % 5];
  labels[kRackLabel] = "rack-" + std::to_string(rack);
  auto& capacity = *node->mutable_status()->mutable_capacity();
  const int64_t kind = (i * 7919) % 100;  // a fixed spread of the sizes over the racks
  if (kind < 5) {
    capacity["cpu"] = "32";
    capacity["memory"] = "256Gi";
    capacity[kGpu] = "8";
    labels["schedcheck.io/accelerator"] = "gpu";
    AddTaint(node, kGpu, "present");
    return;
  }
  capacity["cpu"] = kind < 55 ? "8" : kind < 85 ? "16" : "32";
  capacity["memory"] = kind < 55 ? "32Gi" : kind < 85 ? "64Gi" : "128Gi";
  if (kind % 10 == 9) AddTaint(node, "dedicated", "batch");
}

// Node label updates every params().initial_pods seconds, phased evenly; 1% cordoned 18:00-20:00.
void AddNodeUpdates(Builder& b, const std::vector<k8s::Node>& nodes) {
  const auto n = static_cast<int64_t>(nodes.size());
  const int64_t period = std::max<int64_t>(b.params().initial_pods, 1);
  const int64_t cordoned = n / 100;
  for (int64_t i = 0; i < n; ++i) {
    int64_t revision = 0;
    for (int64_t t = 1 + i * period / n; t < kDaySec; t += period) {
      const bool cordon = i < cordoned && t >= 18 * 3600 && t < 20 * 3600;
      b.AddNode(t * kSec, trace::MODIFIED, Revised(nodes[i], ++revision, cordon));
    }
  }
}

// One pod an hour that fits no node, deleted 10 minutes later.
void AddHourlyUnschedulable(Builder& b, const std::string& cpu) {
  for (int64_t hour = 0; hour < 24; ++hour) {
    k8s::Pod big = DefaultPod(kMeasuredNs, "big-" + std::to_string(hour));
    SetRequests(&big, cpu, "1Gi");
    const int64_t created = hour * 3600 + 1800;
    b.AddPod(created * kSec, trace::ADDED, big);
    b.AddPod((created + 600) * kSec, trace::DELETED, b.last_pod());
  }
}

}  // namespace

void DayChurnLarge(Builder& b) {
  int64_t index = 0;
  b.AddPerfNodes({}, [&index](k8s::Node& node) { ShapeLargeNode(index++, &node); });
  AddNodeUpdates(b, b.NodesAdded());
  const int64_t pods = b.params().measured_pods;
  for (int64_t i = 0; i < pods; ++i) {
    const int64_t created = 2 + i * (kDaySec - 2) / std::max<int64_t>(pods, 1);
    k8s::Pod pod = DefaultPod(kMeasuredNs, "pod-" + std::to_string(i));
    const uint64_t kind = b.rand().Uniform(100);
    if (kind < 60) {
      // pod-default's 100m / 500Mi
    } else if (kind < 80) {
      SetRequests(&pod, "1", "2Gi");
    } else if (kind < 85) {
      SetRequests(&pod, "4", "16Gi");
    } else if (kind < 95) {
      SetRequests(&pod, "1", "2Gi");
      AddToleration(&pod, "dedicated", "batch");
    } else {
      SetRequests(&pod, "4", "16Gi");
      SetGpus(&pod, 1);
      AddToleration(&pod, kGpu, "present");
    }
    b.AddPod(created * kSec, trace::ADDED, pod);
    const int64_t deleted = created + 300 + static_cast<int64_t>(b.rand().Uniform(3 * 3600));
    if (deleted < kDaySec) b.AddPod(deleted * kSec, trace::DELETED, b.last_pod());
  }
  AddHourlyUnschedulable(b, "64");
}

void DayChurn(Builder& b) {
  b.AddPerfNodes({"zone-a", "zone-b", "zone-c"});
  AddNodeUpdates(b, b.NodesAdded());
  const int64_t pods = b.params().measured_pods;
  for (int64_t i = 0; i < pods; ++i) {
    const int64_t created = 2 + i * (kDaySec - 2) / std::max<int64_t>(pods, 1);
    k8s::Pod pod = DefaultPod(kMeasuredNs, "pod-" + std::to_string(i));
    if (b.rand().Uniform(5) == 0) SetRequests(&pod, "1", "2Gi");
    b.AddPod(created * kSec, trace::ADDED, pod);
    const int64_t deleted = created + 300 + static_cast<int64_t>(b.rand().Uniform(3 * 3600));
    if (deleted < kDaySec) b.AddPod(deleted * kSec, trace::DELETED, b.last_pod());
  }
  AddHourlyUnschedulable(b, "8");
}

}  // namespace schedcheck::workloads
