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
#include <algorithm>
#include <string>
#include <vector>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

constexpr int64_t kDaySec = 24 * 3600;
constexpr char kRevisionLabel[] = "schedcheck.io/revision";

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

}  // namespace

void DayChurn(Builder& b) {
  b.AddPerfNodes({"zone-a", "zone-b", "zone-c"});
  const std::vector<k8s::Node> nodes = b.NodesAdded();
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

  const int64_t pods = b.params().measured_pods;
  for (int64_t i = 0; i < pods; ++i) {
    const int64_t created = 2 + i * (kDaySec - 2) / std::max<int64_t>(pods, 1);
    k8s::Pod pod = DefaultPod(kMeasuredNs, "pod-" + std::to_string(i));
    if (b.rand().Uniform(5) == 0) SetRequests(&pod, "1", "2Gi");
    b.AddPod(created * kSec, trace::ADDED, pod);
    const int64_t deleted = created + 300 + static_cast<int64_t>(b.rand().Uniform(3 * 3600));
    if (deleted < kDaySec) b.AddPod(deleted * kSec, trace::DELETED, b.last_pod());
  }
  for (int64_t hour = 0; hour < 24; ++hour) {
    k8s::Pod big = DefaultPod(kMeasuredNs, "big-" + std::to_string(hour));
    SetRequests(&big, "8", "1Gi");
    const int64_t created = hour * 3600 + 1800;
    b.AddPod(created * kSec, trace::ADDED, big);
    b.AddPod((created + 600) * kSec, trace::DELETED, b.last_pod());
  }
}

}  // namespace schedcheck::workloads
