#include "reference/api/pod_requests.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "reference/api/objects.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace {

using ProtoList = google::protobuf::Map<std::string, std::string>;

Result<ResourceList> ParseList(const ProtoList& list, const std::string& field) {
  ResourceList out;
  for (const auto& [name, text] : list) {
    Result<int64_t> v = ParseResourceEntry(name, text, field);
    if (!v.ok()) return v.error();
    out[name] = *v;
  }
  return out;
}

// addResourceList: sums, adding names `list` lacks.
void AddResourceList(ResourceList& list, const ResourceList& new_list) {
  for (const auto& [name, quantity] : new_list) {
    auto [it, inserted] = list.emplace(name, quantity);
    if (!inserted) it->second = GoAdd(it->second, quantity);
  }
}

// maxResourceList: per-name maximum, adding names `list` lacks.
void MaxResourceList(ResourceList& list, const ResourceList& new_list) {
  for (const auto& [name, quantity] : new_list) {
    auto [it, inserted] = list.emplace(name, quantity);
    if (!inserted) it->second = std::max(it->second, quantity);
  }
}

ResourceList MaxOf(ResourceList a, const ResourceList& b, const ResourceList& c) {
  MaxResourceList(a, b);
  MaxResourceList(a, c);
  return a;
}

// applyNonMissing: the defaults for the names the container does not request.
ResourceList ApplyNonMissing(ResourceList reqs, const ResourceList& non_missing) {
  for (const auto& [name, quantity] : non_missing) reqs.emplace(name, quantity);
  return reqs;
}

bool IsSupportedPodLevelResource(std::string_view name) {
  return name == kResourceCpu || name == kResourceMemory || name.starts_with("hugepages-");
}

bool IsRestartableInitContainer(const k8s::Container& c) {
  return c.has_restart_policy() && c.restart_policy() == "Always";
}

const k8s::ContainerStatus* FindContainerStatus(const k8s::Pod& pod, const std::string& name,
                                                std::string* field) {
  const auto& s = pod.status();
  for (int i = 0; i < s.container_statuses_size(); ++i) {
    if (s.container_statuses(i).name() == name) {
      *field = "status.containerStatuses[" + std::to_string(i) + "]";
      return &s.container_statuses(i);
    }
  }
  for (int i = 0; i < s.init_container_statuses_size(); ++i) {
    if (s.init_container_statuses(i).name() == name) {
      *field = "status.initContainerStatuses[" + std::to_string(i) + "]";
      return &s.init_container_statuses(i);
    }
  }
  return nullptr;
}

// Which of a container's lists counts: containerSpecRequests, containerAllocatedRequests or
// containerActuatedRequests. proto3 cannot tell a nil ResourceList from an empty one; an empty
// list stands for nil here.
enum class Source { kSpec, kAllocated, kActuated };

Result<ResourceList> ContainerRequests(Source source, const k8s::Container& c,
                                       const std::string& c_field, const k8s::ContainerStatus* cs,
                                       const std::string& cs_field, bool is_resize_infeasible) {
  if (source == Source::kActuated && cs != nullptr && cs->has_resources() &&
      !cs->resources().requests().empty()) {
    return ParseList(cs->resources().requests(), cs_field + ".resources.requests");
  }
  if (source != Source::kSpec && cs != nullptr && !cs->allocated_resources().empty()) {
    return ParseList(cs->allocated_resources(), cs_field + ".allocatedResources");
  }
  if (source != Source::kSpec && is_resize_infeasible) return ResourceList{};
  return ParseList(c.resources().requests(), c_field + ".resources.requests");
}

