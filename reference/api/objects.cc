#include "reference/api/objects.h"

#include <map>

#include "reference/api/pod_requests.h"
#include "reference/api/quantity.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace {

// Kubernetes' ResourceList iterates in key order; we do the same so errors are deterministic.
std::map<std::string, std::string> Sorted(
    const google::protobuf::Map<std::string, std::string>& list) {
  return {list.begin(), list.end()};
}

struct ContainerView {
  Resource requests;
  int64_t non_zero_cpu = 0;
  int64_t non_zero_memory = 0;
};

Result<ContainerView> ViewContainer(const k8s::Container& c, const std::string& field) {
  Result<Resource> r = ParseResourceList(c.resources().requests(), field + ".resources.requests");
  if (!r.ok()) return r.error();
  ContainerView v;
  v.requests = std::move(*r);
  const auto& req = c.resources().requests();
  v.non_zero_cpu = req.contains("cpu") ? v.requests.milli_cpu : kDefaultMilliCpuRequest;
  v.non_zero_memory = req.contains("memory") ? v.requests.memory : kDefaultMemoryRequest;
  return v;
}

// The API server copies a container's limits into missing requests before anyone reads the pod
// (core/v1 SetDefaults_Pod); manifests taken from files have not been through it.
void DefaultRequestsFromLimits(k8s::Container* c) {
  auto* requests = c->mutable_resources()->mutable_requests();
  for (const auto& [name, value] : c->resources().limits()) {
    if (!requests->contains(name)) (*requests)[name] = value;
  }
}

// With host networking every container port is a host port (core/v1 SetDefaults_PodSpec's
// defaultHostNetworkPorts): a hostPort left at 0 becomes the containerPort.
void DefaultHostNetworkPorts(k8s::Container* c) {
  for (k8s::ContainerPort& p : *c->mutable_ports()) {
    if (p.host_port() == 0) p.set_host_port(p.container_port());
  }
}

void ApplyApiDefaults(k8s::PodSpec* spec) {
  for (k8s::Container& c : *spec->mutable_containers()) DefaultRequestsFromLimits(&c);
  for (k8s::Container& c : *spec->mutable_init_containers()) DefaultRequestsFromLimits(&c);
  if (spec->host_network()) {
    for (k8s::Container& c : *spec->mutable_containers()) DefaultHostNetworkPorts(&c);
    for (k8s::Container& c : *spec->mutable_init_containers()) DefaultHostNetworkPorts(&c);
  }
}

// The API server refuses a negative request, overhead or allocatable quantity
// (ValidateNonnegativeQuantity), so no pod or node a scheduler sees has one. The sign is the
// quantity's own: "-0.0001" cpu is negative even though it rounds to 0 millicores.
Outcome CheckNonNegative(const std::string& name, const std::string& text,
                         const std::string& field) {
  if (text.empty() || text[0] != '-') return Outcome::Ok();
  Result<int64_t> magnitude = ParseResourceQuantity(name, std::string_view(text).substr(1));
  if (magnitude.ok() && *magnitude == 0) return Outcome::Ok();  // "-0"
  return Error{field + "." + name + ": " + text + ": must be greater than or equal to 0"};
}

HostPort MakeHostPort(const k8s::ContainerPort& p) {
  return HostPort{p.host_ip().empty() ? "0.0.0.0" : p.host_ip(),
                  p.protocol().empty() ? "TCP" : p.protocol(), p.host_port()};
}

// util.GetHostPorts (v1.37): ports with a hostPort, of the sidecar (restartable) init containers,
// which run for the pod's whole life, then of the containers.
std::vector<HostPort> GetHostPorts(const k8s::PodSpec& spec) {
  std::vector<HostPort> ports;
  for (const k8s::Container& c : spec.init_containers()) {
    if (!c.has_restart_policy() || c.restart_policy() != "Always") continue;
    for (const k8s::ContainerPort& p : c.ports()) {
      if (p.host_port() > 0) ports.push_back(MakeHostPort(p));
    }
  }
  for (const k8s::Container& c : spec.containers()) {
    for (const k8s::ContainerPort& p : c.ports()) {
      if (p.host_port() > 0) ports.push_back(MakeHostPort(p));
    }
  }
  return ports;
}

