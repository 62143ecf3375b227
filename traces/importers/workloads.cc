#include "traces/importers/workloads.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "reference/api/selectors.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;

// rand.SafeEncodeString's alphabet (no vowels, no confusable digits).
constexpr std::string_view kSafeAlphabet = "bcdfghjklmnpqrstvwxz2456789";

std::string Str(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

const Json& Field(const Json& obj, const char* key) {
  static const Json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

// A count field (replicas, parallelism, ...): an integer in [0, kMaxWorkloadPods], `fallback`
// when absent or null.
Result<int64_t> Count(const Json& spec, const char* key, int64_t fallback,
                      const std::string& where) {
  const Json& v = Field(spec, key);
  std::string field = where + ": field spec." + key;
  if (v.is_null()) return fallback;
  if (!v.is_number() || (v.is_number_float() && v.get<double>() != std::floor(v.get<double>()))) {
    // replace: a string value with invalid UTF-8 must not make dump() throw.
    return Error{field + ": expected an integer, got " +
                 v.dump(-1, ' ', false, Json::error_handler_t::replace)};
  }
  double n = v.get<double>();
  if (n < 0) return Error{field + ": must not be negative, got " + v.dump()};
  if (n > static_cast<double>(kMaxWorkloadPods)) {
    return Error{field + ": " + v.dump() + " pods is more than the limit of " +
                 std::to_string(kMaxWorkloadPods) +
                 " per workload (kMaxWorkloadPods, traces/importers/workloads.h)"};
  }
  return static_cast<int64_t>(n);
}

// An expansion to `objects` objects (`field` gives their number) has no room under the limit.
Error NoRoom(const std::string& field, int64_t objects, const RecordRoom& room) {
  const char* unit = room.limit_name == "records" ? " records" : " objects";
  return Error{field + ": expands to " + std::to_string(objects) + " objects, more than the " +
               std::to_string(room.left) + unit + " left under the limit " + room.limit_name + "=" +
               std::to_string(room.limit) + " (raise it with --limit " + room.limit_name + "=N)"};
}

// fnv-32a over `text`, printed in decimal and re-encoded character by character in the safe
// alphabet: the shape of upstream's ComputeHash (which hashes the Go struct dump instead, so the
// values differ from a real cluster's).
std::string TemplateHash(const Json& tmpl) {
  uint32_t h = 2166136261u;
  // nlohmann objects are key-sorted: a canonical text. `replace`: invalid UTF-8 in the input made
  // dump() throw type_error 316 (manifests_fuzzer finding).
  for (unsigned char c : tmpl.dump(-1, ' ', false, Json::error_handler_t::replace)) {
    h ^= c;
    h *= 16777619u;
  }
  std::string out;
  for (char c : std::to_string(h))
    out += kSafeAlphabet[static_cast<unsigned char>(c) % kSafeAlphabet.size()];
  return out;
}

struct Owner {
  std::string api_version, kind, name, uid;
};

// A pod from `tmpl` (a PodTemplateSpec) in namespace `ns` named `name`, owned by `owner`.
Json NewPod(const Json& tmpl, const std::string& ns, const std::string& name, const Owner* owner) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", Json::object()},
              {"spec", Json::object()}};
  const Json& meta = Field(tmpl, "metadata");
  for (const char* key : {"labels", "annotations"}) {
    if (Field(meta, key).is_object()) pod["metadata"][key] = meta[key];
  }
  pod["metadata"]["name"] = name;
  if (!ns.empty()) pod["metadata"]["namespace"] = ns;
  if (owner != nullptr) {
    // Upstream also sets blockOwnerDeletion, which the trace does not hold.
    Json ref = {{"apiVersion", owner->api_version},
                {"kind", owner->kind},
                {"name", owner->name},
                {"controller", true}};
    if (!owner->uid.empty()) ref["uid"] = owner->uid;
    pod["metadata"]["ownerReferences"] = Json::array({ref});
  }
  if (Field(tmpl, "spec").is_object()) pod["spec"] = tmpl["spec"];
  return pod;
}

