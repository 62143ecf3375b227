// Dynamic Resource Allocation traces (compat 1.37) for the differential test against the real
// kube-scheduler (properties/kube_dra_differential_test.cc) and campaigns: nodes with GPU-like
// ResourceSlices (whole devices with attributes and capacity), network-attached pools (allNodes or
// a nodeSelector on a rack label), DeviceClasses with CEL selectors (driver, attribute and
// capacity comparisons), then pods with claims: ExactCount and All requests, matchAttribute
// constraints, claims shared by several pods, claim templates, and the events that requeue them
// (pod deletions with the claims' deallocation, slice updates, deletions and late classes).
//
// Replay has no ResourceClaim controller (docs/FORMATS.md, "DRA objects in a replay"), so the
// trace carries its writes: for a pod naming a template, the claim made from it (owned by the
// pod, `resource.kubernetes.io/pod-claim-name` annotation) and the pod's
// `status.resourceClaimStatuses` naming it — with the pod, a little later, or (sometimes) never,
// when the pod waits in PreEnqueue; when the last pod using a claim is deleted, the claim's
// deallocation (an update without status), or the deletion of a claim made from a template.
//
// Every object is one the API server accepts (traces/importers/dra_validation.h; checked by
// dra_generators_test on sampled traces). Names, attribute domains and vocabularies are small so
// that pods compete for devices and constraints often fail.
#ifndef SCHEDCHECK_HARNESS_GENERATORS_DRA_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_DRA_GENERATORS_H_

#include <string>
#include <string_view>

#include "harness/generators/wide_generators.h"
#include "rapidcheck.h"
#include "reference/base/result.h"

namespace schedcheck::generators {

// Which DRA features a generated trace may use beyond the base set above. Each is one switch,
// so a differential can run only what both sides model. Names (ParseDraFeatures, Names): "base"
// alone, or a comma list of the switches' names; "all" is every switch.
struct DraFeatures {
  // "partitions" (DRAPartitionableDevices): pools of two slices, one with shared counters (a
  // GPU's memory) and one with a whole device and halves consuming them (MIG-like).
  bool partitions = false;
  // "consumable-capacity" (DRAConsumableCapacity): devices that allow multiple allocations with
  // a memory capacity and request policy; requests asking for a share of it.
  bool consumable_capacity = false;
  // "device-taints" (DRADeviceTaints, DRADeviceTaintRules): tainted devices, requests with
  // tolerations, DeviceTaintRules added and deleted.
  bool device_taints = false;
  // "prioritized-lists" (DRAPrioritizedList): requests with firstAvailable sub-requests.
  bool prioritized_lists = false;
  // "extended-resources" (DRAExtendedResource): a DeviceClass backing example.com/gpu and pods
  // asking for it in their container resources (the scheduler creates their claims).
  bool extended_resources = false;

  static DraFeatures All();
  // "base" or the switches on, comma-separated, in the order above.
  std::string Names() const;
};

// "none" is an error here (the caller decides what running nothing means).
Result<DraFeatures> ParseDraFeatures(std::string_view names);

// 2–4 nodes, their slices, 0–2 network pools, 1–5 DeviceClasses and 0–2 claim templates at
// t = 0, then 4–18 events at non-decreasing times (seconds): pods with 1–2 claims (their own,
// shared with earlier pods, or from a template), pod deletions, slice updates (a device added or
// removed, the pool's generation bumped), slice deletions, nodes added with their GPUs, late
// DeviceClasses, and what the switches of `features` add.
rc::Gen<WideScenario> DraScenarioGen(DraFeatures features);

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_DRA_GENERATORS_H_
