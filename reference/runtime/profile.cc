#include "reference/runtime/profile.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "reference/base/compat_level.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference {
namespace {

struct PointNames {
  std::string_view name;
  std::string_view key;
};

constexpr PointNames kPoints[kNumExtensionPoints] = {
    {"PreEnqueue", "preEnqueue"},
    {"QueueSort", "queueSort"},
    {"PreFilter", "preFilter"},
    {"Filter", "filter"},
    {"PostFilter", "postFilter"},
    {"PreScore", "preScore"},
    {"Score", "score"},
    {"Reserve", "reserve"},
    {"Permit", "permit"},
    {"PreBind", "preBind"},
    {"Bind", "bind"},
    {"PostBind", "postBind"},
    {"MultiPoint", "multiPoint"},
};

// Where a configuration's errors point: `document` ("cfg.yaml: line 3"), or, when its YAML text
// is known, `path` and the line of the offending field (looked up only once there is an error).
struct Source {
  std::string document;
  std::string path;
  std::string_view yaml;  // empty: every error names `document`

  std::string At(const std::string& field) const {
    const int line = yaml.empty() ? 0 : k8s::YamlFieldLine(yaml, field);
    return line > 0 ? path + ": line " + std::to_string(line) : document;
  }
};

Error FieldError(const Source& source, const std::string& field, const std::string& what) {
  return Error{source.At(field) + ": field " + field + ": " + what};
}

Result<std::vector<PluginEntry>> ParsePluginList(const nlohmann::json& list, const Source& source,
                                                 const std::string& field) {
  std::vector<PluginEntry> out;
  if (list.is_null()) return out;
  if (!list.is_array()) return FieldError(source, field, "expected a list of {name, weight}");
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& item = list[i];
    std::string f = field + "[" + std::to_string(i) + "]";
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
      return FieldError(source, f, "expected an object with a string \"name\"");
    }
    PluginEntry e{item["name"].get<std::string>(), 0};
    if (item.contains("weight") && !item["weight"].is_null()) {
      if (!item["weight"].is_number_integer())
        return FieldError(source, f + ".weight", "expected an integer");
      int64_t w = item["weight"].get<int64_t>();
      if (w < 0 || w > INT32_MAX)
        return FieldError(source, f + ".weight", "must be between 0 and 2147483647");
      e.weight = static_cast<int32_t>(w);
    }
    for (const auto& [key, value] : item.items()) {
      if (key != "name" && key != "weight")
        return FieldError(source, f + "." + key, "unknown field");
    }
    out.push_back(std::move(e));
  }
  return out;
}

