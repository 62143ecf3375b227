#include "traces/importers/dra_validation.h"

#include <initializer_list>
#include <set>

#include "traces/importers/validation_json.h"

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;
using validation_json::FieldError;
using validation_json::Member;
using validation_json::Str;

// True when `key` is present with a value other than false, "", 0, [] or {}.
bool IsSet(const Json& object, const char* key) {
  const Json* v = Member(object, key);
  if (v == nullptr) return false;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_string() || v->is_array() || v->is_object()) return !v->empty();
  return true;
}

// The list at `key` (absent: empty); an error when it is not a list of objects.
Result<std::vector<const Json*>> Objects(const Json& object, const char* key,
                                         const std::string& where, const std::string& path) {
  std::vector<const Json*> out;
  const Json* list = Member(object, key);
  if (list == nullptr) return out;
  if (!list->is_array())
    return FieldError(where, path + "." + key,
                      std::string("expected a list, got ") + list->type_name());
  for (size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_object()) {
      return FieldError(where, path + "." + key + "[" + std::to_string(i) + "]",
                        std::string("expected an object, got ") + (*list)[i].type_name());
    }
    out.push_back(&(*list)[i]);
  }
  return out;
}

std::string At(const std::string& path, const char* key, size_t i) {
  return path + "." + key + "[" + std::to_string(i) + "]";
}

