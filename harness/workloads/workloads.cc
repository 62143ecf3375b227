#include "harness/workloads/workloads.h"

#include <algorithm>
#include <utility>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"
#include "reference/api/rfc3339.h"

namespace schedcheck::workloads {
namespace {

constexpr char kCreationDelayConfig[] =
    "# The default profile plus the example CreationDelay plugin, whose empty event registration\n"
    "# makes a rejected pod wait for the 5-minute unschedulable flush.\n"
    "apiVersion: kubescheduler.config.k8s.io/v1\n"
    "kind: KubeSchedulerConfiguration\n"
    "profiles:\n"
    "- schedulerName: default-scheduler\n"
    "  plugins:\n"
    "    preFilter:\n"
    "      enabled:\n"
    "      - name: CreationDelay\n";

struct Entry {
  ShapeInfo info;
  void (*build)(Builder&);
};

const std::vector<Entry>& Entries() {
  static const auto* entries = new std::vector<Entry>{
      {{"SchedulingBasic", "pod-default pods", {5000, 1000, 10000}, true, ""}, &SchedulingBasic},
      {{"SchedulingNodeAffinity",
        "required node affinity to zone1/zone2; nodes in zone1",
        {5000, 5000, 10000},
        true,
        ""},
       &SchedulingNodeAffinity},
      {{"SchedulingPodAntiAffinity",
        "required pod anti-affinity on hostname (color=green)",
        {5000, 1000, 2000},
        true,
        ""},
       &SchedulingPodAntiAffinity},
      {{"SchedulingPodAffinity",
        "required pod affinity on zone (color=blue); nodes in zone1",
        {5000, 5000, 5000},
        true,
        ""},
       &SchedulingPodAffinity},
      {{"TopologySpreading",
        "maxSkew 5 across zones moon-1..3, DoNotSchedule",
        {5000, 5000, 5000},
        true,
        ""},
       &TopologySpreading},
      {{"PreferredTopologySpreading",
        "maxSkew 5 across zones moon-1..3, ScheduleAnyway",
        {5000, 5000, 5000},
        true,
        ""},
       &PreferredTopologySpreading},
      {{"Unschedulable",
        "a 9-cpu priority-10 pod every 200 ms (initial ones before) among pod-default pods",
        {5000, 200, 5000},
        true,
        ""},
       &Unschedulable},
      {{"MixedChurn",
        "every 1 s a churn node and a 9-cpu pod are recreated among pod-default pods",
        {5000, 0, 2000},
        true,
        ""},
       &MixedChurn},
      {{"PreemptionBasic",
        "900m low-priority pods, then 3000m priority-10 pods that preempt",
        {1000, 4000, 1000},
        true,
        ""},
       &PreemptionBasic},
      {{"SchedulingInTreePVs",
        "pods each with a claim bound to its own in-tree AWS EBS volume",
        {5000, 5000, 1000},
        true,
        ""},
       &SchedulingInTreePVs},
      {{"SchedulingMigratedInTreePVs",
        "SchedulingInTreePVs on nodes whose CSINode has aws-ebs migrated to ebs.csi.aws.com "
        "(attach limit 39)",
        {5000, 5000, 1000},
        true,
        ""},
       &SchedulingMigratedInTreePVs},
      {{"SchedulingCSIPVs",
        "pods each with a claim bound to its own ebs.csi.aws.com volume; CSINode attach limit 39",
        {5000, 5000, 1000},
        true,
        ""},
       &SchedulingCSIPVs},
      {{"RequeueNodeAdd",
        "pods needing disk=ssd wait until ssd nodes are added (NodeAdd)",
        {3, 3, 6},
        false,
        ""},
       &RequeueNodeAdd},
      {{"RequeuePodDelete",
        "bound blockers fill the nodes; pods wait until they are deleted",
        {3, 3, 6},
        false,
        ""},
       &RequeuePodDelete},
      {{"RequeueTaintRemoval",
        "tainted nodes; pods wait until the taints are removed",
        {3, 3, 6},
        false,
        ""},
       &RequeueTaintRemoval},
      {{"RequeueGateRemoval",
        "gated pods wait until their scheduling gates are lifted",
        {3, 3, 6},
        false,
        ""},
       &RequeueGateRemoval},
      {{"RequeueMissingRegistration",
        "CreationDelay registers no events: its pods wait for the 5-minute flush (needs the "
        "config)",
        {3, 3, 6},
        false,
        kCreationDelayConfig},
       &RequeueMissingRegistration},
      {{"DayChurn",
        "24 h of a cluster: pods arriving and leaving all day, node label updates every 13 min, "
        "cordons "
        "(initial = seconds between a node's updates)",
        {5000, 780, 150000},
        false,
        ""},
       &DayChurn},
      {{"DayChurnLarge",
        "DayChurn on a large managed cluster's shape: zones, racks, four node sizes, 5% GPU "
        "nodes, tainted nodes with tolerating pods (initial = seconds between a node's updates)",
        {100000, 7200, 1000000},
        false,
        ""},
       &DayChurnLarge},
      // scheduler_perf's DRA shapes at v1.37.2 (dra_shapes.cc): compat 1.37 only.
      {{"DraClaimTemplate",
        "DRA SchedulingWithResourceClaimTemplate: 10 devices per node, pods each with a claim "
        "from a template (compat 1.37)",
        {500, 2500, 2500},
        false,
        ""},
       &DraClaimTemplate},
      {{"DraManyDevices",
        "DraClaimTemplate with 64 devices per node (compat 1.37)",
        {100, 3200, 3200},
        false,
        ""},
       &DraManyDevices},
      {{"DraPartitionable",
        "DRA Partitionable: two devices per node sharing one counter set, claims for two devices "
        "(compat 1.37)",
        {500, 250, 250},
        false,
        ""},
       &DraPartitionable},
  };
  return *entries;
}

}  // namespace

Builder::Builder(std::string_view shape, const WorkloadParams& params)
    : shape_(shape), params_(params), rand_(params.seed) {
  epoch_ns_ = *reference::ParseRfc3339(kStartTime);
  trace::Header& h = workload_.trace.header;
  h.set_format_version(trace::kFormatVersion);
  h.set_producer("schedcheck generate");
  h.set_compat(std::string(trace::kCompatLevel));
  h.set_seed(params.seed);
  auto& labels = *h.mutable_labels();
  labels["start_time"] = kStartTime;
  labels["shape"] = shape_;
  labels["nodes"] = std::to_string(params.nodes);
  labels["initial_pods"] = std::to_string(params.initial_pods);
  labels["measured_pods"] = std::to_string(params.measured_pods);
}

trace::ApiEvent* Builder::AddEvent(int64_t t_ns, trace::EventType type) {
  trace::Record& r = workload_.trace.records.emplace_back();
  r.set_time_ns(t_ns);
  r.mutable_api()->set_type(type);
  last_ns_ = std::max(last_ns_, t_ns);
  return r.mutable_api();
}

void Builder::AddNode(int64_t t_ns, trace::EventType type, const k8s::Node& node) {
  *AddEvent(t_ns, type)->mutable_node() = node;
}

std::string Builder::CreationTimestamp(int64_t t_ns) const {
  return reference::FormatRfc3339((epoch_ns_ + t_ns) / kSec * kSec);
}

void Builder::AddPod(int64_t t_ns, trace::EventType type, k8s::Pod pod) {
  if (type == trace::ADDED && pod.metadata().creation_timestamp().empty()) {
    pod.mutable_metadata()->set_creation_timestamp(CreationTimestamp(t_ns));
  }
  *AddEvent(t_ns, type)->mutable_pod() = std::move(pod);
}

void Builder::AddPersistentVolume(int64_t t_ns, trace::EventType type,
                                  const k8s::PersistentVolume& pv) {
  *AddEvent(t_ns, type)->mutable_persistent_volume() = pv;
}

void Builder::AddPersistentVolumeClaim(int64_t t_ns, trace::EventType type,
                                       const k8s::PersistentVolumeClaim& pvc) {
  *AddEvent(t_ns, type)->mutable_persistent_volume_claim() = pvc;
}

void Builder::AddCSINode(int64_t t_ns, trace::EventType type, const k8s::CSINode& csi_node) {
  *AddEvent(t_ns, type)->mutable_csi_node() = csi_node;
}

void Builder::AddResourceSlice(int64_t t_ns, const k8s::ResourceSlice& slice) {
  *AddEvent(t_ns, trace::ADDED)->mutable_resource_slice() = slice;
}

void Builder::AddDeviceClass(int64_t t_ns, const k8s::DeviceClass& device_class) {
  *AddEvent(t_ns, trace::ADDED)->mutable_device_class() = device_class;
}

void Builder::AddResourceClaimTemplate(int64_t t_ns,
                                       const k8s::ResourceClaimTemplate& claim_template) {
  *AddEvent(t_ns, trace::ADDED)->mutable_resource_claim_template() = claim_template;
}

void Builder::AddResourceClaim(int64_t t_ns, const k8s::ResourceClaim& claim) {
  *AddEvent(t_ns, trace::ADDED)->mutable_resource_claim() = claim;
}

void Builder::AddPerfNodes(const std::vector<std::string>& zones, const NodePreparer& prepare) {
  for (const char* ns : {kInitialNs, kMeasuredNs}) {
    trace::Record& r = workload_.trace.records.emplace_back();
    r.mutable_api()->set_type(trace::ADDED);
    k8s::Namespace* n = r.mutable_api()->mutable_namespace_();
    n->set_api_version("v1");
    n->set_kind("Namespace");
    n->mutable_metadata()->set_name(ns);
  }
  for (int64_t i = 0; i < params_.nodes; ++i) {
    k8s::Node node = PerfNode("scheduler-perf-" + std::to_string(i));
    if (!zones.empty()) {
      (*node.mutable_metadata()->mutable_labels())[kZoneLabel] = zones[rand_.Uniform(zones.size())];
    }
    if (prepare) prepare(node);
    AddNode(0, trace::ADDED, node);
  }
}

void Builder::AddInitialPods(std::string_view prefix, const PodMaker& make,
                             const PodDependents& dependents) {
  for (int64_t i = 0; i < params_.initial_pods; ++i) {
    const int64_t t = kSec + i * kMs;
    if (dependents) dependents(t, kInitialNs, i);
    AddPod(t, trace::ADDED, make(kInitialNs, std::string(prefix) + std::to_string(i)));
  }
}

int64_t Builder::AddMeasuredPods(std::string_view prefix, const PodMaker& make,
                                 const PodDependents& dependents) {
  const int64_t start = NextPhaseNs();
  workload_.measured_start_ns = start;
  int64_t t = start;
  for (int64_t i = 0; i < params_.measured_pods; ++i) {
    t = start + i * kMs;
    std::string name = std::string(prefix) + std::to_string(i);
    workload_.measured_pods.push_back(std::string(kMeasuredNs) + "/" + name);
    if (dependents) dependents(t, kMeasuredNs, i);
    AddPod(t, trace::ADDED, make(kMeasuredNs, name));
  }
  return t;
}

std::vector<k8s::Pod> Builder::PodsAdded(std::string_view ns) const {
  std::vector<k8s::Pod> pods;
  for (const trace::Record& r : workload_.trace.records) {
    if (r.api().type() == trace::ADDED && r.api().has_pod() &&
        r.api().pod().metadata().namespace_() == ns) {
      pods.push_back(r.api().pod());
    }
  }
  return pods;
}

std::vector<k8s::Node> Builder::NodesAdded() const {
  std::vector<k8s::Node> nodes;
  for (const trace::Record& r : workload_.trace.records) {
    if (r.api().type() == trace::ADDED && r.api().has_node()) nodes.push_back(r.api().node());
  }
  return nodes;
}

std::vector<int64_t> Builder::Shuffled(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(v[i], v[rand_.Uniform(i + 1)]);
  return v;
}

Workload Builder::Finish() {
  auto& records = workload_.trace.records;
  std::stable_sort(
      records.begin(), records.end(),
      [](const trace::Record& a, const trace::Record& b) { return a.time_ns() < b.time_ns(); });
  return std::move(workload_);
}

const std::vector<ShapeInfo>& Shapes() {
  static const auto* shapes = [] {
    auto* v = new std::vector<ShapeInfo>;
    for (const Entry& e : Entries()) v->push_back(e.info);
    return v;
  }();
  return *shapes;
}

const ShapeInfo* FindShape(std::string_view name) {
  for (const ShapeInfo& s : Shapes()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Result<Workload> Generate(std::string_view shape, const WorkloadParams& params) {
  const Entry* entry = nullptr;
  for (const Entry& e : Entries()) {
    if (e.info.name == shape) entry = &e;
  }
  if (entry == nullptr) {
    std::string known;
    for (const Entry& e : Entries())
      known += (known.empty() ? "" : ", ") + std::string(e.info.name);
    return Error{"shape: unknown \"" + std::string(shape) + "\" (known: " + known + ")"};
  }
  if (params.nodes < 1 || params.nodes > kMaxNodes) {
    return Error{"nodes: " + std::to_string(params.nodes) + " is out of range [1, " +
                 std::to_string(kMaxNodes) + "]"};
  }
  for (auto [value, what] :
       {std::pair{params.initial_pods, "initial"}, std::pair{params.measured_pods, "measured"}}) {
    if (value < 0 || value > kMaxPods) {
      return Error{std::string(what) + ": " + std::to_string(value) + " is out of range [0, " +
                   std::to_string(kMaxPods) + "]"};
    }
  }
  Builder b(shape, params);
  entry->build(b);
  return b.Finish();
}

}  // namespace schedcheck::workloads
