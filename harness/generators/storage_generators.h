// Storage traces for the differential test against the real kube-scheduler
// (properties/kube_differential_test.cc) and campaigns: nodes with zone and hostname labels,
// StorageClasses, CSIDrivers, CSINodes, CSIStorageCapacities, PersistentVolumes and
// PersistentVolumeClaims at t = 0, then pods with claim, generic ephemeral and inline in-tree
// volumes, and the writes a PV controller, an external provisioner, the ephemeral-volume controller
// and the kubelet would make meanwhile.
//
// Replay has no PV controller (harness/kube/README.md, "No PV controller"), so a claim becomes
// bound only when the trace says so: PV claimRef and phase Bound first, then the claim's
// volumeName, phase Bound and pv.kubernetes.io/bind-completed, as pv_controller.go's bind() writes
// them.
//
// Why each object is one a v1.27 API server accepts:
// - A bound pair is consistent both ways (PVC.spec.volumeName names the PV, PV.spec.claimRef names
//   the claim with its uid), with the same class, the PV's access modes and a capacity at least
//   the request.
// - Immutable fields never change: a StorageClass is never updated; a PV or claim update only
//   binds it (claimRef, volumeName, phases, annotations) or marks a claim terminating; a CSINode
//   driver's allocatable count (immutable in v1.27) changes only by removing the driver and
//   registering it again, except with `newer_fields` (MutableCSINodeAllocatableCount).
// - A claim some live pod uses is not deleted but marked terminating (the pvc-protection
//   finalizer holds it), as the API server does.
// - The claim of a generic ephemeral volume is "<pod>-<volume>", owned by the pod (controller
//   reference with the pod's uid), created after the pod; sometimes a claim of that name that the
//   pod does not own (the conflict the ephemeral controller reports).
// - In-tree PVs (GCE PD, AWS EBS) carry no zone labels or node affinity in scenarios whose
//   CSINodes list migrated plugins: upstream's VolumeBinding translates those PVs' topology on
//   migrated nodes, which the reference does not model (docs/DEVIATIONS.md), so such traces would
//   only find that known deviation again. EBS volume IDs are ones csi-translation-lib parses.
//
// Pod writes after a binding or a preemption are made consistent by RealizeTrace
// (wide_generators.h), as for the wide scenarios.
#ifndef SCHEDCHECK_HARNESS_GENERATORS_STORAGE_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_STORAGE_GENERATORS_H_

#include "harness/generators/wide_generators.h"
#include "rapidcheck.h"

namespace schedcheck::generators {

// 1–4 nodes, 1–3 StorageClasses, CSIDrivers, CSINodes, sometimes CSIStorageCapacities, PVs and
// claims at t = 0, then 1–20 events at non-decreasing times: pods (0–3 claim volumes, sometimes a
// generic ephemeral or an inline GCE PD / EBS / Azure Disk / CSI volume), pod deletes, claims
// bound later (by an existing PV or a provisioned one), PV and claim adds, claim deletes, CSINode
// changes, StorageClass and node adds, capacity updates.
// `newer_fields` (compat 1.37): CSINode allocatable counts also change in place.
// `controllers_model`: the traces are for replay with the volume controllers model
// (docs/FORMATS.md, "Volume controllers"), so the PV controller's writes for WaitForFirstConsumer
// claims are left out (the model makes them); Immediate claims are still bound by the trace.
rc::Gen<WideScenario> StorageScenarioGen(bool newer_fields = false, bool controllers_model = false);

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_STORAGE_GENERATORS_H_