// aggregateContainerResourcesByFn.
Result<ResourceList> AggregateContainerResources(const k8s::Pod& pod,
                                                 const PodResourcesOptions& opts, Source source) {
  const bool is_resize_infeasible = opts.use_status_resources && IsPodResizeInfeasible(pod);
  auto requests_of = [&](const k8s::Container& c,
                         const std::string& c_field) -> Result<ResourceList> {
    std::string cs_field;
    const k8s::ContainerStatus* cs =
        opts.use_status_resources ? FindContainerStatus(pod, c.name(), &cs_field) : nullptr;
    Result<ResourceList> r =
        ContainerRequests(source, c, c_field, cs, cs_field, is_resize_infeasible);
    if (!r.ok() || opts.non_missing_container_requests.empty()) return r;
    return ApplyNonMissing(std::move(*r), opts.non_missing_container_requests);
  };
  ResourceList result;
  const k8s::PodSpec& spec = pod.spec();
  for (int i = 0; i < spec.containers_size(); ++i) {
    Result<ResourceList> r =
        requests_of(spec.containers(i), "spec.containers[" + std::to_string(i) + "]");
    if (!r.ok()) return r.error();
    AddResourceList(result, *r);
  }
  // A sidecar runs beside everything after it: it adds to the sum and to every later init
  // container's peak; a regular init container peaks at its own request plus the sidecars so far.
  ResourceList restartable_init_container_resources;
  ResourceList init_container_resources;
  for (int i = 0; i < spec.init_containers_size(); ++i) {
    const k8s::Container& c = spec.init_containers(i);
    Result<ResourceList> r = requests_of(c, "spec.initContainers[" + std::to_string(i) + "]");
    if (!r.ok()) return r.error();
    ResourceList container_resources;
    if (IsRestartableInitContainer(c)) {
      AddResourceList(result, *r);
      AddResourceList(restartable_init_container_resources, *r);
      container_resources = restartable_init_container_resources;
    } else {
      container_resources = std::move(*r);
      AddResourceList(container_resources, restartable_init_container_resources);
    }
    MaxResourceList(init_container_resources, container_resources);
  }
  MaxResourceList(result, init_container_resources);
  return result;
}

// AggregateContainerRequests.
Result<ResourceList> AggregateContainerRequests(const k8s::Pod& pod,
                                                const PodResourcesOptions& opts) {
  if (!opts.use_status_resources) return AggregateContainerResources(pod, opts, Source::kSpec);
  Result<ResourceList> spec_reqs = AggregateContainerResources(pod, opts, Source::kSpec);
  if (!spec_reqs.ok()) return spec_reqs.error();
  ResourceList allocated_reqs, actuated_reqs;
  const k8s::PodStatus& status = pod.status();
  if (opts.in_place_pod_level_resources_vertical_scaling_enabled &&
      !status.allocated_resources().empty() && status.has_resources() &&
      !status.resources().requests().empty()) {
    Result<ResourceList> a = ParseList(status.allocated_resources(), "status.allocatedResources");
    if (!a.ok()) return a.error();
    Result<ResourceList> r = ParseList(status.resources().requests(), "status.resources.requests");
    if (!r.ok()) return r.error();
    allocated_reqs = std::move(*a);
    actuated_reqs = std::move(*r);
  } else {
    Result<ResourceList> a = AggregateContainerResources(pod, opts, Source::kAllocated);
    if (!a.ok()) return a.error();
    Result<ResourceList> r = AggregateContainerResources(pod, opts, Source::kActuated);
    if (!r.ok()) return r.error();
    allocated_reqs = std::move(*a);
    actuated_reqs = std::move(*r);
  }
  // A resize the node cannot fit leaves the spec unapplied: only what is allocated counts.
  if (IsPodResizeInfeasible(pod)) return MaxOf(std::move(actuated_reqs), allocated_reqs, {});
  return MaxOf(std::move(*spec_reqs), actuated_reqs, allocated_reqs);
}

}  // namespace

int64_t ValueOf(const ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second;
}

bool IsPodLevelRequestsSet(const k8s::Pod& pod) {
  for (const auto& [name, quantity] : pod.spec().resources().requests()) {
    if (IsSupportedPodLevelResource(name)) return true;
  }
  return false;
}

bool IsPodResizeInfeasible(const k8s::Pod& pod) {
  for (const k8s::PodCondition& c : pod.status().conditions()) {
    if (c.type() == "PodResizePending") return c.reason() == "Infeasible";
  }
  return false;
}