Owner OwnerOf(const Json& workload, const char* api_version) {
  const Json& meta = Field(workload, "metadata");
  return Owner{api_version, Str(workload, "kind"), Str(meta, "name"), Str(meta, "uid")};
}

std::string Namespace(const Json& workload) {
  return Str(Field(workload, "metadata"), "namespace");
}

Result<Json> Template(const Json& workload, const std::string& where) {
  const Json& tmpl = Field(Field(workload, "spec"), "template");
  if (!tmpl.is_object()) return Error{where + ": field spec.template: expected an object"};
  return tmpl;
}

Outcome NeedName(const Json& workload, const std::string& where) {
  if (Str(Field(workload, "metadata"), "name").empty())
    return Error{where + ": field metadata.name: missing"};
  return Outcome::Ok();
}

void SetLabel(Json& tmpl, const std::string& key, const std::string& value) {
  if (!Field(tmpl, "metadata").is_object()) tmpl["metadata"] = Json::object();
  if (!Field(tmpl["metadata"], "labels").is_object()) tmpl["metadata"]["labels"] = Json::object();
  tmpl["metadata"]["labels"][key] = value;
}

// ReplicaSet and ReplicationController: replicas pods with generated names.
Result<std::vector<Json>> ExpandReplicas(const Json& workload, const std::string& where,
                                         const char* api_version, const RecordRoom& room) {
  auto tmpl = Template(workload, where);
  if (!tmpl.ok()) return tmpl.error();
  auto replicas = Count(Field(workload, "spec"), "replicas", 1, where);
  if (!replicas.ok()) return replicas.error();
  if (*replicas > room.left) return NoRoom(where + ": field spec.replicas", *replicas, room);
  Owner owner = OwnerOf(workload, api_version);
  std::vector<Json> out;
  for (int64_t i = 0; i < *replicas; ++i) {
    out.push_back(
        NewPod(*tmpl, Namespace(workload), owner.name + "-" + GeneratedSuffix(i), &owner));
  }
  return out;
}

// Deployment: its ReplicaSet (the deployment controller's getNewReplicaSet), then the pods.
Result<std::vector<Json>> ExpandDeployment(const Json& d, const std::string& where,
                                           const RecordRoom& room) {
  auto tmpl = Template(d, where);
  if (!tmpl.ok()) return tmpl.error();
  auto replicas = Count(Field(d, "spec"), "replicas", 1, where);
  if (!replicas.ok()) return replicas.error();
  if (*replicas + 1 > room.left)
    return NoRoom(where + ": field spec.replicas", *replicas + 1, room);
  const std::string hash = TemplateHash(*tmpl);
  const Json& meta = Field(d, "metadata");
  Json rs = {{"apiVersion", "apps/v1"},
             {"kind", "ReplicaSet"},
             {"metadata", Json::object()},
             {"spec", Json::object()}};
  rs["metadata"]["name"] = Str(meta, "name") + "-" + hash;
  if (!Namespace(d).empty()) rs["metadata"]["namespace"] = Namespace(d);
  Json owner = {{"apiVersion", "apps/v1"},
                {"kind", "Deployment"},
                {"name", Str(meta, "name")},
                {"controller", true}};
  if (!Str(meta, "uid").empty()) owner["uid"] = Str(meta, "uid");
  rs["metadata"]["ownerReferences"] = Json::array({owner});
  Json rs_tmpl = *tmpl;
  SetLabel(rs_tmpl, "pod-template-hash", hash);
  if (Field(rs_tmpl["metadata"], "labels").is_object())
    rs["metadata"]["labels"] = rs_tmpl["metadata"]["labels"];
  Json selector = Field(d["spec"], "selector");
  if (selector.is_object()) {
    if (!Field(selector, "matchLabels").is_object()) selector["matchLabels"] = Json::object();
    selector["matchLabels"]["pod-template-hash"] = hash;
    rs["spec"]["selector"] = selector;
  }
  if (!Field(d["spec"], "replicas").is_null()) rs["spec"]["replicas"] = d["spec"]["replicas"];
  rs["spec"]["template"] = rs_tmpl;
  RecordRoom after_replica_set = room;
  --after_replica_set.left;
  auto pods = ExpandReplicas(rs, where, "apps/v1", after_replica_set);
  if (!pods.ok()) return pods.error();
  std::vector<Json> out{rs};
  for (Json& p : *pods) out.push_back(std::move(p));
  return out;
}

