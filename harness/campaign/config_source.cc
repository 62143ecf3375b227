#include "harness/campaign/config_source.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/runtime/profile.h"

namespace schedcheck::campaign {
namespace {

using nlohmann::ordered_json;

// A SplitMix64 stream: our own, so that draws are the same with every standard library.
class Draws {
 public:
  explicit Draws(uint64_t seed) : state_(seed ^ 0x636f6e666967ULL) {}  // "config"
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // In [lo, hi].
  int Between(int lo, int hi) { return lo + static_cast<int>(Next() % (hi - lo + 1)); }
  bool Chance(int percent) { return Between(0, 99) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Next() % v.size()];
  }
  // `n` distinct elements of `v` in a drawn order.
  std::vector<std::string> Some(std::vector<std::string> v, size_t n) {
    for (size_t i = 0; i + 1 < v.size(); ++i) std::swap(v[i], v[i + Next() % (v.size() - i)]);
    v.resize(std::min(n, v.size()));
    return v;
  }

 private:
  uint64_t state_;
};

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

ordered_json Names(const std::vector<std::string>& names) {
  ordered_json out = ordered_json::array();
  for (const std::string& n : names) out.push_back({{"name", n}});
  return out;
}

ordered_json FitArgs(Draws& d) {
  ordered_json resources = ordered_json::array({{{"name", "cpu"}, {"weight", d.Between(1, 5)}},
                                                {{"name", "memory"}, {"weight", d.Between(1, 5)}}});
  const std::string type =
      d.Pick<std::string>({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
  ordered_json strategy = {{"type", type}, {"resources", resources}};
  if (type == "RequestedToCapacityRatio") {
    const bool packing = d.Chance(50);
    strategy["requestedToCapacityRatio"] = {
        {"shape",
         ordered_json::array({{{"utilization", 0}, {"score", packing ? 0 : 10}},
                              {{"utilization", d.Between(20, 80)}, {"score", d.Between(0, 10)}},
                              {{"utilization", 100}, {"score", packing ? 10 : 0}}})}};
  }
  return {{"scoringStrategy", strategy}};
}

ordered_json SpreadArgs(Draws& d) {
  ordered_json constraints = ordered_json::array();
  for (const std::string& key : d.Some({"topology.kubernetes.io/zone", "kubernetes.io/hostname"},
                                       static_cast<size_t>(d.Between(1, 2)))) {
    constraints.push_back(
        {{"maxSkew", d.Between(1, 3)},
         {"topologyKey", key},
         {"whenUnsatisfiable", d.Pick<std::string>({"ScheduleAnyway", "DoNotSchedule"})}});
  }
  return {{"defaultingType", "List"}, {"defaultConstraints", constraints}};
}

// An explicit list at `point` of 2 or 3 of `candidates` (all in the default MultiPoint list, so
// each overrides its MultiPoint entry) in a drawn order, leaving out the disabled ones. At v1.27
// such a list of three is expanded with a plugin repeated and another moved after the MultiPoint
// plugins (reference/runtime/framework_build.cc, ExpandedOrder).
void DrawOverrides(Draws& d, const char* point, const std::vector<std::string>& candidates,
                   const std::vector<std::string>& disabled, ordered_json* plugins) {
  std::vector<std::string> order;
  for (const std::string& p : d.Some(candidates, static_cast<size_t>(d.Between(2, 3)))) {
    if (!Contains(disabled, p)) order.push_back(p);
  }
  if (!order.empty() && !plugins->contains(point)) (*plugins)[point] = {{"enabled", Names(order)}};
}

}  // namespace

Result<std::string> DrawConfiguration(uint64_t trace_seed, const std::string& compat) {
  Draws d(trace_seed);
  ordered_json profile = {{"schedulerName", "default-scheduler"}};
  ordered_json plugins = ordered_json::object();
  std::vector<std::string> disabled;
  if (d.Chance(40)) {
    disabled = d.Some({"PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation",
                       "ImageLocality", "TaintToleration", "NodeAffinity"},
                      static_cast<size_t>(d.Between(1, 2)));
    plugins["multiPoint"] = {{"disabled", Names(disabled)}};
  }
  if (d.Chance(50)) {
    ordered_json score = ordered_json::array();
    std::vector<std::string> scorers;
    for (const std::string& p :
         d.Some({"NodeResourcesFit", "NodeResourcesBalancedAllocation", "ImageLocality",
                 "InterPodAffinity", "NodeAffinity", "PodTopologySpread", "TaintToleration"},
                static_cast<size_t>(d.Between(1, 3)))) {
      if (!Contains(disabled, p)) score.push_back({{"name", p}, {"weight", d.Between(1, 10)}});
    }
    if (!score.empty()) plugins["score"] = {{"enabled", score}};
  }
  if (d.Chance(30)) {
    std::vector<std::string> order;
    for (const std::string& p :
         d.Some({"NodeResourcesFit", "TaintToleration", "NodeAffinity", "NodePorts"}, 2)) {
      if (!Contains(disabled, p)) order.push_back(p);
    }
    if (!order.empty()) plugins["filter"] = {{"enabled", Names(order)}};
  }
  ordered_json args = ordered_json::array();
  if (d.Chance(50)) args.push_back({{"name", "NodeResourcesFit"}, {"args", FitArgs(d)}});
  if (d.Chance(30) && !Contains(disabled, "PodTopologySpread"))
    args.push_back({{"name", "PodTopologySpread"}, {"args", SpreadArgs(d)}});
  if (d.Chance(25) && !Contains(disabled, "InterPodAffinity")) {
    args.push_back({{"name", "InterPodAffinity"},
                    {"args", {{"hardPodAffinityWeight", d.Pick<int>({0, 1, 50, 100})}}}});
  }
  if (d.Chance(20) && !Contains(disabled, "NodeResourcesBalancedAllocation")) {
    args.push_back({{"name", "NodeResourcesBalancedAllocation"},
                    {"args",
                     {{"resources", ordered_json::array({{{"name", "cpu"}, {"weight", 1}},
                                                         {{"name", "memory"}, {"weight", 1}}})}}}});
  }
  // Drawn after the rest, so that the draws above stay what they were for a seed.
  if (d.Chance(25)) {
    DrawOverrides(d, "preFilter",
                  {"NodeResourcesFit", "NodePorts", "NodeAffinity", "PodTopologySpread",
                   "InterPodAffinity", "VolumeBinding", "VolumeRestrictions", "VolumeZone"},
                  disabled, &plugins);
  }
  if (d.Chance(25)) {
    DrawOverrides(d, "preScore",
                  {"TaintToleration", "NodeAffinity", "PodTopologySpread", "InterPodAffinity",
                   "NodeResourcesFit", "NodeResourcesBalancedAllocation"},
                  disabled, &plugins);
  }
  if (d.Chance(20)) {
    DrawOverrides(d, "filter",
                  {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                   "NodeResourcesFit"},
                  disabled, &plugins);
  }
  // A MultiPoint entry that reweights a default score plugin in place (mergePlugins).
  if (d.Chance(20)) {
    const std::string p =
        d.Pick<std::string>({"NodeResourcesFit", "ImageLocality", "TaintToleration", "NodeAffinity",
                             "NodeResourcesBalancedAllocation"});
    if (!Contains(disabled, p)) {
      plugins["multiPoint"]["enabled"] =
          ordered_json::array({{{"name", p}, {"weight", d.Between(1, 10)}}});
    }
  }
  if (!plugins.empty()) profile["plugins"] = plugins;
  if (!args.empty()) profile["pluginConfig"] = args;
  ordered_json config = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
                         {"kind", "KubeSchedulerConfiguration"},
                         {"profiles", ordered_json::array({profile})}};
  std::string text = config.dump(2) + "\n";
  auto parsed =
      reference::ParseSchedulerConfigurationYaml(text, "the generated configuration", compat);
  if (!parsed.ok()) return Error{"generated configuration refused: " + parsed.message()};
  return text;
}

}  // namespace schedcheck::campaign