Result<ResourceList> PodRequests(const k8s::Pod& pod, const PodResourcesOptions& opts) {
  Result<ResourceList> reqs = AggregateContainerRequests(pod, opts);
  if (!reqs.ok()) return reqs.error();
  if (!opts.skip_pod_level_resources && IsPodLevelRequestsSet(pod)) {
    Result<ResourceList> effective =
        ParseList(pod.spec().resources().requests(), "spec.resources.requests");
    if (!effective.ok()) return effective.error();
    const k8s::PodStatus& status = pod.status();
    if (opts.in_place_pod_level_resources_vertical_scaling_enabled && opts.use_status_resources &&
        status.has_resources()) {
      // effectivePodLevelResources: max(spec, status requests, allocated); an infeasible resize
      // drops the spec.
      Result<ResourceList> actuated =
          ParseList(status.resources().requests(), "status.resources.requests");
      if (!actuated.ok()) return actuated.error();
      Result<ResourceList> allocated =
          ParseList(status.allocated_resources(), "status.allocatedResources");
      if (!allocated.ok()) return allocated.error();
      ResourceList spec = IsPodResizeInfeasible(pod) ? ResourceList{} : std::move(*effective);
      effective = MaxOf(std::move(spec), *actuated, *allocated);
    }
    // applyPodLevelResources: the pod-level value replaces the containers' aggregate.
    for (const auto& [name, quantity] : *effective) {
      if (IsSupportedPodLevelResource(name)) (*reqs)[name] = quantity;
    }
  }
  if (!pod.spec().overhead().empty()) {
    Result<ResourceList> overhead = ParseList(pod.spec().overhead(), "spec.overhead");
    if (!overhead.ok()) return overhead.error();
    AddResourceList(*reqs, *overhead);
  }
  return reqs;
}

Resource ResourceFromList(const ResourceList& list) {
  Resource r;
  for (const auto& [name, quantity] : list) {
    if (name == kResourceCpu || name == kResourceMemory || name == kResourceEphemeralStorage) {
      r.Set(name, std::max(r.Get(name), quantity));
    } else if (IsScalarResourceName(name)) {
      r.SetScalar(name, std::max(r.Scalar(std::string_view(name)), quantity));
    }
  }
  return r;
}

PodResourceGates PodResourceGatesFrom(const FeatureGates& gates) {
  PodResourceGates out;
  out.pod_level_resources = GateEnabled(gates, kPodLevelResources);
  out.in_place_pod_level_resources_vertical_scaling =
      GateEnabled(gates, kInPlacePodLevelResourcesVerticalScaling);
  return out;
}

PodResourceGates PodResourceGatesOf(const Features& features) {
  return {.pod_level_resources = features.pod_level_resources,
          .in_place_pod_level_resources_vertical_scaling =
              features.in_place_pod_level_resources_vertical_scaling};
}

PodResourcesOptions SchedulerPodResourcesOptions(const PodResourceGates& gates) {
  PodResourcesOptions opts;
  opts.use_status_resources = true;  // InPlacePodVerticalScaling: GA
  opts.in_place_pod_level_resources_vertical_scaling_enabled =
      gates.in_place_pod_level_resources_vertical_scaling;
  opts.skip_pod_level_resources = !gates.pod_level_resources;
  return opts;
}

Result<PodResource> CalculateResource(const k8s::Pod& pod, const PodResourceGates& gates) {
  const PodResourcesOptions opts = SchedulerPodResourcesOptions(gates);
  Result<ResourceList> requests = PodRequests(pod, opts);
  if (!requests.ok()) return requests.error();
  // getNonMissingContainerRequests: without pod-level requests, both defaults; with them, a
  // default only for cpu / memory that neither the containers nor the pod level request.
  ResourceList non_missing;
  const bool pod_level_set = gates.pod_level_resources && IsPodLevelRequestsSet(pod);
  if (!pod_level_set || !requests->contains(kResourceCpu)) {
    non_missing[std::string(kResourceCpu)] = kDefaultMilliCpuRequest;
  }
  if (!pod_level_set || !requests->contains(kResourceMemory)) {
    non_missing[std::string(kResourceMemory)] = kDefaultMemoryRequest;
  }
  ResourceList non0 = *requests;
  if (!non_missing.empty()) {
    PodResourcesOptions with_defaults = opts;
    with_defaults.non_missing_container_requests = std::move(non_missing);
    Result<ResourceList> r = PodRequests(pod, with_defaults);
    if (!r.ok()) return r.error();
    non0 = std::move(*r);
  }
  PodResource out;
  out.resource = ResourceFromList(*requests);
  out.non0_cpu = ValueOf(non0, kResourceCpu);
  out.non0_mem = ValueOf(non0, kResourceMemory);
  return out;
}

}  // namespace schedcheck::reference