// RFC 1123 label: 1-63 of [a-z0-9-], starting and ending alphanumeric.
bool IsDnsLabel(const std::string& s) {
  if (s.empty() || s.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (char c : s) {
    if (!alnum(c) && c != '-') return false;
  }
  return alnum(s.front()) && alnum(s.back());
}

// A required name that is a DNS label, unique among `seen`.
Outcome CheckName(const Json& object, const std::string& where, const std::string& path,
                  std::set<std::string>* seen) {
  const std::string name = Str(object, "name");
  if (name.empty()) return FieldError(where, path + ".name", "Required value");
  if (!IsDnsLabel(name)) {
    return FieldError(where, path + ".name",
                      "invalid value \"" + name +
                          "\": must be a DNS label (lowercase letters, "
                          "digits and '-', at most 63)");
  }
  if (!seen->insert(name).second)
    return FieldError(where, path + ".name", "duplicate value \"" + name + "\"");
  return Outcome::Ok();
}

Outcome CheckEnum(const Json& object, const char* key, std::initializer_list<const char*> allowed,
                  const std::string& where, const std::string& path) {
  const Json* v = Member(object, key);
  if (v == nullptr) return Outcome::Ok();
  if (!v->is_string())
    return FieldError(where, path + "." + key,
                      std::string("expected a string, got ") + v->type_name());
  const std::string& given = v->get_ref<const std::string&>();
  if (given.empty()) return Outcome::Ok();
  std::string supported;
  for (const char* a : allowed) {
    if (given == a) return Outcome::Ok();
    supported += std::string(supported.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return FieldError(where, path + "." + key,
                    "unsupported value \"" + given + "\" (supported: " + supported + ")");
}

Outcome CheckSelectors(const Json& object, const std::string& where, const std::string& path) {
  auto selectors = Objects(object, "selectors", where, path);
  if (!selectors.ok()) return selectors.error();
  for (size_t i = 0; i < selectors->size(); ++i) {
    const Json* cel = Member(*(*selectors)[i], "cel");
    const std::string field = At(path, "selectors", i);
    if (cel == nullptr) return FieldError(where, field + ".cel", "Required value");
    const Json* expression = Member(*cel, "expression");
    if (expression == nullptr || !expression->is_string() ||
        expression->get_ref<const std::string&>().empty()) {
      return FieldError(where, field + ".cel.expression", "Required value (a CEL expression)");
    }
  }
  return Outcome::Ok();
}

Outcome CheckTolerations(const Json& object, const std::string& where, const std::string& path) {
  auto tolerations = Objects(object, "tolerations", where, path);
  if (!tolerations.ok()) return tolerations.error();
  for (size_t i = 0; i < tolerations->size(); ++i) {
    const std::string field = At(path, "tolerations", i);
    if (Outcome ok = CheckEnum(*(*tolerations)[i], "operator", {"Exists", "Equal"}, where, field);
        !ok)
      return ok;
    if (Outcome ok = CheckEnum(*(*tolerations)[i], "effect", {"None", "NoSchedule", "NoExecute"},
                               where, field);
        !ok)
      return ok;
  }
  return Outcome::Ok();
}

// ExactDeviceRequest or DeviceSubRequest.
Outcome CheckDeviceRequest(const Json& r, const std::string& where, const std::string& path) {
  if (Str(r, "deviceClassName").empty())
    return FieldError(where, path + ".deviceClassName", "Required value");
  if (Outcome ok = CheckEnum(r, "allocationMode", {"ExactCount", "All"}, where, path); !ok)
    return ok;
  const Json* count = Member(r, "count");
  if (count != nullptr && !count->is_number_integer())
    return FieldError(where, path + ".count",
                      std::string("expected an integer, got ") + count->type_name());
  if (Str(r, "allocationMode") == "All") {
    if (count != nullptr && count->get<int64_t>() != 0)
      return FieldError(where, path + ".count", "must not be specified when allocationMode is All");
  } else if (count != nullptr && count->get<int64_t>() < 1) {
    return FieldError(where, path + ".count",
                      "invalid value " + count->dump() + ": must be greater than zero");
  }
  if (Outcome ok = CheckSelectors(r, where, path); !ok) return ok;
  return CheckTolerations(r, where, path);
}

// A ResourceClaimSpec at `path`.
Outcome CheckClaimSpec(const Json& spec, const std::string& where, const std::string& path) {
  const Json* devices = Member(spec, "devices");
  if (devices == nullptr) return Outcome::Ok();
  const std::string dpath = path + ".devices";
  auto requests = Objects(*devices, "requests", where, dpath);
  if (!requests.ok()) return requests.error();
  std::set<std::string> names;
  std::set<std::string> referable;  // "<request>" and "<request>/<subrequest>"
  for (size_t i = 0; i < requests->size(); ++i) {
    const Json& r = *(*requests)[i];
    const std::string rpath = At(dpath, "requests", i);
    if (Outcome ok = CheckName(r, where, rpath, &names); !ok) return ok;
    referable.insert(Str(r, "name"));
    const bool exactly = Member(r, "exactly") != nullptr, first = IsSet(r, "firstAvailable");
    if (exactly == first)
      return FieldError(where, rpath, "exactly one of `exactly` or `firstAvailable` is required");
    if (exactly) {
      if (Outcome ok = CheckDeviceRequest(r["exactly"], where, rpath + ".exactly"); !ok) return ok;
      continue;
    }
    auto subs = Objects(r, "firstAvailable", where, rpath);
    if (!subs.ok()) return subs.error();
    if (subs->size() > 8)
      return FieldError(
          where, rpath + ".firstAvailable",
          "too many: " + std::to_string(subs->size()) + ": must have at most 8 items");
    std::set<std::string> sub_names;
    for (size_t j = 0; j < subs->size(); ++j) {
      const std::string spath = At(rpath, "firstAvailable", j);
      if (Outcome ok = CheckName(*(*subs)[j], where, spath, &sub_names); !ok) return ok;
      referable.insert(Str(r, "name") + "/" + Str(*(*subs)[j], "name"));
      if (Outcome ok = CheckDeviceRequest(*(*subs)[j], where, spath); !ok) return ok;
    }
  }
  auto constraints = Objects(*devices, "constraints", where, dpath);
  if (!constraints.ok()) return constraints.error();
  for (size_t i = 0; i < constraints->size(); ++i) {
    const Json* names_of = Member(*(*constraints)[i], "requests");
    if (names_of == nullptr || !names_of->is_array()) continue;
    for (size_t j = 0; j < names_of->size(); ++j) {
      const Json& n = (*names_of)[j];
      if (!n.is_string() || !referable.count(n.get<std::string>())) {
        return FieldError(where,
                          At(dpath, "constraints", i) + ".requests[" + std::to_string(j) + "]",
                          "invalid value " + n.dump() +
                              ": must be the name of a request in the "
                              "claim or the name of a request and a subrequest separated by '/'");
      }
    }
  }
  return Outcome::Ok();
}

Outcome CheckTaint(const Json& taint, const std::string& where, const std::string& path) {
  if (Str(taint, "key").empty()) return FieldError(where, path + ".key", "Required value");
  if (Str(taint, "effect").empty()) return FieldError(where, path + ".effect", "Required value");
  return CheckEnum(taint, "effect", {"None", "NoSchedule", "NoExecute"}, where, path);
}

Outcome CheckDevice(const Json& d, bool per_device_nodes, const std::string& where,
                    const std::string& path, std::set<std::string>* names) {
  if (Outcome ok = CheckName(d, where, path, names); !ok) return ok;
  if (const Json* attributes = Member(d, "attributes"); attributes && attributes->is_object()) {
    for (const auto& [key, value] : attributes->items()) {
      int kinds = 0;
      for (const char* k : {"int", "bool", "string", "version"})
        kinds += Member(value, k) != nullptr;
      if (kinds != 1) {
        return FieldError(where, path + ".attributes[\"" + key + "\"]",
                          "exactly one value must be specified (int, bool, string or version)");
      }
    }
  }
  const int nodes =
      IsSet(d, "nodeName") + (Member(d, "nodeSelector") != nullptr) + IsSet(d, "allNodes");
  if (per_device_nodes && nodes != 1) {
    return FieldError(where, path,
                      "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                      "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
  }
  if (!per_device_nodes && nodes != 0) {
    return FieldError(where, path,
                      "`nodeName`, `nodeSelector` and `allNodes` can only be set on a device when "
                      "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
  }
  auto taints = Objects(d, "taints", where, path);
  if (!taints.ok()) return taints.error();
  for (size_t i = 0; i < taints->size(); ++i) {
    if (Outcome ok = CheckTaint(*(*taints)[i], where, At(path, "taints", i)); !ok) return ok;
  }
  return Outcome::Ok();
}

Outcome CheckSlice(const Json& slice, const std::string& where) {
  const Json* spec = Member(slice, "spec");
  if (spec == nullptr) return FieldError(where, "spec", "Required value");
  if (Str(*spec, "driver").empty()) return FieldError(where, "spec.driver", "Required value");
  const Json* pool = Member(*spec, "pool");
  if (pool == nullptr || Str(*pool, "name").empty())
    return FieldError(where, "spec.pool.name", "Required value");
  const int nodes = IsSet(*spec, "nodeName") + (Member(*spec, "nodeSelector") != nullptr) +
                    IsSet(*spec, "allNodes") + IsSet(*spec, "perDeviceNodeSelection");
  if (nodes != 1) {
    return FieldError(where, "spec",
                      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                      "`perDeviceNodeSelection` is required");
  }
  auto devices = Objects(*spec, "devices", where, "spec");
  if (!devices.ok()) return devices.error();
  std::set<std::string> names;
  const bool per_device = IsSet(*spec, "perDeviceNodeSelection");
  for (size_t i = 0; i < devices->size(); ++i) {
    if (Outcome ok =
            CheckDevice(*(*devices)[i], per_device, where, At("spec", "devices", i), &names);
        !ok)
      return ok;
  }
  return Outcome::Ok();
}

}  // namespace

Outcome ValidateDraObject(const Json& object, const std::string& kind, const std::string& where) {
  const Json* spec = Member(object, "spec");
  if (kind == "ResourceClaim") return spec ? CheckClaimSpec(*spec, where, "spec") : Outcome::Ok();
  if (kind == "ResourceClaimTemplate") {
    const Json* inner = spec ? Member(*spec, "spec") : nullptr;
    return inner ? CheckClaimSpec(*inner, where, "spec.spec") : Outcome::Ok();
  }
  if (kind == "ResourceSlice") return CheckSlice(object, where);
  if (kind == "DeviceClass") return spec ? CheckSelectors(*spec, where, "spec") : Outcome::Ok();
  if (kind == "DeviceTaintRule") {
    const Json* taint = spec ? Member(*spec, "taint") : nullptr;
    if (taint == nullptr) return FieldError(where, "spec.taint", "Required value");
    return CheckTaint(*taint, where, "spec.taint");
  }
  return Outcome::Ok();
}

Outcome ValidatePodResourceClaims(const Json& spec, const std::string& where,
                                  const std::string& path) {
  auto claims = Objects(spec, "resourceClaims", where, path);
  if (!claims.ok()) return claims.error();
  std::set<std::string> names;
  for (size_t i = 0; i < claims->size(); ++i) {
    const Json& c = *(*claims)[i];
    const std::string cpath = At(path, "resourceClaims", i);
    if (Outcome ok = CheckName(c, where, cpath, &names); !ok) return ok;
    if (IsSet(c, "resourceClaimName") == IsSet(c, "resourceClaimTemplateName")) {
      return FieldError(where, cpath,
                        "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
    }
  }
  for (const char* list : {"initContainers", "containers"}) {
    auto containers = Objects(spec, list, where, path);
    if (!containers.ok()) return containers.error();
    for (size_t i = 0; i < containers->size(); ++i) {
      const Json* resources = Member(*(*containers)[i], "resources");
      if (resources == nullptr) continue;
      auto used = Objects(*resources, "claims", where, At(path, list, i) + ".resources");
      if (!used.ok()) return used.error();
      for (size_t j = 0; j < used->size(); ++j) {
        const std::string name = Str(*(*used)[j], "name");
        if (!names.count(name)) {
          return FieldError(where, At(At(path, list, i) + ".resources", "claims", j) + ".name",
                            "not found: \"" + name +
                                "\": must be the name of one entry in "
                                "pod.spec.resourceClaims");
        }
      }
    }
  }
  return Outcome::Ok();
}

}  // namespace schedcheck::trace
