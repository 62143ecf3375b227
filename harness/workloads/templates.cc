#include "harness/workloads/templates.h"

#include <string>

namespace schedcheck::workloads {
namespace {

k8s::Node NodeWithCapacity(const std::string& name) {
  k8s::Node node;
  node.set_api_version("v1");
  node.set_kind("Node");
  node.mutable_metadata()->set_name(name);
  (*node.mutable_metadata()->mutable_labels())[kHostnameLabel] = name;
  k8s::NodeCondition* ready = node.mutable_status()->add_conditions();
  ready->set_type("Ready");
  ready->set_status("True");
  return node;
}

// One "pause" container with containerPort 80 and the given requests (and equal limits when
// `with_limits`), as every scheduler_perf pod template has.
k8s::Pod PausePod(const std::string& ns, const std::string& name, const std::string& image,
                  const std::string& cpu, bool with_limits) {
  k8s::Pod pod;
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  pod.mutable_metadata()->set_namespace_(ns);
  pod.mutable_metadata()->set_name(name);
  k8s::Container* c = pod.mutable_spec()->add_containers();
  c->set_name("pause");
  c->set_image(image);
  c->add_ports()->set_container_port(80);
  auto* requests = c->mutable_resources()->mutable_requests();
  (*requests)["cpu"] = cpu;
  (*requests)["memory"] = "500Mi";
  if (with_limits) *c->mutable_resources()->mutable_limits() = *requests;
  return pod;
}

// The part pv-aws.yaml and pv-csi.yaml share: accessModes [ReadOnlyMany], capacity storage 1Gi,
// reclaim policy Retain.
k8s::PersistentVolume PerfVolume(const std::string& name) {
  k8s::PersistentVolume pv;
  pv.set_api_version("v1");
  pv.set_kind("PersistentVolume");
  pv.mutable_metadata()->set_name(name);
  pv.mutable_spec()->add_access_modes("ReadOnlyMany");
  (*pv.mutable_spec()->mutable_capacity())["storage"] = "1Gi";
  pv.mutable_spec()->set_persistent_volume_reclaim_policy("Retain");
  return pv;
}

k8s::PodAffinityTerm ColorTerm(const std::string& color, const std::string& topology_key) {
  k8s::PodAffinityTerm term;
  (*term.mutable_label_selector()->mutable_match_labels())["color"] = color;
  term.set_topology_key(topology_key);
  term.add_namespaces("sched-1");
  term.add_namespaces("sched-0");
  return term;
}

}  // namespace

k8s::Node PerfNode(const std::string& name) {
  k8s::Node node = NodeWithCapacity(name);
  auto* capacity = node.mutable_status()->mutable_capacity();
  (*capacity)["pods"] = "110";
  (*capacity)["cpu"] = "4";
  (*capacity)["memory"] = "32Gi";
  return node;
}

k8s::Node ChurnNode(const std::string& name) {
  k8s::Node node = NodeWithCapacity(name);
  (*node.mutable_status()->mutable_capacity())["pods"] = "0";
  return node;
}

k8s::Pod DefaultPod(const std::string& ns, const std::string& name) {
  return PausePod(ns, name, "registry.k8s.io/pause:3.10.1", "100m", true);
}

k8s::Pod NodeAffinityPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = DefaultPod(ns, name);
  k8s::NodeSelectorRequirement* r =
      pod.mutable_spec()
          ->mutable_affinity()
          ->mutable_node_affinity()
          ->mutable_required_during_scheduling_ignored_during_execution()
          ->add_node_selector_terms()
          ->add_match_expressions();
  r->set_key(kZoneLabel);
  r->set_operator_("In");
  r->add_values("zone1");
  r->add_values("zone2");
  return pod;
}

k8s::Pod PodAffinityPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = DefaultPod(ns, name);
  (*pod.mutable_metadata()->mutable_labels())["color"] = "blue";
  *pod.mutable_spec()
       ->mutable_affinity()
       ->mutable_pod_affinity()
       ->add_required_during_scheduling_ignored_during_execution() = ColorTerm("blue", kZoneLabel);
  return pod;
}