// A StatefulSet's volumeClaimTemplates, checked: a list (absent: none) of objects with a name.
Result<std::vector<const Json*>> ClaimTemplates(const Json& set, const std::string& where) {
  const Json& claims = Field(Field(set, "spec"), "volumeClaimTemplates");
  std::vector<const Json*> out;
  if (claims.is_null()) return out;
  if (!claims.is_array())
    return Error{where + ": field spec.volumeClaimTemplates: expected a list"};
  for (size_t i = 0; i < claims.size(); ++i) {
    if (Str(Field(claims[i], "metadata"), "name").empty()) {
      return Error{where + ": field spec.volumeClaimTemplates[" + std::to_string(i) +
                   "].metadata.name: missing"};
    }
    out.push_back(&claims[i]);
  }
  return out;
}

// getPersistentVolumeClaimName: "<template>-<set>-<ordinal>".
std::string ClaimName(const Json& claim_template, const std::string& set, int64_t ordinal) {
  return Str(Field(claim_template, "metadata"), "name") + "-" + set + "-" + std::to_string(ordinal);
}

// updateStorage: one PVC volume per claim template (replacing a template volume of that name),
// in claim template order, then the template's other volumes.
void AddClaimVolumes(const std::vector<const Json*>& templates, const std::string& set,
                     int64_t ordinal, Json& pod) {
  if (templates.empty()) return;
  Json volumes = Json::array();
  std::set<std::string> claimed;
  for (const Json* t : templates) {
    std::string name = Str(Field(*t, "metadata"), "name");
    claimed.insert(name);
    volumes.push_back(
        {{"name", name}, {"persistentVolumeClaim", {{"claimName", ClaimName(*t, set, ordinal)}}}});
  }
  if (Field(pod["spec"], "volumes").is_array()) {
    for (const Json& v : pod["spec"]["volumes"]) {
      if (!claimed.count(Str(v, "name"))) volumes.push_back(v);
    }
  }
  pod["spec"]["volumes"] = volumes;
}

// getPersistentVolumeClaims (v1.27 stateful_set_utils.go): the template's metadata and spec, its
// name made per pod, the set's namespace, and the selector's matchLabels written over the
// template's labels. The API server clears a new claim's status (PrepareForCreate), so a template's
// status is dropped; ownerReferences come only later, from the retention policy's update, so a
// created claim has none. Nothing binds it in replay (no PV controller): it stays Pending.
Json NewClaim(const Json& claim_template, const Json& set, int64_t ordinal) {
  Json claim = {{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}};
  claim["metadata"] =
      Field(claim_template, "metadata").is_object() ? claim_template["metadata"] : Json::object();
  claim["metadata"]["name"] = ClaimName(claim_template, Str(set["metadata"], "name"), ordinal);
  // The API server gives a created object its own (a copied resourceVersion would also stop the
  // importer from numbering the claims, and make them all look like one version).
  claim["metadata"].erase("uid");
  claim["metadata"].erase("resourceVersion");
  if (Namespace(set).empty()) {
    claim["metadata"].erase("namespace");
  } else {
    claim["metadata"]["namespace"] = Namespace(set);
  }
  const Json& match = Field(Field(Field(set, "spec"), "selector"), "matchLabels");
  if (match.is_object()) {
    if (!Field(claim["metadata"], "labels").is_object())
      claim["metadata"]["labels"] = Json::object();
    for (const auto& [key, value] : match.items()) claim["metadata"]["labels"][key] = value;
  }
  if (!Field(claim_template, "spec").is_null()) claim["spec"] = claim_template["spec"];
  return claim;
}

