#include "harness/check/case.h"

#include <algorithm>
#include <functional>
#include <limits>

#include "reference/framework/events.h"
#include "reference/k8s/json_number.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::check {
namespace {

using reference::ExtensionPoint;

const std::set<std::string> kKnownFields = {"id",
                                            "source",
                                            "kind",
                                            "compat",
                                            "plugins",
                                            "pluginArgs",
                                            "pluginWeights",
                                            "nodes",
                                            "pods",
                                            "namespaces",
                                            "podDisruptionBudgets",
                                            "services",
                                            "replicationControllers",
                                            "replicaSets",
                                            "statefulSets",
                                            "persistentVolumes",
                                            "persistentVolumeClaims",
                                            "storageClasses",
                                            "csiNodes",
                                            "csiDrivers",
                                            "csiStorageCapacities",
                                            "pod",
                                            "podsBefore",
                                            "feasibleNodes",
                                            "scoreIsWeightedTotal",
                                            "expectPreFilter",
                                            "expectPreFilterResult",
                                            "expectPreScore",
                                            "expect",
                                            "queueConfig",
                                            "event",
                                            "resource",
                                            "targetPod",
                                            "oldObject",
                                            "newObject",
                                            "description",
                                            "notes"};
const std::set<std::string> kKinds = {"filter", "score", "schedule", "preempt",
                                      "queue",  "hint",  "update"};
// The fields a hint case may have: the cluster its plugin sees, the pod, the event, the answer.
const std::set<std::string> kHintFields = {"id",
                                           "source",
                                           "kind",
                                           "compat",
                                           "plugins",
                                           "pluginArgs",
                                           "nodes",
                                           "pods",
                                           "namespaces",
                                           "services",
                                           "replicationControllers",
                                           "replicaSets",
                                           "statefulSets",
                                           "persistentVolumes",
                                           "persistentVolumeClaims",
                                           "storageClasses",
                                           "csiNodes",
                                           "csiDrivers",
                                           "csiStorageCapacities",
                                           "pod",
                                           "event",
                                           "oldObject",
                                           "newObject",
                                           "expect",
                                           "description",
                                           "notes"};

Result<CasePlugin> ParsePluginName(const std::string& text, const std::string& where) {
  CasePlugin p;
  size_t open = text.find('(');
  if (open == std::string::npos) {
    p.name = text;
  } else {
    if (text.back() != ')') return Error{where + ": malformed plugin \"" + text + "\""};
    p.name = text.substr(0, open);
    std::string inner = text.substr(open + 1, text.size() - open - 2);
    size_t start = 0;
    while (start <= inner.size()) {
      size_t comma = inner.find(',', start);
      std::string point =
          inner.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      point.erase(0, point.find_first_not_of(' '));
      point.erase(point.find_last_not_of(' ') + 1);
      ExtensionPoint ep;
      if (!reference::ParseExtensionPointName(point, &ep) || ep == ExtensionPoint::kMultiPoint) {
        return Error{where + ": unknown extension point \"" + point + "\" in \"" + text + "\""};
      }
      p.points.push_back(ep);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (p.name.empty()) return Error{where + ": empty plugin name"};
  return p;
}

template <typename T>
Result<std::vector<T>> ParseObjects(const nlohmann::json& json, const std::string& field,
                                    const std::string& location,
                                    Result<T> (*decode)(const nlohmann::json&,
                                                        const std::string&)) {
  std::vector<T> out;
  if (json.is_null()) return out;
  if (!json.is_array()) return Error{location + ": field " + field + ": expected a list"};
  for (size_t i = 0; i < json.size(); ++i) {
    auto obj = decode(json[i], location + ": field " + field + "[" + std::to_string(i) + "]");
    if (!obj.ok()) return obj.error();
    out.push_back(std::move(*obj));
  }
  return out;
}

// The storage lists of a case, each optional.
Outcome ParseStorage(const nlohmann::json& json, const std::string& where, StorageInput* out) {
  auto list = [&](const char* field) { return json.value(field, nlohmann::json()); };
  auto pvs = ParseObjects<k8s::PersistentVolume>(list("persistentVolumes"), "persistentVolumes",
                                                 where, &k8s::PersistentVolumeFromJson);
  if (!pvs.ok()) return pvs.error();
  out->persistent_volumes = std::move(*pvs);
  auto pvcs = ParseObjects<k8s::PersistentVolumeClaim>(list("persistentVolumeClaims"),
                                                       "persistentVolumeClaims", where,
                                                       &k8s::PersistentVolumeClaimFromJson);
  if (!pvcs.ok()) return pvcs.error();
  out->persistent_volume_claims = std::move(*pvcs);
  auto classes = ParseObjects<k8s::StorageClass>(list("storageClasses"), "storageClasses", where,
                                                 &k8s::StorageClassFromJson);
  if (!classes.ok()) return classes.error();
  out->storage_classes = std::move(*classes);
  auto csi_nodes =
      ParseObjects<k8s::CSINode>(list("csiNodes"), "csiNodes", where, &k8s::CSINodeFromJson);
  if (!csi_nodes.ok()) return csi_nodes.error();
  out->csi_nodes = std::move(*csi_nodes);
  auto drivers = ParseObjects<k8s::CSIDriver>(list("csiDrivers"), "csiDrivers", where,
                                              &k8s::CSIDriverFromJson);
  if (!drivers.ok()) return drivers.error();
  out->csi_drivers = std::move(*drivers);
  auto capacities =
      ParseObjects<k8s::CSIStorageCapacity>(list("csiStorageCapacities"), "csiStorageCapacities",
                                            where, &k8s::CSIStorageCapacityFromJson);
  if (!capacities.ok()) return capacities.error();
  out->csi_storage_capacities = std::move(*capacities);
  return Outcome::Ok();
}

Result<std::string> StringField(const nlohmann::json& json, const char* name,
                                const std::string& location, bool required) {
  if (!json.contains(name) || json[name].is_null()) {
    if (required) return Error{location + ": field " + name + ": missing"};
    return std::string();
  }
  if (!json[name].is_string()) return Error{location + ": field " + name + ": expected a string"};
  return json[name].get<std::string>();
}

// The fields an update case may have: the two objects and the events they make.
const std::set<std::string> kUpdateFields = {"id",       "source",      "kind",      "compat",
                                             "resource", "targetPod",   "oldObject", "newObject",
                                             "expect",   "description", "notes"};

// Decodes oldObject and newObject as Nodes or as Pods; `required` says which must be present
// and which absent.
// The storage resources a hint case's event may name, and their objects' decoders.
using StorageDecoder = std::function<Result<std::shared_ptr<const google::protobuf::Message>>(
    const nlohmann::json&, const std::string&)>;

template <typename T, Result<T> (*Decode)(const nlohmann::json&, const std::string&)>
Result<std::shared_ptr<const google::protobuf::Message>> DecodeShared(const nlohmann::json& json,
                                                                      const std::string& where) {
  Result<T> object = Decode(json, where);
  if (!object.ok()) return object.error();
  return std::shared_ptr<const google::protobuf::Message>(
      std::make_shared<const T>(std::move(*object)));
}

const std::map<std::string, StorageDecoder>& StorageDecoders() {
  static const auto* decoders = new std::map<std::string, StorageDecoder>{
      {"PersistentVolume", DecodeShared<k8s::PersistentVolume, &k8s::PersistentVolumeFromJson>},
      {"PersistentVolumeClaim",
       DecodeShared<k8s::PersistentVolumeClaim, &k8s::PersistentVolumeClaimFromJson>},
      {"storage.k8s.io/StorageClass", DecodeShared<k8s::StorageClass, &k8s::StorageClassFromJson>},
      {"storage.k8s.io/CSINode", DecodeShared<k8s::CSINode, &k8s::CSINodeFromJson>},
      {"storage.k8s.io/CSIDriver", DecodeShared<k8s::CSIDriver, &k8s::CSIDriverFromJson>},
      {"storage.k8s.io/CSIStorageCapacity",
       DecodeShared<k8s::CSIStorageCapacity, &k8s::CSIStorageCapacityFromJson>},
  };
  return *decoders;
}

Outcome ParseEventObjects(const nlohmann::json& json, const std::string& where, bool is_node,
                          bool want_old, bool want_new, const std::string& event_name, Case& c) {
  auto storage = StorageDecoders().find(c.event_resource);
  for (auto [field, wanted] :
       {std::pair{"oldObject", want_old}, std::pair{"newObject", want_new}}) {
    const bool present = json.contains(field) && !json[field].is_null();
    if (present != wanted) {
      return Error{where + ": field " + field + ": " + (wanted ? "missing" : "not expected") +
                   " for a " + event_name + " event"};
    }
    if (!present) continue;
    const bool old = std::string_view(field) == "oldObject";
    if (storage != StorageDecoders().end()) {
      auto object = storage->second(json[field], where + ": field " + field);
      if (!object.ok()) return object.error();
      (old ? c.old_object : c.new_object) = std::move(*object);
    } else if (is_node) {
      auto node = k8s::NodeFromJson(json[field], where + ": field " + field);
      if (!node.ok()) return node.error();
      (old ? c.old_node : c.new_node) = std::move(*node);
    } else {
      auto pod = k8s::PodFromJson(json[field], where + ": field " + field);
      if (!pod.ok()) return pod.error();
      (old ? c.old_pod : c.new_pod) = std::move(*pod);
    }
  }
  return Outcome::Ok();
}

// `resource`, `targetPod`, the objects and `expect` of an update case.
Outcome ParseUpdateCase(const nlohmann::json& json, const std::string& where, Case& c) {
  for (const auto& [key, value] : json.items()) {
    if (!kUpdateFields.count(key)) {
      return Error{where + ": field " + key + ": not a field of an update case"};
    }
  }
  if (c.compat != "1.37") {
    return Error{where + ": field compat: kind update exists at compat \"1.37\" only"};
  }
  auto resource = StringField(json, "resource", where, true);
  if (!resource.ok()) return resource.error();
  if (*resource != "Node" && *resource != "Pod") {
    return Error{where + ": field resource: \"" + *resource + "\" is not Node or Pod"};
  }
  c.event_resource = *resource;
  if (json.contains("targetPod")) {
    if (!json["targetPod"].is_boolean()) {
      return Error{where + ": field targetPod: expected true or false"};
    }
    if (*resource != "Pod") return Error{where + ": field targetPod: only for resource Pod"};
    c.target_pod = json["targetPod"].get<bool>();
  }
  if (Outcome ok =
          ParseEventObjects(json, where, *resource == "Node", true, true, *resource + " update", c);
      !ok) {
    return ok;
  }
  const nlohmann::json& expect = json.value("expect", nlohmann::json());
  if (!expect.is_object() || expect.size() != 1 || !expect.contains("events") ||
      !expect["events"].is_array()) {
    return Error{where + ": field expect: expected {\"events\": [\"Resource/Action\", ...]}"};
  }
  for (size_t i = 0; i < expect["events"].size(); ++i) {
    if (!expect["events"][i].is_string()) {
      return Error{where + ": field expect.events[" + std::to_string(i) + "]: expected a string"};
    }
  }
  return Outcome::Ok();
}

// `event`, `oldObject` and `newObject` of a hint case (docs/FORMATS.md "Hint cases").
Outcome ParseHintEvent(const nlohmann::json& json, const std::string& where, Case& c) {
  for (const auto& [key, value] : json.items()) {
    if (!kHintFields.count(key)) {
      return Error{where + ": field " + key + ": not a field of a hint case"};
    }
  }
  if (c.compat != "1.37") {
    return Error{where + ": field compat: kind hint exists at compat \"1.37\" only"};
  }
  if (c.default_plugins || c.plugins.size() != 1 || !c.plugins[0].points.empty()) {
    return Error{where + ": field plugins: a hint case names exactly one plugin, without points"};
  }
  const nlohmann::json& event = json.value("event", nlohmann::json());
  if (!event.is_object()) return Error{where + ": field event: missing or not an object"};
  for (const auto& [key, value] : event.items()) {
    if (key != "resource" && key != "action") {
      return Error{where + ": field event." + key + ": unknown field"};
    }
  }
  auto resource = StringField(event, "resource", where + ": field event", true);
  if (!resource.ok()) return resource.error();
  static const std::set<std::string> kResources = {"Pod", "AssignedPod", "UnscheduledPod",
                                                   "TargetPod", "Node"};
  if (!kResources.count(*resource) && !StorageDecoders().count(*resource)) {
    return Error{where + ": field event.resource: \"" + *resource +
                 "\" is not one of Pod, AssignedPod, UnscheduledPod, TargetPod, Node, "
                 "PersistentVolume, PersistentVolumeClaim, storage.k8s.io/StorageClass, "
                 "storage.k8s.io/CSINode, storage.k8s.io/CSIDriver, "
                 "storage.k8s.io/CSIStorageCapacity"};
  }
  c.event_resource = *resource;
  auto action = StringField(event, "action", where + ": field event", true);
  if (!action.ok()) return action.error();
  for (size_t start = 0; start <= action->size();) {
    size_t bar = action->find('|', start);
    std::string name = action->substr(start, bar == std::string::npos ? bar : bar - start);
    uint32_t bits = reference::ParseActionNameV1_37(name);
    if (bits == 0) {
      return Error{where + ": field event.action: unknown action \"" + name + "\""};
    }
    c.event_action |= bits;
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  // Which objects the event carries, as the queue passes them: the new one of an Add, the old
  // one of a Delete, both for an update.
  namespace bits = reference::action;
  bool want_old, want_new;
  if (c.event_action == bits::kAdd) {
    want_old = false, want_new = true;
  } else if (c.event_action == bits::kDelete) {
    want_old = true, want_new = false;
  } else if ((c.event_action & (bits::kAdd | bits::kDelete)) == 0) {
    want_old = want_new = true;
  } else {
    return Error{where + ": field event.action: an event is an Add, a Delete or an update"};
  }
  if (Outcome ok = ParseEventObjects(json, where, c.event_resource == "Node", want_old, want_new,
                                     c.event_resource + " " + *action, c);
      !ok) {
    return ok;
  }
  const nlohmann::json& expect = json.value("expect", nlohmann::json());
  if (!expect.is_object()) return Error{where + ": field expect: missing or not an object"};
  for (const auto& [key, value] : expect.items()) {
    if (key != "hint" && key != "error") {
      return Error{where + ": field expect." + key + ": unknown field"};
    }
  }
  auto hint = StringField(expect, "hint", where + ": field expect", true);
  if (!hint.ok()) return hint.error();
  if (*hint != "Queue" && *hint != "QueueSkip" && *hint != "NotRegistered") {
    return Error{where + ": field expect.hint: \"" + *hint +
                 "\" is not one of Queue, QueueSkip, NotRegistered"};
  }
  if (expect.contains("error")) {
    if (!expect["error"].is_boolean()) {
      return Error{where + ": field expect.error: expected true or false"};
    }
    if (expect["error"].get<bool>() && *hint != "Queue") {
      return Error{where + ": field expect.error: an error counts as Queue, so hint must be Queue"};
    }
  }
  return Outcome::Ok();
}

}  // namespace

Result<Case> ParseCase(const nlohmann::json& json, const std::string& location) {
  if (!json.is_object()) return Error{location + ": expected a case object"};
  Case c;
  c.location = location;
  auto id = StringField(json, "id", location, true);
  if (!id.ok()) return id.error();
  c.id = *id;
  std::string where = location + " (case " + c.id + ")";
  for (const auto& [key, value] : json.items()) {
    if (!kKnownFields.count(key)) return Error{where + ": field " + key + ": unknown field"};
  }
  auto source = StringField(json, "source", where, true);
  if (!source.ok()) return source.error();
  c.source = *source;
  auto kind = StringField(json, "kind", where, true);
  if (!kind.ok()) return kind.error();
  if (!kKinds.count(*kind)) return Error{where + ": field kind: unknown kind \"" + *kind + "\""};
  c.kind = *kind;
  if (json.contains("compat") && !json["compat"].is_null()) {
    if (json["compat"].is_string()) {
      c.compat = json["compat"].get<std::string>();
    } else if (json["compat"].is_number()) {
      c.compat = json["compat"].dump();  // a YAML 1.27 arrives as a number
    } else {
      return Error{where + ": field compat: expected a string such as \"1.27\""};
    }
  }
  if (json.contains("plugins") && !json["plugins"].is_null()) {
    const auto& list = json["plugins"];
    if (!list.is_array()) return Error{where + ": field plugins: expected a list of names"};
    bool is_default = list.size() == 1 && list[0] == "default";
    c.default_plugins = is_default;
    if (!is_default) {
      for (size_t i = 0; i < list.size(); ++i) {
        std::string f = where + ": field plugins[" + std::to_string(i) + "]";
        if (!list[i].is_string()) return Error{f + ": expected a string"};
        auto p = ParsePluginName(list[i].get<std::string>(), f);
        if (!p.ok()) return p.error();
        c.plugins.push_back(std::move(*p));
      }
    }
  }
  if (json.contains("pluginArgs") && !json["pluginArgs"].is_null()) {
    if (!json["pluginArgs"].is_object())
      return Error{where + ": field pluginArgs: expected an object"};
    for (const auto& [name, args] : json["pluginArgs"].items()) c.plugin_args[name] = args;
  }
  if (json.contains("pluginWeights") && !json["pluginWeights"].is_null()) {
    if (!json["pluginWeights"].is_object())
      return Error{where + ": field pluginWeights: expected an object"};
    for (const auto& [name, w] : json["pluginWeights"].items()) {
      // The range of a profile's weight (reference/runtime/profile.cc): never narrowed silently.
      auto weight = k8s::CheckedInteger(w, 0, std::numeric_limits<int32_t>::max(),
                                        where + ": field pluginWeights." + name);
      if (!weight.ok()) return weight.error();
      c.plugin_weights[name] = static_cast<int32_t>(*weight);
    }
  }
  auto nodes = ParseObjects<k8s::Node>(json.value("nodes", nlohmann::json()), "nodes", where,
                                       &k8s::NodeFromJson);
  if (!nodes.ok()) return nodes.error();
  c.nodes = std::move(*nodes);
  auto pods = ParseObjects<k8s::Pod>(json.value("pods", nlohmann::json()), "pods", where,
                                     &k8s::PodFromJson);
  if (!pods.ok()) return pods.error();
  c.pods = std::move(*pods);
  auto nss = ParseObjects<k8s::Namespace>(json.value("namespaces", nlohmann::json()), "namespaces",
                                          where, &k8s::NamespaceFromJson);
  if (!nss.ok()) return nss.error();
  c.namespaces = std::move(*nss);
  auto pdbs =
      ParseObjects<k8s::PodDisruptionBudget>(json.value("podDisruptionBudgets", nlohmann::json()),
                                             "podDisruptionBudgets", where, &k8s::PdbFromJson);
  if (!pdbs.ok()) return pdbs.error();
  c.pdbs = std::move(*pdbs);
  auto services = ParseObjects<k8s::Service>(json.value("services", nlohmann::json()), "services",
                                             where, &k8s::ServiceFromJson);
  if (!services.ok()) return services.error();
  c.services = std::move(*services);
  auto rcs = ParseObjects<k8s::ReplicationController>(
      json.value("replicationControllers", nlohmann::json()), "replicationControllers", where,
      &k8s::ReplicationControllerFromJson);
  if (!rcs.ok()) return rcs.error();
  c.replication_controllers = std::move(*rcs);
  auto rss = ParseObjects<k8s::ReplicaSet>(json.value("replicaSets", nlohmann::json()),
                                           "replicaSets", where, &k8s::ReplicaSetFromJson);
  if (!rss.ok()) return rss.error();
  c.replica_sets = std::move(*rss);
  auto sss = ParseObjects<k8s::StatefulSet>(json.value("statefulSets", nlohmann::json()),
                                            "statefulSets", where, &k8s::StatefulSetFromJson);
  if (!sss.ok()) return sss.error();
  c.stateful_sets = std::move(*sss);
  if (Outcome ok = ParseStorage(json, where, &c.storage); !ok) return ok.error();
  if (json.contains("pod") && !json["pod"].is_null()) {
    auto pod = k8s::PodFromJson(json["pod"], where + ": field pod");
    if (!pod.ok()) return pod.error();
    c.pod = std::move(*pod);
  } else if (c.kind != "queue" && c.kind != "update") {
    return Error{where +
                 ": field pod: missing (every kind but queue and update needs the pod under test)"};
  }
  auto before = ParseObjects<k8s::Pod>(json.value("podsBefore", nlohmann::json()), "podsBefore",
                                       where, &k8s::PodFromJson);
  if (!before.ok()) return before.error();
  c.pods_before = std::move(*before);
  if (!c.pods_before.empty() && c.kind != "schedule")
    return Error{where + ": field podsBefore: only for kind schedule"};
  if (json.contains("feasibleNodes") && !json["feasibleNodes"].is_null()) {
    const auto& f = json["feasibleNodes"];
    if (!f.is_array()) return Error{where + ": field feasibleNodes: expected a list of node names"};
    std::vector<std::string> names;
    for (const auto& n : f) {
      if (!n.is_string()) return Error{where + ": field feasibleNodes: expected node names"};
      names.push_back(n.get<std::string>());
    }
    c.feasible_nodes = std::move(names);
  }
  if (json.contains("scoreIsWeightedTotal")) {
    if (!json["scoreIsWeightedTotal"].is_boolean())
      return Error{where + ": field scoreIsWeightedTotal: expected true or false"};
    c.score_is_weighted_total = json["scoreIsWeightedTotal"].get<bool>();
  }
  c.expect_pre_filter = json.value("expectPreFilter", nlohmann::json());
  c.expect_pre_filter_result = json.value("expectPreFilterResult", nlohmann::json());
  c.expect_pre_score = json.value("expectPreScore", nlohmann::json());
  if (!c.expect_pre_score.is_null() && c.kind != "score")
    return Error{where + ": field expectPreScore: only for kind score"};
  c.queue_config = json.value("queueConfig", nlohmann::json());
  if (c.kind == "hint") {
    if (Outcome ok = ParseHintEvent(json, where, c); !ok) return ok.error();
  } else if (c.kind == "update") {
    if (Outcome ok = ParseUpdateCase(json, where, c); !ok) return ok.error();
  } else if (json.contains("event") || json.contains("oldObject") || json.contains("newObject") ||
             json.contains("resource") || json.contains("targetPod")) {
    return Error{where +
                 ": fields event, resource, targetPod, oldObject, newObject: only for kinds hint "
                 "and update"};
  }
  if (!json.contains("expect") || json["expect"].is_null()) {
    if (c.expect_pre_filter.is_null() && c.expect_pre_filter_result.is_null() &&
        c.expect_pre_score.is_null()) {
      return Error{where + ": field expect: missing"};
    }
  } else {
    c.expect = json["expect"];
    if (!c.expect.is_object()) return Error{where + ": field expect: expected an object"};
  }
  return c;
}

namespace {

template <typename Message>
Outcome CheckEach(const std::vector<Message>& objects, const std::string& field,
                  const trace::InputLimits& limits, const std::string& where) {
  for (size_t i = 0; i < objects.size(); ++i) {
    const std::string path = field + "[" + std::to_string(i) + "]";
    if (Outcome ok = trace::CheckMessageLimits(objects[i], limits, where, path); !ok) return ok;
  }
  return Outcome::Ok();
}

// The byte and entry limits on every Kubernetes object of a case, named by its field in the case.
Outcome CheckCaseLimits(const Case& c, const trace::InputLimits& limits, const std::string& where) {
  for (Outcome ok :
       {CheckEach(c.nodes, "nodes", limits, where), CheckEach(c.pods, "pods", limits, where),
        CheckEach(c.namespaces, "namespaces", limits, where),
        CheckEach(c.pdbs, "podDisruptionBudgets", limits, where),
        CheckEach(c.services, "services", limits, where),
        CheckEach(c.replication_controllers, "replicationControllers", limits, where),
        CheckEach(c.replica_sets, "replicaSets", limits, where),
        CheckEach(c.stateful_sets, "statefulSets", limits, where),
        CheckEach(c.storage.persistent_volumes, "persistentVolumes", limits, where),
        CheckEach(c.storage.persistent_volume_claims, "persistentVolumeClaims", limits, where),
        CheckEach(c.storage.storage_classes, "storageClasses", limits, where),
        CheckEach(c.storage.csi_nodes, "csiNodes", limits, where),
        CheckEach(c.storage.csi_drivers, "csiDrivers", limits, where),
        CheckEach(c.storage.csi_storage_capacities, "csiStorageCapacities", limits, where),
        CheckEach(c.pods_before, "podsBefore", limits, where)}) {
    if (!ok) return ok;
  }
  for (const auto& [pod, field] : {std::pair{&c.old_pod, "oldObject"}, {&c.new_pod, "newObject"}}) {
    if (!*pod) continue;
    if (Outcome ok = trace::CheckMessageLimits(**pod, limits, where, field); !ok) return ok;
  }
  for (const auto& [node, field] :
       {std::pair{&c.old_node, "oldObject"}, {&c.new_node, "newObject"}}) {
    if (!*node) continue;
    if (Outcome ok = trace::CheckMessageLimits(**node, limits, where, field); !ok) return ok;
  }
  if (c.pod) return trace::CheckMessageLimits(*c.pod, limits, where, "pod");
  return Outcome::Ok();
}

}  // namespace

Result<std::vector<Case>> LoadCases(const std::vector<std::string>& paths,
                                    const trace::InputLimits& limits) {
  auto listed = k8s::ListDocumentFiles(paths);
  if (!listed.ok()) return listed.error();
  const std::vector<std::string>& files = *listed;
  std::vector<Case> cases;
  std::set<std::string> ids;
  for (const std::string& file : files) {
    auto docs = k8s::ReadDocumentsFile(file, trace::YamlLimitsOf(limits));
    if (!docs.ok()) return docs.error();
    const size_t cases_before = cases.size();
    for (const k8s::Document& doc : *docs) {
      std::string location = file + ": line " + std::to_string(doc.line);
      std::vector<const nlohmann::json*> objects;
      if (doc.json.is_array()) {
        for (const auto& item : doc.json) objects.push_back(&item);
      } else {
        objects.push_back(&doc.json);
      }
      for (size_t i = 0; i < objects.size(); ++i) {
        std::string where =
            doc.json.is_array() ? location + ": [" + std::to_string(i) + "]" : location;
        if (static_cast<int64_t>(cases.size()) >= limits.records)
          return trace::TooManyRecords(where, limits.records);
        auto c = ParseCase(*objects[i], where);
        if (!c.ok()) return c.error();
        if (Outcome ok = CheckCaseLimits(*c, limits, where); !ok) return ok.error();
        if (!ids.insert(c->id).second)
          return Error{where + ": field id: duplicate case id \"" + c->id + "\""};
        cases.push_back(std::move(*c));
      }
    }
    // A truncated or mis-generated case file must not pass a CI job as "0 passed, 0 failed".
    if (cases.size() == cases_before) {
      return Error{file +
                   ": no cases (an empty, blank or comment-only file, or an empty list, is "
                   "not a case file)"};
    }
  }
  return cases;
}

reference::Profile CaseProfile(const Case& c) {
  using reference::PluginEntry;
  reference::Profile p = c.default_plugins
                             ? reference::DefaultProfile(c.compat.empty() ? "1.27" : c.compat)
                             : reference::Profile();
  auto weight = [&](const std::string& name, int32_t fallback) {
    auto it = c.plugin_weights.find(name);
    return it == c.plugin_weights.end() ? fallback : it->second;
  };
  if (c.default_plugins) {
    for (PluginEntry& e : p.at(ExtensionPoint::kMultiPoint).enabled)
      e.weight = weight(e.name, e.weight);
  } else {
    bool has_sort = false, has_binder = false;
    for (const CasePlugin& cp : c.plugins) {
      has_sort |= cp.name == "PrioritySort";
      has_binder |= cp.name == "DefaultBinder";
      if (cp.points.empty()) {
        p.at(ExtensionPoint::kMultiPoint).enabled.push_back({cp.name, weight(cp.name, 0)});
      } else {
        for (ExtensionPoint ep : cp.points)
          p.at(ep).enabled.push_back({cp.name, weight(cp.name, 0)});
      }
    }
    if (!has_sort) p.at(ExtensionPoint::kMultiPoint).enabled.push_back({"PrioritySort", 0});
    if (!has_binder) p.at(ExtensionPoint::kMultiPoint).enabled.push_back({"DefaultBinder", 0});
  }
  for (const auto& [name, args] : c.plugin_args) p.plugin_config[name] = args;
  return p;
}

}  // namespace schedcheck::check