k8s::Pod PodAntiAffinityPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.10.2", "100m", true);
  (*pod.mutable_metadata()->mutable_labels())["color"] = "green";
  *pod.mutable_spec()
       ->mutable_affinity()
       ->mutable_pod_anti_affinity()
       ->add_required_during_scheduling_ignored_during_execution() =
      ColorTerm("green", kHostnameLabel);
  return pod;
}

k8s::Pod TopologySpreadingPod(const std::string& ns, const std::string& name, bool preferred) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.10", "100m", true);
  (*pod.mutable_metadata()->mutable_labels())["color"] = "blue";
  k8s::TopologySpreadConstraint* c = pod.mutable_spec()->add_topology_spread_constraints();
  c->set_max_skew(5);
  c->set_topology_key(kZoneLabel);
  c->set_when_unsatisfiable(preferred ? "ScheduleAnyway" : "DoNotSchedule");
  (*c->mutable_label_selector()->mutable_match_labels())["color"] = "blue";
  return pod;
}

k8s::Pod LowPriorityPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.10", "900m", true);
  pod.mutable_spec()->set_termination_grace_period_seconds(0);
  return pod;
}

k8s::Pod HighPriorityPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.10", "3000m", true);
  pod.mutable_spec()->set_priority(10);
  return pod;
}

k8s::Pod LargeCpuPod(const std::string& ns, const std::string& name) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.10.1", "9", false);
  pod.mutable_spec()->set_priority(10);
  return pod;
}

k8s::Pod ClaimPod(const std::string& ns, const std::string& name, const std::string& claim) {
  k8s::Pod pod = PausePod(ns, name, "registry.k8s.io/pause:3.9", "100m", true);
  k8s::Volume* volume = pod.mutable_spec()->add_volumes();
  volume->set_name("vol");
  volume->mutable_persistent_volume_claim()->set_claim_name(claim);
  return pod;
}

k8s::PersistentVolumeClaim PerfClaim(const std::string& ns, const std::string& name) {
  k8s::PersistentVolumeClaim pvc;
  pvc.set_api_version("v1");
  pvc.set_kind("PersistentVolumeClaim");
  pvc.mutable_metadata()->set_namespace_(ns);
  pvc.mutable_metadata()->set_name(name);
  (*pvc.mutable_metadata()->mutable_annotations())[kBindCompletedAnnotation] = "true";
  pvc.mutable_spec()->add_access_modes("ReadOnlyMany");
  (*pvc.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = "1Gi";
  return pvc;
}

k8s::PersistentVolume AwsEbsVolume(const std::string& name, const std::string& volume_id) {
  k8s::PersistentVolume pv = PerfVolume(name);
  pv.mutable_spec()->mutable_aws_elastic_block_store()->set_volume_id(volume_id);
  return pv;
}

k8s::PersistentVolume CsiVolume(const std::string& name, const std::string& volume_handle) {
  k8s::PersistentVolume pv = PerfVolume(name);
  k8s::CSIPersistentVolumeSource* csi = pv.mutable_spec()->mutable_csi();
  csi->set_driver(kEbsCsiDriver);
  csi->set_volume_handle(volume_handle);
  return pv;
}

k8s::Node AttachLimitNode(const std::string& name) {
  k8s::Node node = PerfNode(name);
  auto* allocatable = node.mutable_status()->mutable_allocatable();
  *allocatable = node.status().capacity();
  (*allocatable)[std::string("attachable-volumes-csi-") + kEbsCsiDriver] =
      std::to_string(kEbsAttachLimit);
  return node;
}

k8s::CSINode PerfCSINode(const std::string& node, const std::string& migrated_plugins) {
  k8s::CSINode csi_node;
  csi_node.set_api_version("storage.k8s.io/v1");
  csi_node.set_kind("CSINode");
  csi_node.mutable_metadata()->set_name(node);
  (*csi_node.mutable_metadata()->mutable_annotations())[kMigratedPluginsAnnotation] =
      migrated_plugins;
  k8s::CSINodeDriver* driver = csi_node.mutable_spec()->add_drivers();
  driver->set_name(kEbsCsiDriver);
  driver->set_node_id(node);
  driver->mutable_allocatable()->set_count(kEbsAttachLimit);
  return csi_node;
}

}  // namespace schedcheck::workloads
