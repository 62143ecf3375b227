#include "traces/importers/api_validation.h"

#include <initializer_list>
#include <set>

#include "traces/importers/dra_validation.h"
#include "traces/importers/pod_group_validation.h"

#include "traces/importers/validation_json.h"

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;
using validation_json::FieldError;
using validation_json::Member;

// Field paths are built only when a rule fails: the checks run on every imported pod.
std::string Indexed(const std::string& path, const char* list, size_t i) {
  return path + "." + list + "[" + std::to_string(i) + "]";
}

std::string TypeName(const Json& value) { return value.type_name(); }

Outcome CheckBool(const Json& object, const char* key, const std::string& where,
                  const std::string& path) {
  const Json* value = Member(object, key);
  if (value == nullptr || value->is_boolean()) return Outcome::Ok();
  return FieldError(where, path + "." + key, "expected a boolean, got " + TypeName(*value));
}

// A string enum: absent, null and (when `empty_ok`) "" are accepted.
Outcome CheckEnum(const Json& object, const char* key, std::initializer_list<const char*> allowed,
                  bool empty_ok, const std::string& where, const std::string& path) {
  const Json* value = Member(object, key);
  if (value == nullptr) return Outcome::Ok();
  if (!value->is_string())
    return FieldError(where, path + "." + key, "expected a string, got " + TypeName(*value));
  const std::string& given = value->get_ref<const std::string&>();
  if (given.empty() && empty_ok) return Outcome::Ok();
  std::string supported;
  for (const char* a : allowed) {
    if (given == a) return Outcome::Ok();
    supported += std::string(supported.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return FieldError(where, path + "." + key,
                    "unsupported value \"" + given + "\" (supported: " + supported + ")");
}

// The list at `key` (absent or null: an empty list); an error when it is something else.
Result<const Json*> ListAt(const Json& object, const char* key, const std::string& where,
                           const std::string& path) {
  static const Json kEmpty = Json::array();
  const Json* value = Member(object, key);
  if (value == nullptr) return &kEmpty;
  if (!value->is_array())
    return FieldError(where, path + "." + key, "expected a list, got " + TypeName(*value));
  return value;
}

// A member that must be an object when present.
Outcome CheckObject(const Json& object, const char* key, const std::string& where,
                    const std::string& path) {
  const Json* value = Member(object, key);
  if (value == nullptr || value->is_object()) return Outcome::Ok();
  return FieldError(where, path + "." + key, "expected an object, got " + TypeName(*value));
}

std::string StringOr(const Json& object, const char* key, const std::string& fallback) {
  const Json* value = Member(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : fallback;
}

// Upstream's ValidateTolerations (pkg/apis/core/validation/validation.go).
Outcome ValidateToleration(const Json& t, const std::string& where, const std::string& path) {
  if (!t.is_object()) return FieldError(where, path, "expected an object, got " + TypeName(t));
  if (Outcome ok = CheckEnum(t, "operator", {"Exists", "Equal"}, true, where, path); !ok) return ok;
  if (Outcome ok = CheckEnum(t, "effect", {"NoSchedule", "PreferNoSchedule", "NoExecute"}, true,
                             where, path);
      !ok)
    return ok;
  const std::string key = StringOr(t, "key", "");
  const std::string op = StringOr(t, "operator", "Equal");
  const std::string value = StringOr(t, "value", "");
  if (key.empty() && op != "Exists") {
    return FieldError(where, path + ".operator",
                      "value must be Exists when `key` is empty, which means \"match all values "
                      "and all keys\"");
  }
  if (op == "Exists" && !value.empty())
    return FieldError(where, path + ".operator", "value must be empty when `operator` is Exists");
  if (Member(t, "tolerationSeconds") != nullptr && StringOr(t, "effect", "") != "NoExecute") {
    return FieldError(where, path + ".effect",
                      "effect must be NoExecute when `tolerationSeconds` is set");
  }
  return Outcome::Ok();
}

Outcome ValidateContainers(const Json& spec, const char* list, bool init, const std::string& where,
                           const std::string& path) {
  auto containers = ListAt(spec, list, where, path);
  if (!containers.ok()) return containers.error();
  for (size_t i = 0; i < (*containers)->size(); ++i) {
    const Json& c = (**containers)[i];
    if (!c.is_object())
      return FieldError(where, Indexed(path, list, i), "expected an object, got " + TypeName(c));
    if (Member(c, "restartPolicy") == nullptr) continue;
    // An init container may only be a sidecar ("Always"); a regular container's own policy
    // (container restart rules) takes the pod's values.
    Outcome ok =
        init ? CheckEnum(c, "restartPolicy", {"Always"}, false, where, Indexed(path, list, i))
             : CheckEnum(c, "restartPolicy", {"Always", "OnFailure", "Never"}, false, where,
                         Indexed(path, list, i));
    if (!ok) return ok;
  }
  return Outcome::Ok();
}

Outcome ValidateVolumes(const Json& spec, const std::string& where, const std::string& path) {
  auto volumes = ListAt(spec, "volumes", where, path);
  if (!volumes.ok()) return volumes.error();
  if ((*volumes)->size() < 2) return Outcome::Ok();
  std::set<std::string> names;
  for (size_t i = 0; i < (*volumes)->size(); ++i) {
    const std::string name = StringOr((**volumes)[i], "name", "");
    if (!name.empty() && !names.insert(name).second) {
      return FieldError(where, Indexed(path, "volumes", i) + ".name",
                        "duplicate value \"" + name + "\"");
    }
  }
  return Outcome::Ok();
}

// A Node's spec.taints (ValidateNodeSpecificAnnotations' sibling validateNodeTaints): key and a
// known effect required, no two taints with one key and effect.
Outcome ValidateNodeTaints(const Json& node, const std::string& where) {
  const Json* spec = Member(node, "spec");
  if (spec == nullptr) return Outcome::Ok();
  auto taints = ListAt(*spec, "taints", where, "spec");
  if (!taints.ok()) return taints.error();
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < (*taints)->size(); ++i) {
    const Json& taint = (**taints)[i];
    auto path = [i] { return Indexed("spec", "taints", i); };
    if (!taint.is_object()) return FieldError(where, path(), "expected an object");
    const std::string key = StringOr(taint, "key", "");
    if (key.empty()) return FieldError(where, path() + ".key", "required value");
    const std::string effect = StringOr(taint, "effect", "");
    if (effect.empty()) return FieldError(where, path() + ".effect", "required value");
    if (Outcome ok = CheckEnum(taint, "effect", {"NoSchedule", "PreferNoSchedule", "NoExecute"},
                               false, where, path());
        !ok)
      return ok;
    if (!seen.emplace(key, effect).second) {
      return FieldError(where, path(),
                        "duplicate taint key \"" + key + "\" and effect \"" + effect + "\"");
    }
  }
  return Outcome::Ok();
}

// A CSINode's spec.drivers: unique names, allocatable.count not negative.
Outcome ValidateCsiNode(const Json& csi_node, const std::string& where) {
  const Json* spec = Member(csi_node, "spec");
  if (spec == nullptr) return Outcome::Ok();
  auto drivers = ListAt(*spec, "drivers", where, "spec");
  if (!drivers.ok()) return drivers.error();
  std::set<std::string> names;
  for (size_t i = 0; i < (*drivers)->size(); ++i) {
    const Json& driver = (**drivers)[i];
    auto path = [i] { return Indexed("spec", "drivers", i); };
    const std::string name = StringOr(driver, "name", "");
    if (!name.empty() && !names.insert(name).second)
      return FieldError(where, path() + ".name", "duplicate value \"" + name + "\"");
    const Json* allocatable = Member(driver, "allocatable");
    const Json* count = allocatable != nullptr ? Member(*allocatable, "count") : nullptr;
    if (count != nullptr && count->is_number() && count->get<double>() < 0) {
      return FieldError(where, path() + ".allocatable.count",
                        "must be greater than or equal to 0, got " + count->dump());
    }
  }
  return Outcome::Ok();
}

Outcome ValidateStatefulSetFields(const Json& spec, const std::string& where) {
  if (Outcome ok = CheckObject(spec, "ordinals", where, "spec"); !ok) return ok;
  if (const Json* ordinals = Member(spec, "ordinals"); ordinals != nullptr) {
    const Json* start = Member(*ordinals, "start");
    if (start != nullptr && (!start->is_number_integer() || start->get<int64_t>() < 0)) {
      return FieldError(where, "spec.ordinals.start",
                        "must be an integer greater than or equal to 0, got " + start->dump());
    }
  }
  if (Outcome ok =
          CheckEnum(spec, "podManagementPolicy", {"OrderedReady", "Parallel"}, true, where, "spec");
      !ok)
    return ok;
  auto templates = ListAt(spec, "volumeClaimTemplates", where, "spec");
  if (!templates.ok()) return templates.error();
  std::set<std::string> names;
  for (size_t i = 0; i < (*templates)->size(); ++i) {
    const Json* metadata = Member((**templates)[i], "metadata");
    const std::string name = metadata != nullptr ? StringOr(*metadata, "name", "") : "";
    if (!name.empty() && !names.insert(name).second) {
      return FieldError(where, Indexed("spec", "volumeClaimTemplates", i) + ".metadata.name",
                        "duplicate value \"" + name + "\"");
    }
  }
  return Outcome::Ok();
}

Outcome ValidateJobFields(const Json& spec, const std::string& where) {
  if (Outcome ok = CheckBool(spec, "suspend", where, "spec"); !ok) return ok;
  return CheckEnum(spec, "completionMode", {"NonIndexed", "Indexed"}, true, where, "spec");
}

}  // namespace

Outcome ValidatePodSpec(const Json& spec, const std::string& where, const std::string& path) {
  if (spec.is_null()) return Outcome::Ok();
  if (!spec.is_object())
    return FieldError(where, path, "expected an object, got " + TypeName(spec));
  for (const char* key : {"hostNetwork", "hostPID", "hostIPC"})
    if (Outcome ok = CheckBool(spec, key, where, path); !ok) return ok;
  if (Outcome ok =
          CheckEnum(spec, "restartPolicy", {"Always", "OnFailure", "Never"}, true, where, path);
      !ok)
    return ok;
  if (Outcome ok =
          CheckEnum(spec, "preemptionPolicy", {"PreemptLowerPriority", "Never"}, true, where, path);
      !ok)
    return ok;
  if (Outcome ok = ValidateContainers(spec, "initContainers", true, where, path); !ok) return ok;
  if (Outcome ok = ValidateContainers(spec, "containers", false, where, path); !ok) return ok;
  if (Outcome ok = ValidateVolumes(spec, where, path); !ok) return ok;
  if (Outcome ok = ValidatePodResourceClaims(spec, where, path); !ok) return ok;
  if (Outcome ok = ValidatePodSchedulingGroup(spec, where, path); !ok) return ok;
  auto tolerations = ListAt(spec, "tolerations", where, path);
  if (!tolerations.ok()) return tolerations.error();
  for (size_t i = 0; i < (*tolerations)->size(); ++i) {
    if (Outcome ok = ValidateToleration((**tolerations)[i], where, Indexed(path, "tolerations", i));
        !ok)
      return ok;
  }
  return Outcome::Ok();
}

Outcome ValidateTraceObject(const Json& object, const std::string& kind, const std::string& where) {
  if (!object.is_object()) return Outcome::Ok();  // the decoder names the type
  if (kind == "Pod") {
    const Json* spec = Member(object, "spec");
    return spec != nullptr ? ValidatePodSpec(*spec, where, "spec") : Outcome::Ok();
  }
  if (kind == "Node") return ValidateNodeTaints(object, where);
  if (kind == "CSINode") return ValidateCsiNode(object, where);
  if (kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "ResourceSlice" ||
      kind == "DeviceClass" || kind == "DeviceTaintRule") {
    return ValidateDraObject(object, kind, where);
  }
  if (kind == "Workload" || kind == "PodGroup") return ValidatePodGroupObject(object, kind, where);
  return Outcome::Ok();
}

Outcome ValidateWorkload(const Json& workload, const std::string& kind, const std::string& where) {
  if (!workload.is_object()) return Outcome::Ok();
  static const Json kNoSpec = Json::object();
  const Json* spec = Member(workload, "spec");
  if (spec == nullptr) spec = &kNoSpec;
  if (!spec->is_object())
    return FieldError(where, "spec", "expected an object, got " + TypeName(*spec));
  if (kind == "StatefulSet") {
    if (Outcome ok = ValidateStatefulSetFields(*spec, where); !ok) return ok;
  } else if (kind == "Job") {
    if (Outcome ok = ValidateJobFields(*spec, where); !ok) return ok;
  }
  // A PodTemplate's template is at the top level; the controllers' at spec.template.
  const Json* tmpl =
      kind == "PodTemplate" ? Member(workload, "template") : Member(*spec, "template");
  const std::string tmpl_path = kind == "PodTemplate" ? "template" : "spec.template";
  if (tmpl == nullptr) return Outcome::Ok();
  if (!tmpl->is_object())
    return FieldError(where, tmpl_path, "expected an object, got " + TypeName(*tmpl));
  const Json* pod_spec = Member(*tmpl, "spec");
  if (pod_spec == nullptr) return Outcome::Ok();
  if (Outcome ok = ValidatePodSpec(*pod_spec, where, tmpl_path + ".spec"); !ok) return ok;
  // The restart policies each controller's validation allows for its template.
  if (kind == "Job") {
    return CheckEnum(*pod_spec, "restartPolicy", {"OnFailure", "Never"}, false, where,
                     tmpl_path + ".spec");
  }
  if (kind != "PodTemplate")
    return CheckEnum(*pod_spec, "restartPolicy", {"Always"}, true, where, tmpl_path + ".spec");
  return Outcome::Ok();
}

}  // namespace schedcheck::trace