Result<Profile> ParseProfile(const nlohmann::json& p, const Source& source,
                             const std::string& field, std::string_view compat) {
  Profile profile = DefaultProfile(compat);
  if (!p.is_object()) return FieldError(source, field, "expected an object");
  for (const auto& [key, value] : p.items()) {
    if (key == "schedulerName") {
      if (!value.is_string())
        return FieldError(source, field + ".schedulerName", "expected a string");
      profile.scheduler_name = value.get<std::string>();
    } else if (key == "percentageOfNodesToScore") {
      if (value.is_null()) continue;
      if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > 100) {
        return FieldError(source, field + ".percentageOfNodesToScore",
                          "must be an integer in [0, 100]");
      }
      profile.percentage_of_nodes_to_score = value.get<int32_t>();
    } else if (key == "plugins") {
      if (value.is_null()) continue;
      if (!value.is_object()) return FieldError(source, field + ".plugins", "expected an object");
      for (const auto& [point_key, set] : value.items()) {
        int index = -1;
        for (int i = 0; i < kNumExtensionPoints; ++i) {
          if (kPoints[i].key == point_key) index = i;
        }
        std::string f = field + ".plugins." + point_key;
        if (index < 0) return FieldError(source, f, "unknown extension point");
        if (set.is_null()) continue;
        if (!set.is_object()) return FieldError(source, f, "expected {enabled, disabled}");
        PluginSet custom;
        for (const auto& [k, v] : set.items()) {
          if (k != "enabled" && k != "disabled")
            return FieldError(source, f + "." + k, "unknown field");
        }
        auto enabled =
            ParsePluginList(set.value("enabled", nlohmann::json()), source, f + ".enabled");
        if (!enabled.ok()) return enabled.error();
        auto disabled =
            ParsePluginList(set.value("disabled", nlohmann::json()), source, f + ".disabled");
        if (!disabled.ok()) return disabled.error();
        custom.enabled = std::move(*enabled);
        custom.disabled = std::move(*disabled);
        profile.plugins[index] = MergePluginSet(profile.plugins[index], custom);
      }
    } else if (key == "pluginConfig") {
      if (value.is_null()) continue;
      if (!value.is_array()) return FieldError(source, field + ".pluginConfig", "expected a list");
      for (size_t i = 0; i < value.size(); ++i) {
        std::string f = field + ".pluginConfig[" + std::to_string(i) + "]";
        const auto& pc = value[i];
        if (!pc.is_object() || !pc.contains("name") || !pc["name"].is_string()) {
          return FieldError(source, f, "expected {name, args}");
        }
        std::string name = pc["name"].get<std::string>();
        if (profile.plugin_config.count(name))
          return FieldError(source, f, "duplicate config for plugin " + name);
        nlohmann::json args = pc.value("args", nlohmann::json());
        if (args.is_object()) {
          args.erase("apiVersion");
          args.erase("kind");
        }
        profile.plugin_config[name] = std::move(args);
      }
    } else {
      return FieldError(source, field + "." + key, "unknown field");
    }
  }
  return profile;
}

}  // namespace

std::string_view ExtensionPointName(ExtensionPoint point) {
  return kPoints[static_cast<int>(point)].name;
}
std::string_view ExtensionPointConfigKey(ExtensionPoint point) {
  return kPoints[static_cast<int>(point)].key;
}

bool ParseExtensionPointName(std::string_view name, ExtensionPoint* point) {
  for (int i = 0; i < kNumExtensionPoints; ++i) {
    if (kPoints[i].name == name) {
      *point = static_cast<ExtensionPoint>(i);
      return true;
    }
  }
  return false;
}

// apis/config/v1/default_plugins.go at each level's tag.
std::vector<PluginEntry> DefaultMultiPoint(std::string_view compat) {
  if (ParseCompatLevel(compat) == CompatLevel::kV1_37) {
    // v1.37.2: SchedulingGates moved first; the in-tree EBS / GCE PD / Azure Disk limit plugins
    // are gone; applyFeatureGates inserts DynamicResources (weight 2) before DefaultPreemption
    // (DynamicResourceAllocation: GA) and appends NodeDeclaredFeatures (GA). GangScheduling
    // follows with GenericWorkload (beta, off; WithGatedDefaultPlugins adds it for a run with
    // the gate on). The other gated plugins (DeferredPodScheduling, TopologyPlacementGenerator)
    // are alpha and off.
    return {
        {"SchedulingGates", 0},
        {"PrioritySort", 0},
        {"NodeName", 0},
        {"NodeUnschedulable", 0},
        {"TaintToleration", 3},
        {"NodeAffinity", 2},
        {"NodePorts", 0},
        {"NodeResourcesFit", 1},
        {"VolumeRestrictions", 0},
        {"NodeVolumeLimits", 0},
        {"VolumeBinding", 0},
        {"VolumeZone", 0},
        {"PodTopologySpread", 2},
        {"InterPodAffinity", 2},
        {"DynamicResources", 2},
        {"DefaultPreemption", 0},
        {"NodeResourcesBalancedAllocation", 1},
        {"ImageLocality", 1},
        {"DefaultBinder", 0},
        {"NodeDeclaredFeatures", 0},
    };
  }
  return {
      {"PrioritySort", 0},      {"NodeUnschedulable", 0},
      {"NodeName", 0},          {"TaintToleration", 3},
      {"NodeAffinity", 2},      {"NodePorts", 0},
      {"NodeResourcesFit", 1},  {"VolumeRestrictions", 0},
      {"EBSLimits", 0},         {"GCEPDLimits", 0},
      {"NodeVolumeLimits", 0},  {"AzureDiskLimits", 0},
      {"VolumeBinding", 0},     {"VolumeZone", 0},
      {"PodTopologySpread", 2}, {"InterPodAffinity", 2},
      {"DefaultPreemption", 0}, {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},     {"DefaultBinder", 0},
      {"SchedulingGates", 0},  // PodSchedulingReadiness is beta and on in v1.27: appended last
  };
}