// The v1.37 request views (pod_requests.h); the caller has set the API defaults.
Outcome FillRequestsV137(Pod& pod, const PodResourceGates& gates) {
  const k8s::Pod& obj = pod.obj;
  Result<PodResource> resource = CalculateResource(obj, gates);
  if (!resource.ok()) return resource.error();
  pod.requests = std::move(resource->resource);
  pod.non_zero_milli_cpu = resource->non0_cpu;
  pod.non_zero_memory = resource->non0_mem;
  // Fit's computePodResourceRequest: the spec, pod-level resources as the gate says.
  PodResourcesOptions spec_opts;
  spec_opts.skip_pod_level_resources = !gates.pod_level_resources;
  Result<ResourceList> spec = PodRequests(obj, spec_opts);
  if (!spec.ok()) return spec.error();
  pod.spec_requests = ResourceFromList(*spec);
  // resourceAllocationScorer.calculatePodResourceRequest with !useRequested, as NodeResourcesFit's
  // scorer runs it at v1.37.2: getScorer leaves the scorer's feature flags unset, so it skips
  // pod-level requests and status resources (BalancedAllocation's scorer sets them; it reads
  // `requests`). Found by the 1.37 differential on a pod with pod-level cpu.
  PodResourcesOptions score_opts;
  score_opts.skip_pod_level_resources = true;
  score_opts.non_missing_container_requests = {
      {std::string(kResourceCpu), kDefaultMilliCpuRequest},
      {std::string(kResourceMemory), kDefaultMemoryRequest}};
  Result<ResourceList> score = PodRequests(obj, score_opts);
  if (!score.ok()) return score.error();
  pod.score_non_zero_milli_cpu = ValueOf(*score, kResourceCpu);
  pod.score_non_zero_memory = ValueOf(*score, kResourceMemory);
  pod.container_ports = GetHostPorts(obj.spec());
  return Outcome::Ok();
}

}  // namespace

Result<int64_t> ParseResourceEntry(const std::string& name, const std::string& text,
                                   const std::string& field) {
  Result<int64_t> v = ParseResourceQuantity(name, text);
  if (!v.ok()) return Error{field + "." + name + ": " + v.message()};
  if (Outcome ok = CheckNonNegative(name, text, field); !ok) return ok.error();
  return v;
}

Result<Resource> ParseResourceList(const google::protobuf::Map<std::string, std::string>& list,
                                   const std::string& field) {
  Resource r;
  for (const auto& [name, text] : Sorted(list)) {
    Result<int64_t> v = ParseResourceEntry(name, text, field);
    if (!v.ok()) return v.error();
    if (name == kResourceCpu || name == kResourceMemory || name == kResourceEphemeralStorage ||
        name == kResourcePods || IsScalarResourceName(name)) {
      r.Set(name, *v);
    }
  }
  return r;
}

namespace {

// spec.schedulingGroup (GenericWorkload). At 1.27 the field does not exist. At 1.37 with the gate
// off upstream ignores it (the API server drops it from a new pod, and kube-scheduler's cache and
// queue read it only with the gate on), so the pod is scheduled as a plain pod, as here. With the
// gate on the pod would be scheduled with its group (gang PreEnqueue and Permit, pod-group cycles),
// which the reference does not model: an input error, not a plain pod's decisions.
Outcome CheckSchedulingGroup(const k8s::Pod& obj, const Features& features) {
  if (!obj.spec().has_scheduling_group()) return Outcome::Ok();
  const std::string group = obj.spec().scheduling_group().pod_group_name();
  if (!features.pod_scheduling_group_field) {
    return Error{"spec.schedulingGroup: pod group \"" + group +
                 "\": the field does not exist at compat 1.27 (it is new in v1.36)"};
  }
  if (features.generic_workload) {
    return Error{"spec.schedulingGroup: pod group \"" + group +
                 "\": pod groups are not modelled by schedcheck (GenericWorkload=true; "
                 "docs/DEVIATIONS.md)"};
  }
  return Outcome::Ok();
}

}  // namespace

