#include "traces/importers/pod_group_validation.h"

#include <initializer_list>
#include <set>
#include <vector>

#include "traces/importers/validation_json.h"

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;
using validation_json::FieldError;
using validation_json::Member;
using validation_json::Str;

constexpr char kApiVersion[] = "scheduling.k8s.io/v1beta1";

std::string Join(const std::string& path, const char* key) {
  return path.empty() ? key : path + "." + key;
}

std::string At(const std::string& path, const char* key, size_t i) {
  return Join(path, key) + "[" + std::to_string(i) + "]";
}

// The object at `key`, or null when absent; an error when it is not an object.
Result<const Json*> ObjectAt(const Json& object, const char* key, const std::string& where,
                             const std::string& path) {
  const Json* v = Member(object, key);
  if (v != nullptr && !v->is_object())
    return FieldError(where, Join(path, key),
                      std::string("expected an object, got ") + v->type_name());
  return v;
}

// The list at `key` (absent: empty), each item an object.
Result<std::vector<const Json*>> Objects(const Json& object, const char* key,
                                         const std::string& where, const std::string& path) {
  std::vector<const Json*> out;
  const Json* list = Member(object, key);
  if (list == nullptr) return out;
  if (!list->is_array())
    return FieldError(where, Join(path, key),
                      std::string("expected a list, got ") + list->type_name());
  for (size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_object())
      return FieldError(where, At(path, key, i),
                        std::string("expected an object, got ") + (*list)[i].type_name());
    out.push_back(&(*list)[i]);
  }
  return out;
}

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// RFC 1123 label: 1-63 of [a-z0-9-], starting and ending alphanumeric.
bool IsDnsLabel(const std::string& s) {
  if (s.empty() || s.size() > 63 || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-') return false;
  }
  return true;
}

// RFC 1123 subdomain: at most 253 characters, dot-separated labels.
bool IsDnsSubdomain(const std::string& s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    if (!IsDnsLabel(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start)))
      return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// A required name that is a DNS label, unique among `seen`.
Outcome CheckName(const Json& object, const std::string& where, const std::string& path,
                  std::set<std::string>* seen) {
  const std::string name = Str(object, "name");
  if (name.empty()) return FieldError(where, Join(path, "name"), "Required value");
  if (!IsDnsLabel(name))
    return FieldError(
        where, Join(path, "name"),
        "invalid value \"" + name +
            "\": must be a DNS label (lowercase letters, digits and '-', at most 63)");
  if (!seen->insert(name).second)
    return FieldError(where, Join(path, "name"), "duplicate value \"" + name + "\"");
  return Outcome::Ok();
}

// A union: exactly one of `members` is present (an empty object counts: `basic: {}`).
Outcome CheckUnion(const Json& object, std::initializer_list<const char*> members,
                   const std::string& where, const std::string& path) {
  int set = 0;
  std::string names;
  for (const char* m : members) {
    if (Member(object, m) != nullptr) ++set;
    names += std::string(names.empty() ? "" : ", ") + "`" + m + "`";
  }
  if (set == 1) return Outcome::Ok();
  return FieldError(
      where, path.empty() ? "(object)" : path,
      set == 0 ? "must specify one of: " + names : "must specify exactly one of: " + names);
}

// An integer at `key` within [min, max] when present (`required`: must be present).
Outcome CheckInt(const Json& object, const char* key, bool required, int64_t min, int64_t max,
                 const std::string& where, const std::string& path) {
  const Json* v = Member(object, key);
  if (v == nullptr) {
    return required ? FieldError(where, Join(path, key), "Required value") : Outcome::Ok();
  }
  if (!v->is_number_integer())
    return FieldError(where, Join(path, key),
                      std::string("expected an integer, got ") + v->type_name());
  const int64_t n =
      v->is_number_unsigned() && v->get<uint64_t>() > INT64_MAX ? INT64_MAX : v->get<int64_t>();
  if (n < min)
    return FieldError(where, Join(path, key),
                      "must be greater than or equal to " + std::to_string(min));
  if (n > max)
    return FieldError(where, Join(path, key),
                      "must be less than or equal to " + std::to_string(max));
  return Outcome::Ok();
}

