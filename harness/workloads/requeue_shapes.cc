// Small requeue scenarios for the golden corpus: pods that are unschedulable until one kind of
// cluster event (or the 5-minute flush) and the event that unblocks them. The events start 10 s
// after the last measured pod arrives; their order is shuffled with the seed.
#include <algorithm>
#include <string>
#include <vector>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

constexpr char kDedicated[] = "dedicated";
constexpr char kGate[] = "example.com/hold";
constexpr int64_t kPodsPerPerfNode = 40;  // 4 cpu / 100m

int64_t UnblockStart(const Builder& b) { return b.NextPhaseNs() + 9 * kSec; }

k8s::Pod SsdPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = DefaultPod(ns, name);
  (*pod.mutable_spec()->mutable_node_selector())["disk"] = "ssd";
  return pod;
}

k8s::Pod TaintTolerantPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = DefaultPod(ns, name);
  k8s::Toleration* t = pod.mutable_spec()->add_tolerations();
  t->set_key(kDedicated);
  t->set_operator_("Equal");
  t->set_value("infra");
  t->set_effect("NoSchedule");
  return pod;
}

k8s::Pod GatedPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = DefaultPod(ns, name);
  pod.mutable_spec()->add_scheduling_gates()->set_name(kGate);
  return pod;
}

}  // namespace

// Measured pods need disk=ssd, which no node has; then one ssd node is added every 10 s until
// they all fit (NodeAdd moves the NodeAffinity rejections).
void RequeueNodeAdd(Builder& b) {
  b.AddPerfNodes({});
  b.AddInitialPods("pod-", DefaultPod);
  b.AddMeasuredPods("ssd-pod-", SsdPod);
  const int64_t start = UnblockStart(b);
  const int64_t ssd_nodes =
      std::max<int64_t>(1, (b.params().measured_pods + kPodsPerPerfNode - 1) / kPodsPerPerfNode);
  for (int64_t k = 0; k < ssd_nodes; ++k) {
    k8s::Node node = PerfNode("ssd-node-" + std::to_string(k));
    (*node.mutable_metadata()->mutable_labels())["disk"] = "ssd";
    b.AddNode(start + k * 10 * kSec, trace::ADDED, node);
  }
}

// The initial pods are bound blockers (spec.nodeName, round robin) that together take the cpu
// of every node they are on (every node when initial >= nodes); measured pods do not fit there;
// then the blockers are deleted one per second (AssignedPodDelete moves the NodeResourcesFit
// rejections).
void RequeuePodDelete(Builder& b) {
  b.AddPerfNodes({});
  const int64_t nodes = b.params().nodes, blockers = b.params().initial_pods;
  std::vector<k8s::Pod> placed;
  for (int64_t i = 0; i < blockers; ++i) {
    // Node i % nodes holds this many blockers; together they request its 4 cpu.
    const int64_t on_node = blockers / nodes + (i % nodes < blockers % nodes ? 1 : 0);
    const std::string cpu = std::to_string(4000 / on_node) + "m";
    k8s::Pod pod = DefaultPod(kInitialNs, "blocker-" + std::to_string(i));
    auto* resources = pod.mutable_spec()->mutable_containers(0)->mutable_resources();
    (*resources->mutable_requests())["cpu"] = cpu;
    (*resources->mutable_limits())["cpu"] = cpu;
    pod.mutable_spec()->set_node_name("scheduler-perf-" + std::to_string(i % nodes));
    b.AddPod(0, trace::ADDED, pod);
    placed.push_back(b.last_pod());
  }
  b.AddMeasuredPods("pod-", DefaultPod);
  const int64_t start = UnblockStart(b);
  int64_t k = 0;
  for (int64_t i : b.Shuffled(blockers)) b.AddPod(start + k++ * kSec, trace::DELETED, placed[i]);
}

// Every node is tainted dedicated=infra:NoSchedule (initial pods tolerate it); the taints are
// removed one node per second (NodeTaintChange moves the TaintToleration rejections).
void RequeueTaintRemoval(Builder& b) {
  std::vector<k8s::Node> nodes;
  for (int64_t i = 0; i < b.params().nodes; ++i) {
    k8s::Node node = PerfNode("scheduler-perf-" + std::to_string(i));
    k8s::Taint* taint = node.mutable_spec()->add_taints();
    taint->set_key(kDedicated);
    taint->set_value("infra");
    taint->set_effect("NoSchedule");
    b.AddNode(0, trace::ADDED, node);
    nodes.push_back(node);
  }
  b.AddInitialPods("pod-", TaintTolerantPod);
  b.AddMeasuredPods("pod-", DefaultPod);
  const int64_t start = UnblockStart(b);
  int64_t k = 0;
  for (int64_t i : b.Shuffled(b.params().nodes)) {
    nodes[i].mutable_spec()->clear_taints();
    b.AddNode(start + k++ * kSec, trace::MODIFIED, nodes[i]);
  }
}

// Measured pods carry a scheduling gate; the gates are lifted one pod every 100 ms.
void RequeueGateRemoval(Builder& b) {
  b.AddPerfNodes({});
  b.AddInitialPods("pod-", DefaultPod);
  b.AddMeasuredPods("gated-pod-", GatedPod);
  std::vector<k8s::Pod> gated = b.PodsAdded(kMeasuredNs);
  const int64_t start = UnblockStart(b);
  int64_t k = 0;
  for (int64_t i : b.Shuffled(static_cast<int64_t>(gated.size()))) {
    gated[i].mutable_spec()->clear_scheduling_gates();
    b.AddPod(start + k++ * 100 * kMs, trace::MODIFIED, gated[i]);
  }
}

// With CreationDelay enabled (the shape's configuration), measured pods ask for a 1-10 s delay
// after their creation; the plugin registers no events, so they wait for the leftover flush.
void RequeueMissingRegistration(Builder& b) {
  b.AddPerfNodes({});
  b.AddInitialPods("pod-", DefaultPod);
  std::vector<int64_t> delays;
  for (int64_t i = 0; i < b.params().measured_pods; ++i)
    delays.push_back(1 + static_cast<int64_t>(b.rand().Uniform(10)));
  b.AddMeasuredPods("delayed-pod-", [&delays](const std::string& ns, const std::string& name) {
    k8s::Pod pod = DefaultPod(ns, name);
    const int64_t i = std::stoll(name.substr(name.rfind('-') + 1));
    (*pod.mutable_metadata()->mutable_annotations())["schedcheck.io/creation-delay-seconds"] =
        std::to_string(delays[i]);
    return pod;
  });
}

}  // namespace schedcheck::workloads