Result<PodPtr> BuildPod(k8s::Pod obj, const Features& features) {
  auto pod = std::make_shared<Pod>();
  k8s::ObjectMeta* meta = obj.mutable_metadata();
  if (meta->name().empty()) return Error{"metadata.name: a pod needs a name"};
  if (meta->namespace_().empty()) meta->set_namespace_("default");
  if (meta->uid().empty()) meta->set_uid(meta->namespace_() + "/" + meta->name());
  if (obj.spec().scheduler_name().empty()) {
    obj.mutable_spec()->set_scheduler_name(std::string(kDefaultSchedulerName));
  }
  // Dynamic Resource Allocation at 1.27: its gate was alpha and off in v1.27.8 (the API server
  // drops the field), and the reference models none of it there. A pod naming claims is an input
  // error rather than a pod scheduled as if it had none.
  if (!features.dynamic_resource_allocation && obj.spec().resource_claims_size() > 0) {
    return Error{
        "spec.resourceClaims: Dynamic Resource Allocation is not modelled at compat 1.27 "
        "(its feature gate was off in v1.27.8; docs/DEVIATIONS.md)"};
  }
  if (Outcome ok = CheckSchedulingGroup(obj, features); !ok) return ok.error();
  ApplyApiDefaults(obj.mutable_spec());
  pod->key = meta->namespace_() + "/" + meta->name();
  pod->priority = obj.spec().has_priority() ? obj.spec().priority() : 0;
  if (features.sidecar_containers) {
    pod->obj = std::move(obj);
    if (Outcome ok = FillRequestsV137(*pod, PodResourceGatesOf(features)); !ok) return ok.error();
    pod->label_ids = LabelIds(pod->obj.metadata().labels());
    pod->namespace_id = InternLabel(pod->obj.metadata().namespace_());
    return PodPtr(std::move(pod));
  }

  const k8s::PodSpec& spec = obj.spec();
  Resource sum;
  int64_t sum_cpu = 0, sum_mem = 0;
  for (int i = 0; i < spec.containers_size(); ++i) {
    std::string field = "spec.containers[" + std::to_string(i) + "]";
    Result<ContainerView> v = ViewContainer(spec.containers(i), field);
    if (!v.ok()) return v.error();
    sum.Add(v->requests);
    sum_cpu = GoAdd(sum_cpu, v->non_zero_cpu);
    sum_mem = GoAdd(sum_mem, v->non_zero_memory);
    for (const k8s::ContainerPort& p : spec.containers(i).ports()) {
      pod->container_ports.push_back(MakeHostPort(p));
    }
  }
  for (int i = 0; i < spec.init_containers_size(); ++i) {
    std::string field = "spec.initContainers[" + std::to_string(i) + "]";
    Result<ContainerView> v = ViewContainer(spec.init_containers(i), field);
    if (!v.ok()) return v.error();
    sum.SetMax(v->requests);
    sum_cpu = std::max(sum_cpu, v->non_zero_cpu);
    sum_mem = std::max(sum_mem, v->non_zero_memory);
  }
  if (!spec.overhead().empty()) {
    Result<Resource> overhead = ParseResourceList(spec.overhead(), "spec.overhead");
    if (!overhead.ok()) return overhead.error();
    sum.Add(*overhead);
    if (spec.overhead().contains("cpu")) sum_cpu = GoAdd(sum_cpu, overhead->milli_cpu);
    if (spec.overhead().contains("memory")) sum_mem = GoAdd(sum_mem, overhead->memory);
  }
  sum.allowed_pod_number = 0;
  pod->requests = std::move(sum);
  pod->non_zero_milli_cpu = sum_cpu;
  pod->non_zero_memory = sum_mem;
  pod->spec_requests = pod->requests;
  pod->score_non_zero_milli_cpu = sum_cpu;
  pod->score_non_zero_memory = sum_mem;
  pod->label_ids = LabelIds(obj.metadata().labels());
  pod->namespace_id = InternLabel(obj.metadata().namespace_());
  pod->obj = std::move(obj);
  return PodPtr(std::move(pod));
}

Result<NodePtr> BuildNode(k8s::Node obj) {
  if (obj.metadata().name().empty()) return Error{"metadata.name: a node needs a name"};
  auto node = std::make_shared<Node>();
  // core/v1 SetDefaults_NodeStatus: allocatable defaults to capacity.
  if (obj.status().allocatable().empty() && !obj.status().capacity().empty()) {
    *obj.mutable_status()->mutable_allocatable() = obj.status().capacity();
  }
  Result<Resource> alloc = ParseResourceList(obj.status().allocatable(), "status.allocatable");
  if (!alloc.ok()) return alloc.error();
  node->allocatable = std::move(*alloc);
  node->label_ids = LabelIds(obj.metadata().labels());
  node->obj = std::move(obj);
  return NodePtr(std::move(node));
}

}  // namespace schedcheck::reference
