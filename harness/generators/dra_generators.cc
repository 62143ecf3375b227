#include "harness/generators/dra_generators.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/generators/draws.h"
#include "reference/k8s/k8s_json.h"
#include "traces/importers/api_validation.h"

namespace schedcheck::generators {
namespace {

using Json = nlohmann::json;
using draws::Between;
using draws::Chance;
using draws::Index;
using draws::PickStr;

constexpr int64_t kNanos = 1000LL * 1000 * 1000;
constexpr char kGpuDriver[] = "gpu.example.com";
constexpr char kNetDriver[] = "net.example.com";
constexpr char kRack[] = "example.com/rack";
constexpr char kTaintKey[] = "example.com/maintenance";
constexpr char kExtendedResource[] = "example.com/gpu";

// --- the trace state ---------------------------------------------------------------------------

struct Slice {
  Json object;        // the ResourceSlice as last written
  bool gpus = false;  // a node's whole GPUs (updates add or remove one)
  int next_device = 0;
};

struct Claim {
  Json object;
  std::vector<std::string> users;  // live pods naming it
  bool from_template = false;      // made for one pod (deleted with it)
};

struct Pod {
  Json object;
  std::vector<std::string> claims;  // the claims it uses (by name), once they exist
  // Template entries whose claims the trace has not written yet: {entry name, template name}.
  std::vector<std::pair<std::string, std::string>> pending_templates;
};

struct State {
  DraFeatures features;
  int64_t t = 0;
  std::vector<std::string> nodes;
  std::vector<Slice> slices;
  std::vector<Claim> claims;
  std::vector<Pod> pods;                                // live pods
  std::vector<std::pair<std::string, Json>> templates;  // name, the claim spec it makes
  std::vector<std::string> deferred;     // pods whose template claims come at a later event
  std::vector<std::string> classes;      // DeviceClasses that exist
  std::vector<Json> late_classes;        // DeviceClasses claims may name before they exist
  std::vector<std::string> taint_rules;  // live DeviceTaintRules
  int next_node = 0, next_claim = 0, next_pod = 0, next_net = 0, next_rule = 0;
  std::vector<trace::Record> out;
};

// Appends the event: `object` decoded as `kind` into the record. An object the API server's
// validators refuse (the importers', traces/importers/dra_validation.h) or that does not decode is
// a generator bug: the generator fails.
void Emit(State& st, trace::EventType type, const std::string& kind, const Json& object) {
  if (Outcome valid = trace::ValidateTraceObject(object, kind, "generated " + kind); !valid)
    RC_FAIL("DRA generator wrote an object the API server refuses: " + valid.message() + "\n" +
            object.dump());
  trace::Record r;
  r.set_time_ns(st.t * kNanos);
  trace::ApiEvent& api = *r.mutable_api();
  api.set_type(type);
  const std::string where = "generated " + kind;
  Outcome ok = Outcome::Ok();
  auto take = [&](auto result, auto* into) {
    if (!result.ok()) {
      ok = Outcome(Error{result.message()});
      return;
    }
    *into = *result;
  };
  if (kind == "Node") take(k8s::NodeFromJson(object, where), api.mutable_node());
  if (kind == "Pod") take(k8s::PodFromJson(object, where), api.mutable_pod());
  if (kind == "ResourceClaim")
    take(k8s::ResourceClaimFromJson(object, where), api.mutable_resource_claim());
  if (kind == "ResourceClaimTemplate")
    take(k8s::ResourceClaimTemplateFromJson(object, where), api.mutable_resource_claim_template());
  if (kind == "ResourceSlice")
    take(k8s::ResourceSliceFromJson(object, where), api.mutable_resource_slice());
  if (kind == "DeviceClass")
    take(k8s::DeviceClassFromJson(object, where), api.mutable_device_class());
  if (kind == "DeviceTaintRule")
    take(k8s::DeviceTaintRuleFromJson(object, where), api.mutable_device_taint_rule());
  if (!ok) RC_FAIL("DRA generator wrote an object that does not decode: " + ok.message());
  st.out.push_back(std::move(r));
}

Json Meta(const std::string& name, bool namespaced) {
  Json meta = {{"name", name}};
  if (namespaced) meta["namespace"] = "default";
  return meta;
}

Json Cel(const std::string& expression) { return {{"cel", {{"expression", expression}}}}; }

std::string Attr(const std::string& name) {
  return std::string("device.attributes[\"") + kGpuDriver + "\"]." + name;
}

// --- devices and slices ------------------------------------------------------------------------

// A whole GPU: model, NUMA node, index and driver version attributes, and its memory.
Json GpuDevice(const State& st, int index) {
  Json device = {{"name", "gpu-" + std::to_string(index)}};
  const std::string d = std::string(kGpuDriver) + "/";
  device["attributes"] = {
      {d + "model", {{"string", PickStr({"a100", "a100", "t4", "h100"})}}},
      {d + "numa", {{"int", Between(0, 1)}}},
      {d + "index", {{"int", index}}},
      {d + "driverVersion", {{"version", PickStr({"1.2.0", "2.0.1"})}}},
      {d + "profile", {{"string", "whole"}}},
  };
  Json memory = {{"value", PickStr({"16Gi", "40Gi", "80Gi"})}};
  if (st.features.consumable_capacity && Chance(35)) {
    device["allowMultipleAllocations"] = true;
    memory["requestPolicy"] = {{"default", "10Gi"},
                               {"validRange", {{"min", "10Gi"}, {"step", "10Gi"}}}};
  }
  device["capacity"] = {{d + "memory", memory}};
  if (st.features.device_taints && Chance(20)) {
    device["taints"] = Json::array({{{"key", kTaintKey},
                                     {"value", "true"},
                                     {"effect", PickStr({"NoSchedule", "NoExecute"})}}});
  }
  return device;
}

Json SliceObject(const std::string& name, const std::string& driver, const std::string& pool,
                 int generation, int slice_count) {
  return {{"metadata", Meta(name, false)},
          {"spec",
           {{"driver", driver},
            {"pool",
             {{"name", pool}, {"generation", generation}, {"resourceSliceCount", slice_count}}}}}};
}

// The node's whole GPUs (0–4 devices; a node may publish none).
void AddGpuSlice(State& st, const std::string& node) {
  Slice slice;
  slice.gpus = true;
  slice.object = SliceObject(node + "-gpus", kGpuDriver, node, 1, 1);
  slice.object["spec"]["nodeName"] = node;
  Json devices = Json::array();
  const int n = Between(0, 4);
  for (; slice.next_device < n; ++slice.next_device)
    devices.push_back(GpuDevice(st, slice.next_device));
  slice.object["spec"]["devices"] = devices;
  Emit(st, trace::ADDED, "ResourceSlice", slice.object);
  st.slices.push_back(std::move(slice));
}

// A MIG-like pool of the node (two slices): the counter set of one GPU's memory, and a whole
// device and two halves consuming it.
void AddPartitionPool(State& st, const std::string& node) {
  const std::string pool = node + "-mig";
  Slice counters;
  counters.object = SliceObject(pool + "-counters", kGpuDriver, pool, 1, 2);
  counters.object["spec"]["nodeName"] = node;
  counters.object["spec"]["sharedCounters"] =
      Json::array({{{"name", "gpu-0"}, {"counters", {{"memory", {{"value", "40Gi"}}}}}}});
  Slice parts;
  parts.object = SliceObject(pool + "-parts", kGpuDriver, pool, 1, 2);
  parts.object["spec"]["nodeName"] = node;
  const std::string d = std::string(kGpuDriver) + "/";
  Json devices = Json::array();
  for (const auto& [name, profile, memory] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"gpu-0-whole", "whole", "40Gi"},
           {"gpu-0-half-a", "half", "20Gi"},
           {"gpu-0-half-b", "half", "20Gi"}}) {
    devices.push_back(
        {{"name", name},
         {"attributes",
          {{d + "model", {{"string", "a100"}}},
           {d + "profile", {{"string", profile}}},
           {d + "numa", {{"int", 0}}},
           {d + "index", {{"int", 0}}},
           {d + "driverVersion", {{"version", "2.0.1"}}}}},
         {"capacity", {{d + "memory", {{"value", memory}}}}},
         {"consumesCounters", Json::array({{{"counterSet", "gpu-0"},
                                            {"counters", {{"memory", {{"value", memory}}}}}}})}});
  }
  parts.object["spec"]["devices"] = devices;
  Emit(st, trace::ADDED, "ResourceSlice", counters.object);
  Emit(st, trace::ADDED, "ResourceSlice", parts.object);
  st.slices.push_back(std::move(counters));
  st.slices.push_back(std::move(parts));
}