Outcome CheckEnum(const Json& object, const char* key, std::initializer_list<const char*> allowed,
                  const std::string& where, const std::string& path) {
  const Json* v = Member(object, key);
  if (v == nullptr) return Outcome::Ok();
  if (!v->is_string())
    return FieldError(where, Join(path, key),
                      std::string("expected a string, got ") + v->type_name());
  std::string supported;
  for (const char* a : allowed) {
    if (v->get_ref<const std::string&>() == a) return Outcome::Ok();
    supported += std::string(supported.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return FieldError(
      where, Join(path, key),
      "unsupported value \"" + v->get<std::string>() + "\" (supported: " + supported + ")");
}

Outcome CheckSchedulingPolicy(const Json& group, const std::string& where,
                              const std::string& path) {
  auto policy = ObjectAt(group, "schedulingPolicy", where, path);
  if (!policy.ok()) return policy.error();
  const std::string ppath = Join(path, "schedulingPolicy");
  if (*policy == nullptr) return FieldError(where, ppath, "Required value");
  if (Outcome ok = CheckUnion(**policy, {"basic", "gang"}, where, ppath); !ok) return ok;
  for (const char* member : {"basic", "gang"}) {
    if (auto m = ObjectAt(**policy, member, where, ppath); !m.ok()) return m.error();
  }
  const Json* gang = Member(**policy, "gang");
  if (gang == nullptr) return Outcome::Ok();
  return CheckInt(*gang, "minCount", true, 1, INT32_MAX, where, Join(ppath, "gang"));
}

Outcome CheckClaims(const Json& group, const std::string& where, const std::string& path) {
  auto claims = Objects(group, "resourceClaims", where, path);
  if (!claims.ok()) return claims.error();
  if (claims->size() > 4)
    return FieldError(where, Join(path, "resourceClaims"),
                      "must have at most 4 items, got " + std::to_string(claims->size()));
  std::set<std::string> names;
  for (size_t i = 0; i < claims->size(); ++i) {
    const std::string cpath = At(path, "resourceClaims", i);
    if (Outcome ok = CheckName(*(*claims)[i], where, cpath, &names); !ok) return ok;
    if (Outcome ok = CheckUnion(*(*claims)[i], {"resourceClaimName", "resourceClaimTemplateName"},
                                where, cpath);
        !ok)
      return ok;
  }
  return Outcome::Ok();
}

// What a PodGroup's spec and a Workload's podGroupTemplates[] have in common.
Outcome CheckGroupPolicy(const Json& group, const std::string& where, const std::string& path) {
  if (Outcome ok = CheckSchedulingPolicy(group, where, path); !ok) return ok;
  auto constraints = ObjectAt(group, "schedulingConstraints", where, path);
  if (!constraints.ok()) return constraints.error();
  if (*constraints != nullptr) {
    const std::string cpath = Join(path, "schedulingConstraints");
    auto topology = Objects(**constraints, "topology", where, cpath);
    if (!topology.ok()) return topology.error();
    if (topology->size() > 1)
      return FieldError(where, Join(cpath, "topology"),
                        "must have at most 1 item, got " + std::to_string(topology->size()));
    if (!topology->empty() && Str(*topology->front(), "key").empty())
      return FieldError(where, At(cpath, "topology", 0) + ".key", "Required value");
  }
  if (Outcome ok = CheckClaims(group, where, path); !ok) return ok;
  auto disruption = ObjectAt(group, "disruptionMode", where, path);
  if (!disruption.ok()) return disruption.error();
  if (*disruption != nullptr) {
    if (Outcome ok =
            CheckUnion(**disruption, {"single", "all"}, where, Join(path, "disruptionMode"));
        !ok)
      return ok;
  }
  if (Outcome ok = CheckInt(group, "priority", false, INT32_MIN, 1'000'000'000, where, path); !ok)
    return ok;
  return CheckEnum(group, "preemptionPolicy", {"PreemptLowerPriority", "Never"}, where, path);
}

Outcome CheckPodGroup(const Json& object, const std::string& where) {
  auto spec = ObjectAt(object, "spec", where, "");
  if (!spec.ok()) return spec.error();
  if (*spec == nullptr) return FieldError(where, "spec", "Required value");
  auto ref = ObjectAt(**spec, "workloadRef", where, "spec");
  if (!ref.ok()) return ref.error();
  if (*ref != nullptr) {
    for (const char* key : {"workloadName", "templateName"}) {
      if (Str(**ref, key).empty())
        return FieldError(where, std::string("spec.workloadRef.") + key, "Required value");
    }
  }
  return CheckGroupPolicy(**spec, where, "spec");
}

Outcome CheckWorkload(const Json& object, const std::string& where) {
  auto spec = ObjectAt(object, "spec", where, "");
  if (!spec.ok()) return spec.error();
  if (*spec == nullptr) return FieldError(where, "spec", "Required value");
  auto owner = ObjectAt(**spec, "controllerRef", where, "spec");
  if (!owner.ok()) return owner.error();
  if (*owner != nullptr) {
    for (const char* key : {"kind", "name"}) {
      if (Str(**owner, key).empty())
        return FieldError(where, std::string("spec.controllerRef.") + key, "Required value");
    }
  }
  auto templates = Objects(**spec, "podGroupTemplates", where, "spec");
  if (!templates.ok()) return templates.error();
  if (templates->empty()) return FieldError(where, "spec.podGroupTemplates", "Required value");
  if (templates->size() > 8)
    return FieldError(where, "spec.podGroupTemplates",
                      "must have at most 8 items, got " + std::to_string(templates->size()));
  std::set<std::string> names;
  for (size_t i = 0; i < templates->size(); ++i) {
    const std::string tpath = At("spec", "podGroupTemplates", i);
    if (Outcome ok = CheckName(*(*templates)[i], where, tpath, &names); !ok) return ok;
    if (Outcome ok = CheckGroupPolicy(*(*templates)[i], where, tpath); !ok) return ok;
  }
  return Outcome::Ok();
}

}  // namespace

Outcome ValidatePodGroupObject(const Json& object, const std::string& kind,
                               const std::string& where) {
  const Json* version = Member(object, "apiVersion");
  if (version != nullptr && (!version->is_string() || *version != kApiVersion)) {
    return FieldError(where, "apiVersion",
                      "unsupported value " + version->dump() + " for a " + kind +
                          " (supported: \"" + kApiVersion +
                          "\", the version kube-scheduler v1.37.2 reads)");
  }
  return kind == "PodGroup" ? CheckPodGroup(object, where) : CheckWorkload(object, where);
}

Outcome ValidatePodSchedulingGroup(const Json& spec, const std::string& where,
                                   const std::string& path) {
  auto group = ObjectAt(spec, "schedulingGroup", where, path);
  if (!group.ok()) return group.error();
  if (*group == nullptr) return Outcome::Ok();
  const std::string gpath = Join(path, "schedulingGroup");
  const Json* name = Member(**group, "podGroupName");
  if (name == nullptr) return FieldError(where, gpath, "must specify one of: `podGroupName`");
  if (!name->is_string() || !IsDnsSubdomain(name->get<std::string>())) {
    return FieldError(where, gpath + ".podGroupName",
                      "invalid value " + name->dump() +
                          ": must be a DNS subdomain (lowercase letters, digits, '-' and '.', at "
                          "most 253)");
  }
  return Outcome::Ok();
}

}  // namespace schedcheck::trace