Profile DefaultProfile(std::string_view compat) {
  Profile p;
  p.at(ExtensionPoint::kMultiPoint).enabled = DefaultMultiPoint(compat);
  return p;
}

SchedulerConfiguration DefaultConfiguration(std::string_view compat) {
  SchedulerConfiguration c;
  c.profiles.push_back(DefaultProfile(compat));
  return c;
}

Profile WithGatedDefaultPlugins(Profile profile, const Features& features) {
  constexpr std::string_view kGangScheduling = "GangScheduling";
  PluginSet& multi = profile.at(ExtensionPoint::kMultiPoint);
  if (!features.generic_workload || multi.enabled.empty()) return profile;
  for (const PluginEntry& d : multi.disabled) {
    if (d.name == "*" || d.name == kGangScheduling) return profile;
  }
  // A user's own GangScheduling entry keeps its weight but takes the default's place.
  PluginEntry gang{std::string(kGangScheduling), 0};
  auto own = std::find_if(multi.enabled.begin(), multi.enabled.end(),
                          [&](const PluginEntry& e) { return e.name == kGangScheduling; });
  if (own != multi.enabled.end()) {
    gang = *own;
    multi.enabled.erase(own);
  }
  // The default plugins of either level: a plugin only one level has (the in-tree volume limits of
  // v1.27) is not registered at the other, so the union places GangScheduling as the level's own
  // list would.
  std::set<std::string> defaults;
  for (std::string_view compat : {"1.27", "1.37"}) {
    for (const PluginEntry& d : DefaultMultiPoint(compat)) defaults.insert(d.name);
  }
  size_t position = 0;
  for (size_t i = 0; i < multi.enabled.size(); ++i) {
    if (defaults.count(multi.enabled[i].name)) position = i + 1;
  }
  multi.enabled.insert(multi.enabled.begin() + static_cast<std::ptrdiff_t>(position),
                       std::move(gang));
  return profile;
}

PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom) {
  std::set<std::string> disabled;
  PluginSet out;
  for (const PluginEntry& d : custom.disabled) {
    out.disabled.push_back({d.name, 0});
    disabled.insert(d.name);
  }
  std::set<size_t> replaced;
  if (!disabled.count("*")) {
    for (const PluginEntry& def : defaults.enabled) {
      if (disabled.count(def.name)) continue;
      // A re-configured default keeps its position. Upstream indexes the custom entries by name,
      // so the last one of a name wins and earlier duplicates are appended (and then rejected
      // as double registrations).
      std::optional<size_t> last;
      for (size_t i = 0; i < custom.enabled.size(); ++i) {
        if (custom.enabled[i].name == def.name) last = i;
      }
      if (last) replaced.insert(*last);
      out.enabled.push_back(last ? custom.enabled[*last] : def);
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i) {
    if (!replaced.count(i)) out.enabled.push_back(custom.enabled[i]);
  }
  return out;
}

namespace {

Result<SchedulerConfiguration> ParseConfiguration(const nlohmann::json& doc, const Source& source,
                                                  std::string_view compat) {
  SchedulerConfiguration config;
  if (!doc.is_object())
    return Error{source.document + ": expected a KubeSchedulerConfiguration object"};
  // Not doc.value(key, ""): it throws when the key is present but null or not a string (`kind:`).
  auto text = [&doc](const char* key) -> std::string {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
  };
  std::string api = text("apiVersion");
  if (api != "kubescheduler.config.k8s.io/v1") {
    return FieldError(source, "apiVersion",
                      "want \"kubescheduler.config.k8s.io/v1\", got \"" + api + "\"");
  }
  if (text("kind") != "KubeSchedulerConfiguration") {
    return FieldError(source, "kind", "want \"KubeSchedulerConfiguration\"");
  }
  for (const auto& [key, value] : doc.items()) {
    if (key == "apiVersion" || key == "kind") continue;
    if (key == "percentageOfNodesToScore" || key == "podInitialBackoffSeconds" ||
        key == "podMaxBackoffSeconds") {
      if (value.is_null()) continue;
      if (!value.is_number_integer()) return FieldError(source, key, "expected an integer");
      int64_t v = value.get<int64_t>();
      if (key == "percentageOfNodesToScore") {
        if (v < 0 || v > 100) return FieldError(source, key, "must be in [0, 100]");
        config.percentage_of_nodes_to_score = static_cast<int32_t>(v);
      } else if (v <= 0) {
        return FieldError(source, key, "must be greater than 0");
      } else if (key == "podInitialBackoffSeconds") {
        config.pod_initial_backoff_seconds = v;
      } else {
        config.pod_max_backoff_seconds = v;
      }
    } else if (key == "profiles") {
      if (!value.is_array()) return FieldError(source, key, "expected a list");
      std::set<std::string> names;
      for (size_t i = 0; i < value.size(); ++i) {
        auto profile =
            ParseProfile(value[i], source, "profiles[" + std::to_string(i) + "]", compat);
        if (!profile.ok()) return profile.error();
        if (!names.insert(profile->scheduler_name).second) {
          return FieldError(source, "profiles[" + std::to_string(i) + "].schedulerName",
                            "duplicate profile \"" + profile->scheduler_name + "\"");
        }
        config.profiles.push_back(std::move(*profile));
      }
    } else if (key == "parallelism" || key == "leaderElection" || key == "clientConnection" ||
               key == "extenders" || key == "delayCacheUntilActive" || key == "enableProfiling" ||
               key == "enableContentionProfiling" || key == "healthzBindAddress" ||
               key == "metricsBindAddress") {
      continue;  // no effect on a sequential, in-process reference
    } else {
      return FieldError(source, key, "unknown field");
    }
  }
  if (config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds) {
    return FieldError(source, "podMaxBackoffSeconds", "must be >= podInitialBackoffSeconds");
  }
  if (config.profiles.empty()) config.profiles.push_back(DefaultProfile(compat));
  return config;
}

}  // namespace

Result<SchedulerConfiguration> ParseSchedulerConfiguration(const nlohmann::json& doc,
                                                           const std::string& source,
                                                           std::string_view compat) {
  return ParseConfiguration(doc, Source{.document = source}, compat);
}

Result<SchedulerConfiguration> ParseSchedulerConfigurationYaml(std::string_view yaml,
                                                               const std::string& source,
                                                               std::string_view compat,
                                                               const k8s::YamlLimits& limits) {
  auto docs = k8s::ParseYamlDocuments(yaml, source, limits);
  if (!docs.ok()) return docs.error();
  if (docs->size() != 1)
    return Error{source + ": want exactly one KubeSchedulerConfiguration document"};
  const std::string document = source + ": line " + std::to_string((*docs)[0].line);
  return ParseConfiguration((*docs)[0].json,
                            Source{.document = document, .path = source, .yaml = yaml}, compat);
}

Result<SchedulerConfiguration> LoadSchedulerConfiguration(const std::string& path,
                                                          std::string_view compat,
                                                          const k8s::YamlLimits& yaml) {
  auto ends_with = [&path](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".yaml") || ends_with(".yml")) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open file"};
    std::stringstream text;
    text << in.rdbuf();
    return ParseSchedulerConfigurationYaml(text.str(), path, compat, yaml);
  }
  auto docs = k8s::ReadDocumentsFile(path, yaml);
  if (!docs.ok()) return docs.error();
  if (docs->size() != 1)
    return Error{path + ": want exactly one KubeSchedulerConfiguration document"};
  return ParseSchedulerConfiguration((*docs)[0].json,
                                     path + ": line " + std::to_string((*docs)[0].line), compat);
}

}  // namespace schedcheck::reference