// Network-attached devices: usable on every node or on the nodes of one rack.
void AddNetworkPool(State& st) {
  const std::string name = "net-" + std::to_string(st.next_net++);
  Slice slice;
  slice.object = SliceObject(name, kNetDriver, name, 1, 1);
  if (Chance(50)) {
    slice.object["spec"]["allNodes"] = true;
  } else {
    slice.object["spec"]["nodeSelector"] = {
        {"nodeSelectorTerms",
         Json::array({{{"matchExpressions",
                        Json::array({{{"key", kRack},
                                      {"operator", "In"},
                                      {"values", Json::array({PickStr({"r1", "r2"})})}}})}}})}};
  }
  Json devices = Json::array();
  const int n = Between(1, 3);
  for (int i = 0; i < n; ++i) {
    devices.push_back(
        {{"name", "nic-" + std::to_string(i)},
         {"attributes", {{std::string(kNetDriver) + "/speed", {{"int", Between(1, 2) * 100}}}}}});
  }
  slice.object["spec"]["devices"] = devices;
  Emit(st, trace::ADDED, "ResourceSlice", slice.object);
  st.slices.push_back(std::move(slice));
}

void AddNode(State& st) {
  const std::string name = "n" + std::to_string(st.next_node++);
  Json labels = {{"kubernetes.io/hostname", name}, {kRack, PickStr({"r1", "r2"})}};
  Json allocatable = {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}};
  // A device plugin's extended resource on some nodes: there NodeResourcesFit decides, elsewhere
  // the DeviceClass that backs it.
  if (st.features.extended_resources && Chance(25)) allocatable[kExtendedResource] = "2";
  Emit(st, trace::ADDED, "Node",
       {{"metadata", {{"name", name}, {"labels", labels}}},
        {"status", {{"allocatable", allocatable}, {"capacity", allocatable}}}});
  st.nodes.push_back(name);
  AddGpuSlice(st, name);
  if (st.features.partitions && Chance(50)) AddPartitionPool(st, name);
}

