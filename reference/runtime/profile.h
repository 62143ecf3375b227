// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as schedcheck reads it: profiles,
// per-extension-point plugin sets, MultiPoint, weights and plugin args. Parsing applies upstream's
// v1 defaulting (the default MultiPoint set merged with the user's sets); expansion into
// per-point plugin lists happens when a Framework is built from a Profile.
#ifndef SCHEDCHECK_REFERENCE_RUNTIME_PROFILE_H_
#define SCHEDCHECK_REFERENCE_RUNTIME_PROFILE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/k8s/yaml_limits.h"

namespace schedcheck::reference {

enum class ExtensionPoint {
  kPreEnqueue,
  kQueueSort,
  kPreFilter,
  kFilter,
  kPostFilter,
  kPreScore,
  kScore,
  kReserve,
  kPermit,
  kPreBind,
  kBind,
  kPostBind,
  kMultiPoint,
};
inline constexpr int kNumExtensionPoints = 13;

// "PreEnqueue", ..., "MultiPoint"; and the lowerCamel config keys "preEnqueue", ..., "multiPoint".
std::string_view ExtensionPointName(ExtensionPoint point);
std::string_view ExtensionPointConfigKey(ExtensionPoint point);
bool ParseExtensionPointName(std::string_view name, ExtensionPoint* point);

struct PluginEntry {
  std::string name;
  int32_t weight = 0;  // Score only; 0 = unset (becomes 1)
};

struct PluginSet {
  std::vector<PluginEntry> enabled;
  std::vector<PluginEntry> disabled;
};

struct Profile {
  std::string scheduler_name = "default-scheduler";
  std::optional<int32_t> percentage_of_nodes_to_score;
  std::array<PluginSet, kNumExtensionPoints> plugins;
  std::map<std::string, nlohmann::json> plugin_config;  // plugin name -> args

  PluginSet& at(ExtensionPoint p) { return plugins[static_cast<int>(p)]; }
  const PluginSet& at(ExtensionPoint p) const { return plugins[static_cast<int>(p)]; }
};

struct SchedulerConfiguration {
  int32_t percentage_of_nodes_to_score = 0;  // 0 = adaptive
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<Profile> profiles;
};

// The default MultiPoint plugin list of kube-scheduler at `compat`, with weights (v1.27
// default_plugins.go getDefaultPlugins; docs/SEMANTICS.md#default-profile).
std::vector<PluginEntry> DefaultMultiPoint(std::string_view compat);
// One profile "default-scheduler" with upstream's defaults.
Profile DefaultProfile(std::string_view compat);
SchedulerConfiguration DefaultConfiguration(std::string_view compat);

// applyFeatureGates' GenericWorkload step (v1.37 default_plugins.go appends GangScheduling to
// the default MultiPoint list), for a profile parsed before a run's gates are known: GangScheduling
// goes right after the last default plugin the profile kept (where upstream's merge of the user's
// set over the defaults puts it), unless the profile disables it or every default ("*"). A
// profile without MultiPoint plugins (built by hand, not over the defaults) is left as it is, and
// so is every profile with the gate off (always so at compat 1.27).
Profile WithGatedDefaultPlugins(Profile profile, const Features& features);

// upstream mergePluginSet: the user's set merged over the defaults (a re-configured default keeps
// its position; "*" in disabled drops every default).
PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom);

// Parses a KubeSchedulerConfiguration document. Errors name `source` and the field path.
Result<SchedulerConfiguration> ParseSchedulerConfiguration(const nlohmann::json& doc,
                                                           const std::string& source,
                                                           std::string_view compat);
// The same for a YAML text holding one KubeSchedulerConfiguration document, bounded by `limits`;
// errors name `source` and the line of the offending field.
Result<SchedulerConfiguration> ParseSchedulerConfigurationYaml(std::string_view yaml,
                                                               const std::string& source,
                                                               std::string_view compat,
                                                               const k8s::YamlLimits& limits = {});
// Reads a YAML or JSON file holding one KubeSchedulerConfiguration; `yaml` bounds a YAML file (the
// commands pass their `--limit yaml-depth=N` / `yaml-alias-nodes=N`).
Result<SchedulerConfiguration> LoadSchedulerConfiguration(const std::string& path,
                                                          std::string_view compat,
                                                          const k8s::YamlLimits& yaml = {});

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_RUNTIME_PROFILE_H_
