// PodTopologySpread construction, arguments and event registration (v1.27 plugin.go and
// apis/config/validation ValidatePodTopologySpreadArgs).
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

#include <regex>
#include <set>
#include <utility>

#include "reference/plugins/pod_topology_spread/default_selector.h"

#include <google/protobuf/util/json_util.h>

namespace schedcheck::reference {
namespace {

using pod_topology_spread::SpreadConstraint;

// metav1validation.ValidateLabelName: a qualified name, optionally prefixed by a DNS subdomain.
bool IsQualifiedName(const std::string& value) {
  static const std::regex kName("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  static const std::regex kPrefix(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  std::string name = value;
  size_t slash = value.find('/');
  if (slash != std::string::npos) {
    std::string prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty() || prefix.size() > 253 || !std::regex_match(prefix, kPrefix)) return false;
  }
  return !name.empty() && name.size() <= 63 && std::regex_match(name, kName);
}

// One defaultConstraints[i] entry: v1.TopologySpreadConstraint, strictly decoded.
Result<k8s::TopologySpreadConstraint> ParseConstraint(const nlohmann::json& json,
                                                      const std::string& field) {
  if (!json.is_object()) return Error{field + ": must be an object"};
  k8s::TopologySpreadConstraint c;
  google::protobuf::util::JsonParseOptions options;  // unknown fields are errors
  auto status = google::protobuf::util::JsonStringToMessage(json.dump(), &c, options);
  if (!status.ok()) return Error{field + ": " + status.ToString()};
  return c;
}

// ValidatePodTopologySpreadArgs; the first problem found, named by its field path.
Outcome Validate(const PodTopologySpreadArgs& args) {
  const std::string& type = args.defaulting_type;
  if (type != "System" && type != "List") {
    return Error{"defaultingType: Unsupported value: \"" + type +
                 "\": supported values: \"System\", \"List\""};
  }
  if (type == "System" && !args.default_constraints.empty()) {
    return Error{
        "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"};
  }
  for (size_t i = 0; i < args.default_constraints.size(); ++i) {
    const k8s::TopologySpreadConstraint& c = args.default_constraints[i];
    std::string p = "defaultConstraints[" + std::to_string(i) + "]";
    if (c.max_skew() <= 0) {
      return Error{p + ".maxSkew: Invalid value: " + std::to_string(c.max_skew()) +
                   ": not in valid range (0, inf)"};
    }
    if (c.topology_key().empty())
      return Error{p + ".topologyKey: Required value: can not be empty"};
    if (!IsQualifiedName(c.topology_key())) {
      return Error{p + ".topologyKey: Invalid value: \"" + c.topology_key() + "\""};
    }
    const std::string& when = c.when_unsatisfiable();
    if (when.empty()) return Error{p + ".whenUnsatisfiable: Required value: can not be empty"};
    if (when != pod_topology_spread::kDoNotSchedule &&
        when != pod_topology_spread::kScheduleAnyway) {
      return Error{p + ".whenUnsatisfiable: Unsupported value: \"" + when +
                   "\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""};
    }
    if (c.has_label_selector()) {
      return Error{p +
                   ".labelSelector: Forbidden: constraint must not define a selector, as "
                   "they deduced for each pod"};
    }
    for (size_t j = 0; j < i; ++j) {
      const k8s::TopologySpreadConstraint& other = args.default_constraints[j];
      if (other.topology_key() == c.topology_key() && other.when_unsatisfiable() == when) {
        return Error{p + ": Duplicate value: \"{" + c.topology_key() + ", " + when + "}\""};
      }
    }
  }
  return Outcome::Ok();
}

}  // namespace

Result<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(const PluginArgs& json) {
  PodTopologySpreadArgs args;
  if (json.is_null()) return args;
  if (!json.is_object()) return Error{"PodTopologySpreadArgs: must be an object"};
  for (const auto& [key, value] : json.items()) {
    if (key == "apiVersion") continue;
    if (key == "kind") {
      if (value != "PodTopologySpreadArgs") return Error{"kind: must be PodTopologySpreadArgs"};
    } else if (key == "defaultingType") {
      if (!value.is_string()) return Error{"defaultingType: must be a string"};
      // SetDefaults_PodTopologySpreadArgs: empty means System.
      if (!value.get<std::string>().empty()) args.defaulting_type = value.get<std::string>();
    } else if (key == "defaultConstraints") {
      if (value.is_null()) continue;
      if (!value.is_array()) return Error{"defaultConstraints: must be a list"};
      for (size_t i = 0; i < value.size(); ++i) {
        auto c = ParseConstraint(value[i], "defaultConstraints[" + std::to_string(i) + "]");
        if (!c.ok()) return c.error();
        args.default_constraints.push_back(std::move(*c));
      }
    } else {
      return Error{"PodTopologySpreadArgs: unknown field \"" + key + "\""};
    }
  }
  Outcome valid = Validate(args);
  if (!valid.ok()) return valid.error();
  return args;
}

Result<std::unique_ptr<Plugin>> PodTopologySpread::New(const PluginArgs& json,
                                                       const Handle& handle) {
  Result<PodTopologySpreadArgs> args = ParsePodTopologySpreadArgs(json);
  if (!args.ok()) return args.error();
  return std::unique_ptr<Plugin>(std::make_unique<PodTopologySpread>(std::move(*args), handle));
}

PodTopologySpread::PodTopologySpread(PodTopologySpreadArgs args, const Handle& handle)
    : default_constraints_(std::move(args.default_constraints)),
      system_defaulted_(args.defaulting_type == "System"),
      handle_(handle) {
  if (system_defaulted_) {
    // systemDefaultConstraints (plugin.go): hostname maxSkew 3 and zone maxSkew 5, both
    // ScheduleAnyway, so they only ever score.
    for (const auto& [key, skew] :
         {std::pair<const char*, int>{"kubernetes.io/hostname", 3},
          std::pair<const char*, int>{"topology.kubernetes.io/zone", 5}}) {
      k8s::TopologySpreadConstraint c;
      c.set_topology_key(key);
      c.set_max_skew(skew);
      c.set_when_unsatisfiable(std::string(pod_topology_spread::kScheduleAnyway));
      default_constraints_.push_back(std::move(c));
    }
  }
}

Result<std::vector<SpreadConstraint>> PodTopologySpread::BuildDefaultConstraints(
    const Pod& pod, std::string_view action) const {
  google::protobuf::RepeatedPtrField<k8s::TopologySpreadConstraint> defaults(
      default_constraints_.begin(), default_constraints_.end());
  auto constraints = pod_topology_spread::FilterTopologySpreadConstraints(
      defaults, pod.labels(), action, handle_.features.match_label_keys_in_pod_topology_spread);
  if (!constraints.ok() || constraints->empty()) return constraints;
  // Upstream always has listers; without them (no handle.objects) nothing selects the pod.
  if (handle_.objects == nullptr) return std::vector<SpreadConstraint>{};
  pod_topology_spread::SpreadSelector selector =
      pod_topology_spread::DefaultSelector(pod, *handle_.objects);
  if (selector.Empty()) return std::vector<SpreadConstraint>{};
  for (SpreadConstraint& c : *constraints) c.selector = selector;
  return constraints;
}

std::vector<ClusterEvent> PodTopologySpread::EventsToRegister() const {
  return {
      // A pod added, relabelled or deleted changes the counts in its domain.
      ClusterEvent{std::string(resource::kPod), action::kAll, ""},
      // A node appearing, disappearing or being relabelled changes the domains.
      ClusterEvent{std::string(resource::kNode),
                   action::kAdd | action::kDelete | action::kUpdateNodeLabel, ""},
  };
}

}  // namespace schedcheck::reference