// --- classes, requests, claims -----------------------------------------------------------------

Json ClassObject(const std::string& name, const std::vector<std::string>& expressions) {
  Json selectors = Json::array();
  for (const std::string& e : expressions) selectors.push_back(Cel(e));
  return {{"metadata", Meta(name, false)}, {"spec", {{"selectors", selectors}}}};
}

void AddClasses(State& st) {
  const std::string gpu = std::string("device.driver == \"") + kGpuDriver + "\"";
  std::vector<Json> classes = {ClassObject("gpu", {gpu})};
  classes.push_back(ClassObject("nic", {std::string("device.driver == \"") + kNetDriver + "\""}));
  classes.push_back(
      ClassObject("gpu-large", {gpu, std::string("device.capacity[\"") + kGpuDriver +
                                         "\"].memory.compareTo(quantity(\"40Gi\")) >= 0"}));
  classes.push_back(ClassObject("a100", {gpu + " && " + Attr("model") + " == \"a100\""}));
  for (size_t i = 0; i < classes.size(); ++i) {
    // "gpu" always exists from the start; the others sometimes only later (a claim naming a
    // class that does not exist yet is unschedulable until its DeviceClass add requeues it).
    if (i == 0 || Chance(75)) {
      Emit(st, trace::ADDED, "DeviceClass", classes[i]);
      st.classes.push_back(classes[i]["metadata"]["name"]);
    } else {
      st.late_classes.push_back(classes[i]);
    }
  }
  if (st.features.extended_resources) {
    Json ext = ClassObject("gpu-ext", {gpu});
    ext["spec"]["extendedResourceName"] = kExtendedResource;
    Emit(st, trace::ADDED, "DeviceClass", ext);
    st.classes.push_back("gpu-ext");
  }
}