// Per ordinal: the claims of the claim templates (createPersistentVolumeClaims runs before the
// pod is created), then the pod.
Result<std::vector<Json>> ExpandStatefulSet(const Json& set, const std::string& where,
                                            const RecordRoom& room) {
  auto tmpl = Template(set, where);
  if (!tmpl.ok()) return tmpl.error();
  const Json& spec = Field(set, "spec");
  auto replicas = Count(spec, "replicas", 1, where);
  if (!replicas.ok()) return replicas.error();
  auto templates = ClaimTemplates(set, where);
  if (!templates.ok()) return templates.error();
  // At most kMaxWorkloadPods times the claim templates of one object: no overflow.
  const int64_t objects = *replicas * (1 + static_cast<int64_t>(templates->size()));
  if (objects > room.left) return NoRoom(where + ": field spec.replicas", objects, room);
  auto start = Count(Field(spec, "ordinals"), "start", 0, where + ": field spec.ordinals");
  if (!start.ok()) return start.error();
  Owner owner = OwnerOf(set, "apps/v1");
  Json pod_tmpl = *tmpl;
  SetLabel(pod_tmpl, "controller-revision-hash", owner.name + "-" + TemplateHash(*tmpl));
  std::vector<Json> out;
  for (int64_t i = 0; i < *replicas; ++i) {
    const int64_t ordinal = *start + i;
    for (const Json* t : *templates) out.push_back(NewClaim(*t, set, ordinal));
    std::string name = owner.name + "-" + std::to_string(ordinal);
    Json pod = NewPod(pod_tmpl, Namespace(set), name, &owner);
    pod["metadata"]["labels"]["statefulset.kubernetes.io/pod-name"] = name;
    AddClaimVolumes(*templates, owner.name, ordinal, pod);
    out.push_back(std::move(pod));
  }
  return out;
}

// util.AddOrUpdateDaemonPodTolerations: each toleration replaces one with the same key,
// operator, value and effect, or is appended.
void AddDaemonTolerations(Json& spec) {
  std::vector<std::pair<const char*, const char*>> defaults = {
      {"node.kubernetes.io/not-ready", "NoExecute"},
      {"node.kubernetes.io/unreachable", "NoExecute"},
      {"node.kubernetes.io/disk-pressure", "NoSchedule"},
      {"node.kubernetes.io/memory-pressure", "NoSchedule"},
      {"node.kubernetes.io/pid-pressure", "NoSchedule"},
      {"node.kubernetes.io/unschedulable", "NoSchedule"}};
  if (Field(spec, "hostNetwork").is_boolean() && spec["hostNetwork"].get<bool>()) {
    defaults.emplace_back("node.kubernetes.io/network-unavailable", "NoSchedule");
  }
  if (!Field(spec, "tolerations").is_array()) spec["tolerations"] = Json::array();
  for (const auto& [key, effect] : defaults) {
    Json t = {{"key", key}, {"operator", "Exists"}, {"effect", effect}};
    bool replaced = false;
    for (Json& existing : spec["tolerations"]) {
      if (Str(existing, "key") == key && Str(existing, "operator") == "Exists" &&
          Str(existing, "value").empty() && Str(existing, "effect") == effect) {
        existing = t;
        replaced = true;
      }
    }
    if (!replaced) spec["tolerations"].push_back(t);
  }
}

// util.ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become one term
// `matchFields metadata.name In [node]`; preferred terms and pod (anti-)affinity stay.
void PinToNode(Json& spec, const std::string& node) {
  Json term = {{"matchFields",
                Json::array({{{"key", "metadata.name"}, {"operator", "In"}, {"values", {node}}}})}};
  if (!Field(spec, "affinity").is_object()) spec["affinity"] = Json::object();
  if (!Field(spec["affinity"], "nodeAffinity").is_object())
    spec["affinity"]["nodeAffinity"] = Json::object();
  spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
      {"nodeSelectorTerms", Json::array({term})}};
}

// NodeShouldRunDaemonPod's shouldRun: the template's nodeName (if any) is the node, its
// nodeSelector and required node affinity match, and every NoSchedule / NoExecute taint is
// tolerated (default tolerations included).
bool ShouldRun(const k8s::Pod& pod, const k8s::Node& node) {
  const std::string& node_name = pod.spec().node_name();
  if (!node_name.empty() && node_name != node.metadata().name()) return false;
  if (!reference::PodMatchesRequiredNodeAffinity(pod, node)) return false;
  for (const k8s::Taint& taint : node.spec().taints()) {
    if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
    if (!reference::TolerationsTolerateTaint(pod.spec().tolerations(), taint)) return false;
  }
  return true;
}

