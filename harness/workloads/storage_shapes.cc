// The scheduler_perf volume shapes (performance-config.yaml of kubernetes v1.27:
// SchedulingInTreePVs, SchedulingMigratedInTreePVs, SchedulingCSIPVs), one function each.
// Every pod comes with its own PersistentVolumeClaim and PersistentVolume created bound to each
// other (testutils.CreatePodWithPersistentVolume with bindVolume), so VolumeBinding finds every
// claim bound and PreBind writes nothing: replay has no PV controller (harness/kube/README.md).
#include <cstdint>
#include <string>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

enum class VolumeSource { kInTreeAwsEbs, kCsi };

// Pod i of namespace ns: claim "pvc-<i>" bound to volume "<ns>-vol-<i>" (volumeID or volumeHandle
// "vol-<i>"), as upstream names them: PVs are cluster-wide, so the namespace makes the name
// unique. The claim first (the volume's claimRef names it), then the volume, then the pod.
void AddBoundClaim(Builder& b, VolumeSource source, int64_t t, const std::string& ns, int64_t i) {
  const std::string claim_name = "pvc-" + std::to_string(i);
  const std::string volume_id = "vol-" + std::to_string(i);
  k8s::PersistentVolume pv = source == VolumeSource::kCsi
                                 ? CsiVolume(ns + "-" + volume_id, volume_id)
                                 : AwsEbsVolume(ns + "-" + volume_id, volume_id);
  k8s::ObjectReference* ref = pv.mutable_spec()->mutable_claim_ref();
  ref->set_kind("PersistentVolumeClaim");
  ref->set_namespace_(ns);
  ref->set_name(claim_name);
  ref->set_api_version("v1");
  pv.mutable_status()->set_phase("Bound");
  k8s::PersistentVolumeClaim pvc = PerfClaim(ns, claim_name);
  pvc.mutable_spec()->set_volume_name(pv.metadata().name());
  pvc.mutable_status()->set_phase("Bound");
  b.AddPersistentVolumeClaim(t, trace::ADDED, pvc);
  b.AddPersistentVolume(t, trace::ADDED, pv);
}

// The two createPods ops (initial pods in sched-0, measured pods in sched-1), each pod "pod-<i>"
// mounting claim "pvc-<i>" of its namespace.
void PodsWithBoundClaims(Builder& b, VolumeSource source) {
  const PodMaker make = [](const std::string& ns, const std::string& name) {
    return ClaimPod(ns, name, "pvc-" + name.substr(name.rfind('-') + 1));
  };
  const PodDependents dependents = [&b, source](int64_t t, const std::string& ns, int64_t i) {
    AddBoundClaim(b, source, t, ns, i);
  };
  b.AddInitialPods("pod-", make, dependents);
  b.AddMeasuredPods("pod-", make, dependents);
}

// createNodes with nodeAllocatableStrategy (node-default.yaml; nodeAllocatable
// attachable-volumes-csi-ebs.csi.aws.com 39, csiNodeAllocatable ebs.csi.aws.com count 39,
// migratedPlugins): the nodes with that allocatable, then each node's CSINode, all at t = 0.
void AddAttachLimitNodes(Builder& b, const std::string& migrated_plugins) {
  b.AddPerfNodes(
      {}, [](k8s::Node& node) { node = AttachLimitNode(std::string(node.metadata().name())); });
  for (const k8s::Node& node : b.NodesAdded()) {
    b.AddCSINode(0, trace::ADDED, PerfCSINode(node.metadata().name(), migrated_plugins));
  }
}

}  // namespace

// Default nodes without CSINode objects: the in-tree EBS volumes count against EBSLimits.
void SchedulingInTreePVs(Builder& b) {
  b.AddPerfNodes({});
  PodsWithBoundClaims(b, VolumeSource::kInTreeAwsEbs);
}

// The same in-tree volumes, on nodes whose CSINode says kubernetes.io/aws-ebs is migrated: they
// count against the CSI driver's limit (NodeVolumeLimits) instead.
void SchedulingMigratedInTreePVs(Builder& b) {
  AddAttachLimitNodes(b, kAwsEbsInTreePlugin);
  PodsWithBoundClaims(b, VolumeSource::kInTreeAwsEbs);
}

// CSI volumes of ebs.csi.aws.com; the CSINodes list no migrated plugin (an empty annotation, as
// upstream writes it).
void SchedulingCSIPVs(Builder& b) {
  AddAttachLimitNodes(b, "");
  PodsWithBoundClaims(b, VolumeSource::kCsi);
}

}  // namespace schedcheck::workloads