std::string AnyClassName(const State& st) {
  std::vector<std::string> names = st.classes;
  for (const Json& c : st.late_classes) names.push_back(c["metadata"]["name"]);
  return PickStr(names);
}

// Selectors a request adds to its class's: attribute, capacity and version comparisons. Every
// GPU has the attributes they read, except the rare selector on "vendor", which no device
// has: CEL's runtime error ("no such key") is then the allocator's error for the pod.
Json RequestSelectors(const State& st) {
  Json selectors = Json::array();
  if (Chance(2)) selectors.push_back(Cel(Attr("vendor") + " == \"example\""));
  if (!Chance(40)) return selectors;
  std::vector<std::string> expressions = {
      Attr("model") + " == \"a100\"", Attr("model") + " != \"t4\"", Attr("index") + " < 2",
      std::string("device.capacity[\"") + kGpuDriver +
          "\"].memory.compareTo(quantity(\"20Gi\")) > 0",
      Attr("driverVersion") + ".isGreaterThan(semver(\"1.5.0\"))"};
  if (st.features.partitions) {
    expressions.push_back(Attr("profile") + " == \"half\"");
    expressions.push_back(Attr("profile") + " == \"whole\"");
  }
  selectors.push_back(Cel(PickStr(expressions)));
  return selectors;
}

// The fields a request or sub-request shares: class, selectors, count or All, tolerations,
// capacity (GPU selectors and capacity only for a class other than "nic").
Json RequestBody(const State& st, const std::string& class_name) {
  Json body = {{"deviceClassName", class_name}};
  const bool gpu = class_name != "nic";
  if (gpu) {
    Json selectors = RequestSelectors(st);
    if (!selectors.empty()) body["selectors"] = selectors;
  }
  const int mode = Between(0, 9);
  if (mode == 0) {
    body["allocationMode"] = "All";
  } else if (mode <= 3) {
    body["allocationMode"] = "ExactCount";
    body["count"] = Between(1, 3);
  }  // else: the API server's defaults (ExactCount, 1)
  if (st.features.device_taints && Chance(30)) {
    Json toleration = {{"key", kTaintKey}, {"operator", "Exists"}};
    if (Chance(60)) toleration["effect"] = PickStr({"NoSchedule", "NoExecute"});
    body["tolerations"] = Json::array({toleration});
  }
  if (st.features.consumable_capacity && gpu && mode != 0 && Chance(40)) {
    body["capacity"] = {
        {"requests", {{std::string(kGpuDriver) + "/memory", PickStr({"10Gi", "20Gi"})}}}};
  }
  return body;
}

// A claim spec: 1–2 requests, sometimes a matchAttribute constraint on the GPUs' NUMA node.
Json ClaimSpec(const State& st) {
  Json requests = Json::array();
  std::vector<std::string> gpu_requests;
  const int n = Chance(70) ? 1 : 2;
  for (int i = 0; i < n; ++i) {
    const std::string name = i == 0 ? "dev" : "extra";
    Json request = {{"name", name}};
    if (st.features.prioritized_lists && Chance(30)) {
      Json subs = Json::array();
      const int k = Between(2, 3);
      for (int j = 0; j < k; ++j) {
        Json sub = RequestBody(st, j + 1 == k ? "gpu" : AnyClassName(st));
        sub["name"] = "alt" + std::to_string(j);
        subs.push_back(sub);
      }
      request["firstAvailable"] = subs;
    } else {
      const std::string class_name = AnyClassName(st);
      request["exactly"] = RequestBody(st, class_name);
      if (class_name != "nic") gpu_requests.push_back(name);
    }
    requests.push_back(request);
  }
  Json devices = {{"requests", requests}};
  if (!gpu_requests.empty() && Chance(30)) {
    devices["constraints"] = Json::array(
        {{{"requests", gpu_requests}, {"matchAttribute", std::string(kGpuDriver) + "/numa"}}});
  }
  return {{"devices", devices}};
}

Claim* FindClaim(State& st, const std::string& name) {
  for (Claim& c : st.claims) {
    if (c.object["metadata"]["name"] == name) return &c;
  }
  return nullptr;
}