Result<std::vector<Json>> ExpandDaemonSet(const Json& ds, const std::string& where,
                                          const std::vector<k8s::Node>& nodes,
                                          const RecordRoom& room) {
  auto tmpl_or = Template(ds, where);
  if (!tmpl_or.ok()) return tmpl_or.error();
  Json tmpl = *tmpl_or;
  Owner owner = OwnerOf(ds, "apps/v1");
  const Json& generation = Field(Field(ds, "metadata"), "generation");
  SetLabel(tmpl, "controller-revision-hash", TemplateHash(*tmpl_or));
  SetLabel(tmpl, "pod-template-generation",
           generation.is_number_integer() ? generation.dump() : "1");
  if (!Field(tmpl, "spec").is_object()) tmpl["spec"] = Json::object();
  AddDaemonTolerations(tmpl["spec"]);
  auto probe = k8s::PodFromJson(NewPod(tmpl, Namespace(ds), owner.name, &owner),
                                where + ": field spec.template");
  if (!probe.ok()) return probe.error();
  std::vector<const k8s::Node*> sorted;
  for (const k8s::Node& n : nodes) sorted.push_back(&n);
  std::stable_sort(sorted.begin(), sorted.end(), [](const k8s::Node* a, const k8s::Node* b) {
    return a->metadata().name() < b->metadata().name();
  });
  std::vector<Json> out;
  for (const k8s::Node* node : sorted) {
    if (!ShouldRun(*probe, *node)) continue;
    if (static_cast<int64_t>(out.size()) == room.left) {
      return NoRoom(where + ": nodes the DaemonSet runs on", room.left + 1, room);
    }
    Json pod = NewPod(tmpl, Namespace(ds),
                      owner.name + "-" + GeneratedSuffix(static_cast<int64_t>(out.size())), &owner);
    PinToNode(pod["spec"], node->metadata().name());
    out.push_back(std::move(pod));
  }
  return out;
}

Result<std::vector<Json>> ExpandJob(const Json& job, const std::string& where,
                                    const RecordRoom& room) {
  auto tmpl_or = Template(job, where);
  if (!tmpl_or.ok()) return tmpl_or.error();
  const Json& spec = Field(job, "spec");
  auto parallelism = Count(spec, "parallelism", 1, where);
  if (!parallelism.ok()) return parallelism.error();
  auto completions = Count(spec, "completions", *parallelism, where);
  if (!completions.ok()) return completions.error();
  const bool suspended = Field(spec, "suspend").is_boolean() && spec["suspend"].get<bool>();
  const bool indexed = Str(spec, "completionMode") == "Indexed";
  Owner owner = OwnerOf(job, "batch/v1");
  Json tmpl = *tmpl_or;
  // The labels API defaulting gives a Job's template (pkg/apis/batch, v1.27).
  SetLabel(tmpl, "job-name", owner.name);
  SetLabel(tmpl, "batch.kubernetes.io/job-name", owner.name);
  if (!owner.uid.empty()) {
    SetLabel(tmpl, "controller-uid", owner.uid);
    SetLabel(tmpl, "batch.kubernetes.io/controller-uid", owner.uid);
  }
  std::vector<Json> out;
  const int64_t n = suspended ? 0 : std::min(*parallelism, *completions);
  if (n > room.left) return NoRoom(where + ": field spec.parallelism", n, room);
  for (int64_t i = 0; i < n; ++i) {
    std::string prefix = owner.name + "-" + (indexed ? std::to_string(i) + "-" : "");
    out.push_back(NewPod(tmpl, Namespace(job), prefix + GeneratedSuffix(i), &owner));
  }
  return out;
}

Result<std::vector<Json>> ExpandPodTemplate(const Json& pt, const std::string& where,
                                            const RecordRoom& room) {
  const Json& tmpl = Field(pt, "template");
  if (!tmpl.is_object()) return Error{where + ": field template: expected an object"};
  if (room.left < 1) return NoRoom(where + ": field template", 1, room);
  return std::vector<Json>{
      NewPod(tmpl, Namespace(pt), Str(Field(pt, "metadata"), "name"), nullptr)};
}

}  // namespace

