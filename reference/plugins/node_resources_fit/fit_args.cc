// NodeResourcesFitArgs decoding, v1 defaulting (apis/config/v1/defaults.go) and validation
// (apis/config/validation/validation_pluginargs.go) as of v1.27.
#include <string>
#include <utility>

#include "reference/plugins/helper/shape_score.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The name part of a qualified name: 1..63 characters of [-A-Za-z0-9_.], alphanumeric at both ends.
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || s.size() > 63 || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// A DNS-1123 subdomain: lowercase labels of [-a-z0-9] joined by '.', at most 253 characters.
bool IsDns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty()) return false;
    auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// metav1validation.ValidateLabelName: an optional "prefix/" (a DNS subdomain) then a name part.
bool IsQualifiedName(std::string_view s) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return IsQualifiedNamePart(s);
  if (s.find('/', slash + 1) != std::string_view::npos) return false;
  return IsDns1123Subdomain(s.substr(0, slash)) && IsQualifiedNamePart(s.substr(slash + 1));
}

Outcome ParseNameList(const nlohmann::json& v, const std::string& field, bool is_group,
                      std::set<std::string, std::less<>>* out) {
  if (v.is_null()) return Outcome::Ok();
  if (!v.is_array()) return Error{field + ": expected a list of strings"};
  for (size_t i = 0; i < v.size(); ++i) {
    std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!v[i].is_string()) return Error{item_field + ": expected a string"};
    std::string name = v[i].get<std::string>();
    if (is_group && name.find('/') != std::string::npos) {
      return Error{item_field + ": Invalid value: \"" + name +
                   "\": resource group name can't contain '/'"};
    }
    if (!IsQualifiedName(name)) {
      return Error{item_field + ": Invalid value: \"" + name + "\": not a valid qualified name"};
    }
    out->insert(std::move(name));
  }
  return Outcome::Ok();
}

// The RequestedToCapacityRatio shape (validateFunctionShape): v1.27 reports its errors under
// "scoringStrategy.shape", v1.37 under "scoringStrategy.requestedToCapacityRatio.shape".
Result<std::vector<UtilizationShapePoint>> ParseShape(const nlohmann::json& rtcr,
                                                      const Features& features) {
  if (!rtcr.is_object())
    return Error{"scoringStrategy.requestedToCapacityRatio: expected an object"};
  const nlohmann::json* points = nullptr;
  for (const auto& [key, v] : rtcr.items()) {
    if (key != "shape")
      return Error{"scoringStrategy.requestedToCapacityRatio." + key + ": unknown field"};
    points = &v;
  }
  const std::string path = features.reworded_messages
                               ? "scoringStrategy.requestedToCapacityRatio.shape"
                               : "scoringStrategy.shape";
  if (points == nullptr || points->is_null() || (points->is_array() && points->empty())) {
    return Error{path + ": Required value: at least one point must be specified"};
  }
  auto parsed = ParseFunctionShape(*points, path, features);
  if (!parsed.ok()) return parsed.error();
  std::vector<UtilizationShapePoint> shape;
  for (const FunctionShapePoint& p : *parsed) shape.push_back({p.utilization, p.score});
  return shape;
}

Outcome ParseScoringStrategy(const nlohmann::json& s, const Features& features,
                             NodeResourcesFitArgs* args) {
  if (!s.is_object()) return Error{"scoringStrategy: expected an object"};
  args->scoring_type.clear();
  nlohmann::json resources;
  const nlohmann::json* rtcr = nullptr;
  for (const auto& [key, v] : s.items()) {
    if (key == "type") {
      if (!v.is_string()) return Error{"scoringStrategy.type: expected a string"};
      args->scoring_type = v.get<std::string>();
    } else if (key == "resources") {
      resources = v;
    } else if (key == "requestedToCapacityRatio") {
      if (!v.is_null()) rtcr = &v;
    } else {
      return Error{"scoringStrategy." + key + ": unknown field"};
    }
  }
  const std::string& type = args->scoring_type;
  if (type != "LeastAllocated" && type != "MostAllocated" && type != "RequestedToCapacityRatio") {
    return Error{"scoringStrategy.type: Unsupported value: \"" + type +
                 "\": supported values: \"LeastAllocated\", \"MostAllocated\", "
                 "\"RequestedToCapacityRatio\""};
  }
  Result<std::vector<ResourceSpec>> specs =
      ParseResourceSpecs(resources, "scoringStrategy.resources");
  if (!specs.ok()) return specs.error();
  for (size_t i = 0; i < specs->size(); ++i) {
    const ResourceSpec& r = (*specs)[i];
    if (r.weight <= 0 || r.weight > 100) {
      return Error{"scoringStrategy.resources[" + std::to_string(i) +
                   "].weight: Invalid value: " + std::to_string(r.weight) +
                   ": resource weight of " + r.name + " not in valid range (0, 100]"};
    }
  }
  args->resources = std::move(*specs);
  if (rtcr != nullptr) {
    Result<std::vector<UtilizationShapePoint>> shape = ParseShape(*rtcr, features);
    if (!shape.ok()) return shape.error();
    args->shape = std::move(*shape);
  }
  // Upstream dereferences the missing shape and crashes; refusing the config is our choice.
  if (type == "RequestedToCapacityRatio" && rtcr == nullptr) {
    return Error{
        "scoringStrategy.requestedToCapacityRatio: Required value: the "
        "RequestedToCapacityRatio strategy needs a shape"};
  }
  return Outcome::Ok();
}

}  // namespace

Result<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const PluginArgs& json,
                                                       const Features& features) {
  NodeResourcesFitArgs args;
  if (json.is_null()) return args;
  if (!json.is_object()) return Error{"NodeResourcesFitArgs: expected an object"};
  for (const auto& [key, v] : json.items()) {
    Outcome ok = Outcome::Ok();
    if (key == "apiVersion" || key == "kind") continue;
    if (key == "ignoredResources") {
      ok = ParseNameList(v, key, /*is_group=*/false, &args.ignored_resources);
    } else if (key == "ignoredResourceGroups") {
      ok = ParseNameList(v, key, /*is_group=*/true, &args.ignored_resource_groups);
    } else if (key == "scoringStrategy") {
      if (!v.is_null()) ok = ParseScoringStrategy(v, features, &args);
    } else {
      ok = Error{key + ": unknown field"};
    }
    if (!ok.ok()) return ok.error();
  }
  return args;
}

}  // namespace schedcheck::reference