void AddTemplate(State& st) {
  const std::string name = "tmpl-" + std::to_string(st.templates.size());
  Json object = {{"metadata", Meta(name, true)}, {"spec", {{"spec", ClaimSpec(st)}}}};
  Emit(st, trace::ADDED, "ResourceClaimTemplate", object);
  st.templates.emplace_back(name, object["spec"]["spec"]);
}

// The ResourceClaim controller's writes for pod `p`'s template entries: each claim (the
// template's spec, owned by the pod), then the pod with status.resourceClaimStatuses.
void MaterializeTemplates(State& st, Pod& p) {
  const std::string pod = p.object["metadata"]["name"];
  Json statuses = Json::array();
  for (size_t i = 0; i < p.pending_templates.size(); ++i) {
    const auto& [entry, tmpl] = p.pending_templates[i];
    const std::string name = pod + "-" + entry + "-x" + std::to_string(st.next_claim++);
    Json meta = Meta(name, true);
    meta["annotations"] = {{"resource.kubernetes.io/pod-claim-name", entry}};
    meta["ownerReferences"] = Json::array({{{"apiVersion", "v1"},
                                            {"kind", "Pod"},
                                            {"name", pod},
                                            {"uid", "uid-" + pod},
                                            {"controller", true}}});
    Json spec;
    for (const auto& [t, t_spec] : st.templates) {
      if (t == tmpl) spec = t_spec;
    }
    Claim claim{{{"metadata", meta}, {"spec", spec}}, {pod}, true};
    Emit(st, trace::ADDED, "ResourceClaim", claim.object);
    st.claims.push_back(std::move(claim));
    p.claims.push_back(name);
    statuses.push_back({{"name", entry}, {"resourceClaimName", name}});
  }
  p.object["status"]["resourceClaimStatuses"] = statuses;
  p.pending_templates.clear();
}

// --- pods ----------------------------------------------------------------------------------------

// A claim an earlier pod created (shared, as a Job's pods share one), not made from a template
// and not one `taken` by this pod already; nullptr when there is none.
Claim* SharableClaim(State& st, const std::vector<std::string>& taken) {
  std::vector<Claim*> candidates;
  for (Claim& c : st.claims) {
    const std::string name = c.object["metadata"]["name"];
    if (!c.from_template && std::find(taken.begin(), taken.end(), name) == taken.end())
      candidates.push_back(&c);
  }
  return candidates.empty() ? nullptr : candidates[Index(candidates.size())];
}