bool IsWorkloadKind(const std::string& kind) {
  return kind == "Deployment" || kind == "ReplicaSet" || kind == "ReplicationController" ||
         kind == "StatefulSet" || kind == "DaemonSet" || kind == "Job" || kind == "PodTemplate";
}

std::string GeneratedSuffix(int64_t i) {
  std::string out(5, kSafeAlphabet[0]);
  for (int pos = 4; pos >= 0 && i > 0; --pos) {
    out[pos] = kSafeAlphabet[i % kSafeAlphabet.size()];
    i /= static_cast<int64_t>(kSafeAlphabet.size());
  }
  return out;
}

std::string WorkloadKey(const std::string& kind, const std::string& ns, const std::string& name) {
  return kind + "/" + (ns.empty() ? "default" : ns) + "/" + name;
}

std::string WorkloadKeyOf(const Json& workload) {
  return WorkloadKey(Str(workload, "kind"), Namespace(workload),
                     Str(Field(workload, "metadata"), "name"));
}

std::string ControllerKey(const k8s::ObjectMeta& meta, std::string* deployment) {
  for (const k8s::OwnerReference& ref : meta.owner_references()) {
    if (!ref.has_controller() || !ref.controller()) continue;
    if (deployment != nullptr && ref.kind() == "ReplicaSet") {
      size_t dash = ref.name().rfind('-');
      if (dash != std::string::npos && dash > 0) {
        *deployment = WorkloadKey("Deployment", meta.namespace_(), ref.name().substr(0, dash));
      }
    }
    return WorkloadKey(ref.kind(), meta.namespace_(), ref.name());
  }
  return "";
}

void GivenOwners::AddPod(const k8s::ObjectMeta& pod_meta) {
  std::string deployment;
  std::string owner = ControllerKey(pod_meta, &deployment);
  if (!owner.empty()) keys.insert(owner);
  if (!deployment.empty()) keys.insert(deployment);
}

void GivenOwners::AddReplicaSet(const k8s::ObjectMeta& rs_meta) {
  std::string owner = ControllerKey(rs_meta);
  if (!owner.empty()) keys.insert(owner);
}

void GivenOwners::AddClaim(const k8s::ObjectMeta& claim_meta) {
  claims.insert(WorkloadKey("PersistentVolumeClaim", claim_meta.namespace_(), claim_meta.name()));
}

bool GivenOwners::HasClaim(const Json& object) const {
  return Str(object, "kind") == "PersistentVolumeClaim" && claims.count(WorkloadKeyOf(object)) > 0;
}

RecordRoom RoomFor(const InputLimits& limits, int64_t records_used, int64_t expanded_used) {
  const int64_t records_left = limits.records - records_used;
  const int64_t expanded_left = limits.expanded_objects - expanded_used;
  if (expanded_left < records_left)
    return RecordRoom{expanded_left, limits.expanded_objects, "expanded-objects"};
  return RecordRoom{records_left, limits.records, "records"};
}

Result<std::vector<Json>> ExpandWorkload(const Json& workload, const std::string& where,
                                         const std::vector<k8s::Node>& nodes, RecordRoom room) {
  if (Outcome ok = NeedName(workload, where); !ok) return ok.error();
  room.left = std::max<int64_t>(room.left, 0);
  const std::string kind = Str(workload, "kind");
  if (kind == "Deployment") return ExpandDeployment(workload, where, room);
  if (kind == "ReplicaSet") return ExpandReplicas(workload, where, "apps/v1", room);
  if (kind == "ReplicationController") return ExpandReplicas(workload, where, "v1", room);
  if (kind == "StatefulSet") return ExpandStatefulSet(workload, where, room);
  if (kind == "DaemonSet") return ExpandDaemonSet(workload, where, nodes, room);
  if (kind == "Job") return ExpandJob(workload, where, room);
  if (kind == "PodTemplate") return ExpandPodTemplate(workload, where, room);
  return Error{where + ": field kind: " + kind + " is not a workload kind"};
}

}  // namespace schedcheck::trace
