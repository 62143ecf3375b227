// The scheduler_perf DRA shapes of kubernetes v1.37.2 (test/integration/scheduler_perf/dra/):
// SchedulingWithResourceClaimTemplate (10 devices per node), the same with 64 devices per node,
// and Partitionable (two devices per node sharing one counter set, claims for two devices). Compat
// 1.37 only (the trace header says so): DynamicResources reads them.
//
// Replay has no ResourceClaim controller (docs/FORMATS.md, "DRA objects in a replay"), so each
// pod comes with the controller's writes: its claim made from the template (owned by the pod)
// just before it, and the pod carries status.resourceClaimStatuses naming it. Upstream fills the
// cluster with `allocResourceClaims` (claims allocated without pods); here the initial pods do
// it, scheduled like the measured ones, so the measured pods meet a cluster as full.
#include <cstdint>
#include <functional>
#include <string>

#include "harness/workloads/builder.h"
#include "harness/workloads/templates.h"

namespace schedcheck::workloads {
namespace {

constexpr char kDriver[] = "test-driver.cdi.k8s.io";
constexpr char kClass[] = "test-class";
constexpr char kTemplate[] = "test-claim-template";

void SetAttribute(k8s::Device& d, const std::string& name, const std::string& value) {
  (*d.mutable_attributes())[name].set_string_value(value);
}

// templates/resourceslice-basic-devices.yaml: node i's slice of `devices` devices modelled on an
// Intel GPU, PCI roots cycling over two.
k8s::ResourceSlice BasicDevicesSlice(int64_t i, int devices) {
  k8s::ResourceSlice slice;
  slice.mutable_metadata()->set_name("resourceslice-" + std::to_string(i));
  k8s::ResourceSliceSpec& spec = *slice.mutable_spec();
  spec.set_driver(kDriver);
  spec.mutable_pool()->set_name("resourceslice-" + std::to_string(i));
  spec.mutable_pool()->set_generation(1);
  spec.mutable_pool()->set_resource_slice_count(1);
  spec.set_node_name("scheduler-perf-" + std::to_string(i));
  for (int k = 0; k < devices; ++k) {
    k8s::Device& d = *spec.add_devices();
    d.set_name("basic-device-" + std::to_string(k));
    const std::string root = std::to_string(k % 2);
    const std::string pci = "0000:0" + std::to_string(k) + ":00.0";
    SetAttribute(d, "driver", "xe");
    (*d.mutable_attributes())["driverVersion"].set_version_value("1.2.3");
    SetAttribute(d, "resource.k8s.io/pciRoot", root);
    SetAttribute(d, "family", "Arc Pro B-Series");
    SetAttribute(d, "health", "Healthy");
    SetAttribute(d, "model", "B60");
    SetAttribute(d, "pciAddress", pci);
    SetAttribute(d, "pciId", "0xe211");
    SetAttribute(d, "pciRoot", "0" + root);
    SetAttribute(d, "resource.kubernetes.io/pciBusID", pci);
    SetAttribute(d, "resource.kubernetes.io/pciRoot", "pci0000:0" + root);
    (*d.mutable_attributes())["sriov"].set_bool_value(true);
    SetAttribute(d, "type", "gpu");
    (*d.mutable_capacity())["memory"].set_value("24480Mi");
    (*d.mutable_capacity())["millicores"].set_value("1k");
  }
  return slice;
}

// templates/resourceslice-partitionable-{countersets,devices}.yaml: node i's pool of two slices,
// a counter set of four counters and two devices consuming two each.
void AddPartitionableSlices(Builder& b, int64_t i) {
  const std::string pool = "resourceslice-" + std::to_string(i);
  const std::string node = "scheduler-perf-" + std::to_string(i);
  k8s::ResourceSlice counters;
  counters.mutable_metadata()->set_name("resourceslice-countersets-" + std::to_string(i));
  k8s::ResourceSliceSpec* spec = counters.mutable_spec();
  spec->set_driver(kDriver);
  spec->mutable_pool()->set_name(pool);
  spec->mutable_pool()->set_generation(1);
  spec->mutable_pool()->set_resource_slice_count(2);
  spec->set_node_name(node);
  k8s::CounterSet* set = spec->add_shared_counters();
  set->set_name("counter-set");
  for (const char* c : {"counter1", "counter2", "counter3", "counter4"})
    (*set->mutable_counters())[c].set_value("1");
  k8s::ResourceSlice devices = counters;
  devices.mutable_metadata()->set_name("resourceslice-devices-" + std::to_string(i));
  devices.mutable_spec()->clear_shared_counters();
  for (int k = 1; k <= 2; ++k) {
    k8s::Device& d = *devices.mutable_spec()->add_devices();
    d.set_name("device-" + std::to_string(k));
    k8s::DeviceCounterConsumption& use = *d.add_consumes_counters();
    use.set_counter_set("counter-set");
    (*use.mutable_counters())["counter" + std::to_string(2 * k - 1)].set_value("1");
    (*use.mutable_counters())["counter" + std::to_string(2 * k)].set_value("1");
  }
  b.AddResourceSlice(0, counters);
  b.AddResourceSlice(0, devices);
}

// templates/deviceclass.yaml.
k8s::DeviceClass TestClass() {
  k8s::DeviceClass c;
  c.mutable_metadata()->set_name(kClass);
  c.mutable_spec()->add_selectors()->mutable_cel()->set_expression(
      std::string("device.driver == \"") + kDriver + "\"");
  return c;
}

// The claim spec of templates/resourceclaimtemplate.yaml (one request for a device of the
// class) or, with count 2, of resourceclaimtemplate-for-two-devices.yaml.
k8s::ResourceClaimSpec ClaimSpec(int count) {
  k8s::ResourceClaimSpec spec;
  k8s::DeviceRequest& r = *spec.mutable_devices()->add_requests();
  r.set_name("req-0");
  r.mutable_exactly()->set_device_class_name(kClass);
  if (count != 1) {
    r.mutable_exactly()->set_allocation_mode("ExactCount");
    r.mutable_exactly()->set_count(count);
  }
  return spec;
}

// templates/pod-with-claim-template.yaml, with what the ResourceClaim controller writes: the
// claim "<pod>-resource" made from the template, owned by the pod, before the pod, and the pod's
// status naming it.
PodMaker TemplatePods() {
  return [](const std::string& ns, const std::string& name) {
    k8s::Pod pod;
    pod.set_api_version("v1");
    pod.set_kind("Pod");
    pod.mutable_metadata()->set_name(name);
    pod.mutable_metadata()->set_namespace_(ns);
    pod.mutable_metadata()->set_uid(ns + "/" + name);
    k8s::Container& c = *pod.mutable_spec()->add_containers();
    c.set_name("pause");
    c.set_image("registry.k8s.io/pause:3.10.1");
    c.mutable_resources()->add_claims()->set_name("resource");
    k8s::PodResourceClaim& entry = *pod.mutable_spec()->add_resource_claims();
    entry.set_name("resource");
    entry.set_resource_claim_template_name(kTemplate);
    k8s::PodResourceClaimStatus& status = *pod.mutable_status()->add_resource_claim_statuses();
    status.set_name("resource");
    status.set_resource_claim_name(name + "-resource");
    return pod;
  };
}

// The shapes' common part: the nodes, `slices` per node, the class, the template in both
// namespaces, then the initial and measured pods each after its claim.
void ClaimTemplateShape(Builder& b, int count, const std::function<void(int64_t)>& slices) {
  b.SetCompat("1.37");
  b.AddPerfNodes({});
  for (int64_t i = 0; i < b.params().nodes; ++i) slices(i);
  b.AddDeviceClass(0, TestClass());
  const k8s::ResourceClaimSpec spec = ClaimSpec(count);
  for (const char* ns : {kInitialNs, kMeasuredNs}) {
    k8s::ResourceClaimTemplate t;
    t.mutable_metadata()->set_name(kTemplate);
    t.mutable_metadata()->set_namespace_(ns);
    *t.mutable_spec()->mutable_spec() = spec;
    b.AddResourceClaimTemplate(0, t);
  }
  const PodDependents claim = [&b, spec](int64_t t, const std::string& ns, int64_t i) {
    const std::string pod = "pod-" + std::to_string(i);
    k8s::ResourceClaim c;
    c.mutable_metadata()->set_name(pod + "-resource");
    c.mutable_metadata()->set_namespace_(ns);
    (*c.mutable_metadata()->mutable_annotations())["resource.kubernetes.io/pod-claim-name"] =
        "resource";
    k8s::OwnerReference& owner = *c.mutable_metadata()->add_owner_references();
    owner.set_api_version("v1");
    owner.set_kind("Pod");
    owner.set_name(pod);
    owner.set_uid(ns + "/" + pod);
    owner.set_controller(true);
    *c.mutable_spec() = spec;
    b.AddResourceClaim(t, c);
  };
  const PodMaker make = TemplatePods();
  b.AddInitialPods("pod-", make, claim);
  b.AddMeasuredPods("pod-", make, claim);
}

}  // namespace

void DraClaimTemplate(Builder& b) {
  ClaimTemplateShape(b, 1, [&b](int64_t i) { b.AddResourceSlice(0, BasicDevicesSlice(i, 10)); });
}

void DraManyDevices(Builder& b) {
  ClaimTemplateShape(b, 1, [&b](int64_t i) { b.AddResourceSlice(0, BasicDevicesSlice(i, 64)); });
}

void DraPartitionable(Builder& b) {
  ClaimTemplateShape(b, 2, [&b](int64_t i) { AddPartitionableSlices(b, i); });
}

}  // namespace schedcheck::workloads