// A pod asking for example.com/gpu in its container resources (the DeviceClass gpu-ext backs
// it where no node lists it as allocatable).
void AddExtendedResourcePod(State& st, const std::string& name) {
  const std::string count = PickStr({"1", "1", "2"});
  Pod p;
  p.object = {
      {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
      {"spec",
       {{"containers", Json::array({{{"name", "c"},
                                     {"image", "app"},
                                     {"resources",
                                      {{"requests", {{"cpu", "1"}, {kExtendedResource, count}}},
                                       {"limits", {{kExtendedResource, count}}}}}}})}}}};
  Emit(st, trace::ADDED, "Pod", p.object);
  st.pods.push_back(std::move(p));
}

// A pod with 1–2 claims: its own (written just before it), one an earlier pod created, or one
// from a template (the controller's writes with the pod, later, or never).
void AddPod(State& st) {
  const std::string name = "p" + std::to_string(st.next_pod++);
  if (st.features.extended_resources && Chance(20)) return AddExtendedResourcePod(st, name);
  Pod p;
  Json entries = Json::array();
  Json container_claims = Json::array();
  const int n = Chance(75) ? 1 : 2;
  for (int i = 0; i < n; ++i) {
    const std::string entry = i == 0 ? "gpu" : "more";
    const int kind = Between(0, 99);
    Claim* shared = kind < 25 ? SharableClaim(st, p.claims) : nullptr;
    if (!st.templates.empty() && kind >= 75) {
      const std::string tmpl = st.templates[Index(st.templates.size())].first;
      entries.push_back({{"name", entry}, {"resourceClaimTemplateName", tmpl}});
      p.pending_templates.emplace_back(entry, tmpl);
    } else if (shared != nullptr) {
      const std::string claim = shared->object["metadata"]["name"];
      entries.push_back({{"name", entry}, {"resourceClaimName", claim}});
      shared->users.push_back(name);
      p.claims.push_back(claim);
    } else {
      const std::string claim = "c" + std::to_string(st.next_claim++);
      Claim c{{{"metadata", Meta(claim, true)}, {"spec", ClaimSpec(st)}}, {name}, false};
      Emit(st, trace::ADDED, "ResourceClaim", c.object);
      st.claims.push_back(std::move(c));
      entries.push_back({{"name", entry}, {"resourceClaimName", claim}});
      p.claims.push_back(claim);
    }
    if (Chance(50)) container_claims.push_back({{"name", entry}});
  }
  Json resources = {{"requests", {{"cpu", PickStr({"500m", "1", "2"})}}}};
  if (!container_claims.empty()) resources["claims"] = container_claims;
  p.object = {
      {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
      {"spec",
       {{"containers", Json::array({{{"name", "c"}, {"image", "app"}, {"resources", resources}}})},
        {"resourceClaims", entries}}}};
  const int when = Between(0, 9);  // the template claims: 0–3 with the pod, 4–7 later, 8–9 never
  if (!p.pending_templates.empty() && when < 4) MaterializeTemplates(st, p);
  Emit(st, trace::ADDED, "Pod", p.object);
  if (!p.pending_templates.empty() && when < 8) st.deferred.push_back(name);
  st.pods.push_back(std::move(p));
}

Pod* FindPod(State& st, const std::string& name) {
  for (Pod& p : st.pods) {
    if (p.object["metadata"]["name"] == name) return &p;
  }
  return nullptr;
}

// The controller's deferred writes, each pending pod with even odds at this instant.
void MaterializeDeferred(State& st) {
  std::vector<std::string> still;
  for (const std::string& name : st.deferred) {
    Pod* p = FindPod(st, name);
    if (p == nullptr) continue;
    if (!Chance(60)) {
      still.push_back(name);
      continue;
    }
    MaterializeTemplates(st, *p);
    Emit(st, trace::MODIFIED, "Pod", p->object);
  }
  st.deferred = std::move(still);
}

// A pod deleted, then the controller's part: a claim nobody uses any more is deallocated (an
// update without status), or deleted when it was made from a template for this pod.
void DeletePod(State& st) {
  if (st.pods.empty()) return AddPod(st);
  const size_t i = Index(st.pods.size());
  Pod p = std::move(st.pods[i]);
  st.pods.erase(st.pods.begin() + static_cast<std::ptrdiff_t>(i));
  const std::string name = p.object["metadata"]["name"];
  Emit(st, trace::DELETED, "Pod", p.object);
  for (const std::string& claim_name : p.claims) {
    Claim* c = FindClaim(st, claim_name);
    if (c == nullptr) continue;
    c->users.erase(std::remove(c->users.begin(), c->users.end(), name), c->users.end());
    if (!c->users.empty()) continue;
    if (c->from_template) {
      Emit(st, trace::DELETED, "ResourceClaim", c->object);
      st.claims.erase(st.claims.begin() + (c - st.claims.data()));
    } else {
      Emit(st, trace::MODIFIED, "ResourceClaim", c->object);
    }
  }
}

// --- slices, classes, taint rules over time ------------------------------------------------------

// A node's GPUs republished: one added or one removed, the pool's generation bumped.
void UpdateGpuSlice(State& st) {
  std::vector<Slice*> gpus;
  for (Slice& s : st.slices) {
    if (s.gpus) gpus.push_back(&s);
  }
  if (gpus.empty()) return AddPod(st);
  Slice& s = *gpus[Index(gpus.size())];
  Json& spec = s.object["spec"];
  spec["pool"]["generation"] = spec["pool"]["generation"].get<int>() + 1;
  Json& devices = spec["devices"];
  if (devices.empty() || Chance(60)) {
    devices.push_back(GpuDevice(st, s.next_device++));
  } else {
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(Index(devices.size())));
  }
  Emit(st, trace::MODIFIED, "ResourceSlice", s.object);
}

void DeleteSlice(State& st) {
  if (st.slices.empty()) return AddPod(st);
  const size_t i = Index(st.slices.size());
  Emit(st, trace::DELETED, "ResourceSlice", st.slices[i].object);
  st.slices.erase(st.slices.begin() + static_cast<std::ptrdiff_t>(i));
}

void AddLateClass(State& st) {
  if (st.late_classes.empty()) return AddPod(st);
  Json c = st.late_classes.front();
  st.late_classes.erase(st.late_classes.begin());
  Emit(st, trace::ADDED, "DeviceClass", c);
  st.classes.push_back(c["metadata"]["name"]);
}

// A DeviceTaintRule tainting one node's GPUs (or one of them), or an earlier rule deleted.
void ChangeTaintRules(State& st) {
  if (!st.taint_rules.empty() && Chance(40)) {
    const size_t i = Index(st.taint_rules.size());
    Emit(st, trace::DELETED, "DeviceTaintRule",
         {{"metadata", Meta(st.taint_rules[i], false)},
          {"spec", {{"taint", {{"key", kTaintKey}, {"effect", "NoSchedule"}}}}}});
    st.taint_rules.erase(st.taint_rules.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  const std::string name = "rule-" + std::to_string(st.next_rule++);
  Json selector = {{"driver", kGpuDriver}, {"pool", PickStr(st.nodes)}};
  if (Chance(40)) selector["device"] = "gpu-0";
  Emit(st, trace::ADDED, "DeviceTaintRule",
       {{"metadata", Meta(name, false)},
        {"spec",
         {{"deviceSelector", selector},
          {"taint", {{"key", kTaintKey}, {"value", "true"}, {"effect", "NoSchedule"}}}}}});
  st.taint_rules.push_back(name);
}

}  // namespace

DraFeatures DraFeatures::All() { return {true, true, true, true, true}; }

std::string DraFeatures::Names() const {
  std::string out;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!out.empty()) out += ",";
    out += name;
  };
  add(partitions, "partitions");
  add(consumable_capacity, "consumable-capacity");
  add(device_taints, "device-taints");
  add(prioritized_lists, "prioritized-lists");
  add(extended_resources, "extended-resources");
  return out.empty() ? "base" : out;
}

