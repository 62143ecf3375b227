#include "reference/api/objects.h"

#include <map>

#include "reference/api/quantity.h"

namespace schedcheck::reference {
namespace {

// Kubernetes' ResourceList iterates in key order; we do the same so errors are deterministic.
std::map<std::string, std::string> Sorted(
    const google::protobuf::Map<std::string, std::string>& list) {
  return {list.begin(), list.end()};
}

// A ResourceList as exact values in nano-units, by resource name (the names Resource keeps).
using NanoList = std::map<std::string, __int128>;

bool KeptResourceName(const std::string& name) {
  return name == kResourceCpu || name == kResourceMemory || name == kResourceEphemeralStorage ||
         name == kResourcePods || IsScalarResourceName(name);
}

Result<NanoList> ParseNanoList(const google::protobuf::Map<std::string, std::string>& list, const std::string& field) {
  NanoList out;
  for (const auto& [name, text] : Sorted(list)) {
    Result<Quantity> q = Quantity::Parse(text);
    if (!q.ok()) return Error{field + "." + name + ": " + q.message()};
    if (KeptResourceName(name)) out[name] = q->Nanos();
  }
  return out;
}

// PodRequests' sums are exact (resource.Quantity.Add); the scheduler rounds once, when it reads
// the pod's total (MilliValue for cpu, Value otherwise).
Resource ResourceOfNanos(const NanoList& list) {
  Resource r;
  for (const auto& [name, nanos] : list) r.Set(name, ResourceValueOfNanos(name, nanos));
  return r;
}

struct ContainerView {
  NanoList requests;
  int64_t non_zero_cpu = 0;
  int64_t non_zero_memory = 0;
};

Result<ContainerView> ViewContainer(const k8s::Container& c, const std::string& field) {
  Result<NanoList> r = ParseNanoList(c.resources().requests(), field + ".resources.requests");
  if (!r.ok()) return r.error();
  ContainerView v;
  v.requests = std::move(*r);
  // The scoring view rounds each container on its own (GetNonzeroRequests per container).
  const Resource rounded = ResourceOfNanos(v.requests);
  const auto& req = c.resources().requests();
  v.non_zero_cpu = req.contains("cpu") ? rounded.milli_cpu : kDefaultMilliCpuRequest;
  v.non_zero_memory = req.contains("memory") ? rounded.memory : kDefaultMemoryRequest;
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

void ApplyApiDefaults(k8s::PodSpec* spec) {
  for (k8s::Container& c : *spec->mutable_containers()) DefaultRequestsFromLimits(&c);
  for (k8s::Container& c : *spec->mutable_init_containers()) DefaultRequestsFromLimits(&c);
}

}  // namespace

Result<Resource> ParseResourceList(const google::protobuf::Map<std::string, std::string>& list,
                                   const std::string& field) {
  Resource r;
  for (const auto& [name, text] : Sorted(list)) {
    Result<int64_t> v = ParseResourceQuantity(name, text);
    if (!v.ok()) return Error{field + "." + name + ": " + v.message()};
    if (name == kResourceCpu || name == kResourceMemory || name == kResourceEphemeralStorage ||
        name == kResourcePods || IsScalarResourceName(name)) {
      r.Set(name, *v);
    }
  }
  return r;
}

Result<PodPtr> BuildPod(k8s::Pod obj) {
  auto pod = std::make_shared<Pod>();
  k8s::ObjectMeta* meta = obj.mutable_metadata();
  if (meta->name().empty()) return Error{"metadata.name: a pod needs a name"};
  if (meta->namespace_().empty()) meta->set_namespace_("default");
  if (meta->uid().empty()) meta->set_uid(meta->namespace_() + "/" + meta->name());
  if (obj.spec().scheduler_name().empty()) {
    obj.mutable_spec()->set_scheduler_name(std::string(kDefaultSchedulerName));
  }
  ApplyApiDefaults(obj.mutable_spec());
  pod->key = meta->namespace_() + "/" + meta->name();
  pod->priority = obj.spec().has_priority() ? obj.spec().priority() : 0;

  const k8s::PodSpec& spec = obj.spec();
  NanoList sum;  // exact, as resourcehelper.PodRequests sums
  int64_t sum_cpu = 0, sum_mem = 0;
  for (int i = 0; i < spec.containers_size(); ++i) {
    std::string field = "spec.containers[" + std::to_string(i) + "]";
    Result<ContainerView> v = ViewContainer(spec.containers(i), field);
    if (!v.ok()) return v.error();
    for (const auto& [name, nanos] : v->requests) sum[name] += nanos;
    sum_cpu += v->non_zero_cpu;
    sum_mem += v->non_zero_memory;
    for (const k8s::ContainerPort& p : spec.containers(i).ports()) {
      pod->container_ports.push_back(HostPort{p.host_ip().empty() ? "0.0.0.0" : p.host_ip(),
                                              p.protocol().empty() ? "TCP" : p.protocol(),
                                              p.host_port()});
    }
  }
  for (int i = 0; i < spec.init_containers_size(); ++i) {
    std::string field = "spec.initContainers[" + std::to_string(i) + "]";
    Result<ContainerView> v = ViewContainer(spec.init_containers(i), field);
    if (!v.ok()) return v.error();
    // maxResourceList: every resource the init container names is entered, zero included.
    for (const auto& [name, nanos] : v->requests) {
      auto it = sum.find(name);
      if (it == sum.end() || nanos > it->second) sum[name] = nanos;
    }
    sum_cpu = std::max(sum_cpu, v->non_zero_cpu);
    sum_mem = std::max(sum_mem, v->non_zero_memory);
  }
  if (!spec.overhead().empty()) {
    Result<NanoList> overhead = ParseNanoList(spec.overhead(), "spec.overhead");
    if (!overhead.ok()) return overhead.error();
    for (const auto& [name, nanos] : *overhead) sum[name] += nanos;
    // calculateResource adds the overhead to the scoring view rounded on its own.
    const Resource rounded = ResourceOfNanos(*overhead);
    if (spec.overhead().contains("cpu")) sum_cpu += rounded.milli_cpu;
    if (spec.overhead().contains("memory")) sum_mem += rounded.memory;
  }
  Resource requests = ResourceOfNanos(sum);
  requests.allowed_pod_number = 0;
  pod->requests = std::move(requests);
  pod->non_zero_milli_cpu = sum_cpu;
  pod->non_zero_memory = sum_mem;
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