Result<DraFeatures> ParseDraFeatures(std::string_view names) {
  if (names == "all") return DraFeatures::All();
  DraFeatures f;
  size_t start = 0;
  while (start <= names.size()) {
    const size_t end = std::min(names.find(',', start), names.size());
    const std::string_view name = names.substr(start, end - start);
    if (name == "partitions") {
      f.partitions = true;
    } else if (name == "consumable-capacity") {
      f.consumable_capacity = true;
    } else if (name == "device-taints") {
      f.device_taints = true;
    } else if (name == "prioritized-lists") {
      f.prioritized_lists = true;
    } else if (name == "extended-resources") {
      f.extended_resources = true;
    } else if (name != "base") {
      return Error{"unknown DRA generator switch \"" + std::string(name) +
                   "\" (known: base, partitions, consumable-capacity, device-taints, "
                   "prioritized-lists, extended-resources, all)"};
    }
    start = end + 1;
  }
  return f;
}

rc::Gen<WideScenario> DraScenarioGen(DraFeatures features) {
  return rc::gen::exec([features] {
    State st;
    st.features = features;
    AddClasses(st);
    for (int i = Between(2, 4); i > 0; --i) AddNode(st);
    for (int i = Between(0, 2); i > 0; --i) AddNetworkPool(st);
    for (int i = Between(0, 2); i > 0; --i) AddTemplate(st);
    for (int i = Between(4, 18); i > 0; --i) {
      st.t = std::max<int64_t>(st.t + Between(0, 2), 1);
      MaterializeDeferred(st);
      const int roll = Between(0, 99);
      if (roll < 50) {
        AddPod(st);
      } else if (roll < 62) {
        DeletePod(st);
      } else if (roll < 74) {
        UpdateGpuSlice(st);
      } else if (roll < 78) {
        DeleteSlice(st);
      } else if (roll < 83) {
        AddNode(st);
      } else if (roll < 87 && st.next_net < 3) {
        AddNetworkPool(st);
      } else if (roll < 92) {
        AddLateClass(st);
      } else if (st.features.device_taints) {
        ChangeTaintRules(st);
      } else {
        AddPod(st);
      }
    }
    return WideScenario{std::move(st.out)};
  });
}

}  // namespace schedcheck::generators
