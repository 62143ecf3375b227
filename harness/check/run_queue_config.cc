#include "harness/check/run_queue_config.h"

#include <set>
#include <utility>

#include "reference/k8s/json_number.h"
#include "reference/k8s/k8s_json.h"
#include "reference/queue/events.h"
#include "reference/runtime/framework.h"
#include "reference/runtime/profile.h"

namespace schedcheck::check {
namespace {

using json = nlohmann::json;

Result<int64_t> Seconds(const json& config, const char* field, int64_t default_s) {
  if (!config.contains(field)) return default_s * kNanosPerSecond;
  return k8s::CheckedSecondsAsNanos(config[field], 0, kMaxQueueCaseSeconds, field);
}

// A test plugin for pluginsWithoutEnqueueExtensions: a Filter rejecting every node, and no
// EnqueueExtensions (like an out-of-tree plugin written before v1.19).
class NoEnqueueExtensionsPlugin final : public reference::FilterPlugin {
 public:
  explicit NoEnqueueExtensionsPlugin(std::string name) : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }
  reference::Status Filter(const reference::CycleState&, const reference::Pod&,
                           const reference::NodeInfo&) override {
    return reference::Status(reference::Code::kUnschedulable, "rejected by " + name_);
  }

 private:
  std::string name_;
};

}  // namespace

Result<QueueCaseConfig> ParseQueueCaseConfig(const json& config) {
  QueueCaseConfig out;
  if (config.is_null()) return out;
  if (!config.is_object()) return Error{"must be an object"};
  static const std::set<std::string> kFields = {"podInitialBackoffSeconds",
                                                "podMaxBackoffSeconds",
                                                "podMaxInUnschedulablePodsDurationSeconds",
                                                "queueSort",
                                                "pluginEvents",
                                                "pluginsWithoutEnqueueExtensions",
                                                "queueingHints"};
  for (const auto& [k, v] : config.items()) {
    if (!kFields.count(k)) return Error{k + ": unknown field"};
  }
  auto initial = Seconds(config, "podInitialBackoffSeconds", 1);
  if (!initial.ok()) return initial.error();
  auto max = Seconds(config, "podMaxBackoffSeconds", 10);
  if (!max.ok()) return max.error();
  auto leftover = Seconds(config, "podMaxInUnschedulablePodsDurationSeconds", 300);
  if (!leftover.ok()) return leftover.error();
  out.options = {*initial, *max, *leftover};
  if (config.contains("queueSort") && config["queueSort"] != "PrioritySort") {
    return Error{"queueSort: only PrioritySort is supported"};
  }
  if (config.contains("queueingHints")) return Error{"queueingHints: not supported at compat 1.27"};
  if (config.contains("pluginEvents")) {
    const json& pe = config["pluginEvents"];
    if (!pe.is_object()) return Error{"pluginEvents: must be an object"};
    for (const auto& [plugin, events] : pe.items()) {
      if (!events.is_array())
        return Error{"pluginEvents." + plugin + ": must be a list of event labels"};
      for (const auto& e : events) {
        if (!e.is_string())
          return Error{"pluginEvents." + plugin + ": must be a list of event labels"};
        std::optional<reference::ClusterEvent> event =
            reference::PredefinedClusterEvent(e.get<std::string>());
        if (!event)
          return Error{"pluginEvents." + plugin + ": unknown event " + e.get<std::string>()};
        event->label.clear();  // a registration carries no label
        out.fake_plugin_events.push_back({*event, plugin});
      }
    }
  }
  if (config.contains("pluginsWithoutEnqueueExtensions")) {
    const json& names = config["pluginsWithoutEnqueueExtensions"];
    if (!names.is_array())
      return Error{"pluginsWithoutEnqueueExtensions: must be a list of plugin names"};
    for (const auto& n : names) {
      if (!n.is_string() || n.get<std::string>().empty())
        return Error{"pluginsWithoutEnqueueExtensions: must be a list of plugin names"};
      out.plugins_without_enqueue_extensions.push_back(n.get<std::string>());
    }
  }
  return out;
}

Result<reference::ClusterEventMap> RegistrationsWithoutEnqueueExtensions(
    const std::vector<std::string>& plugins, const reference::Handle& handle,
    reference::Engine engine) {
  if (plugins.empty()) return reference::ClusterEventMap{};
  reference::Registry registry = reference::PluginRegistryFor(engine);
  reference::Profile profile;
  profile.scheduler_name = "plugins-without-enqueue-extensions";
  profile.at(reference::ExtensionPoint::kQueueSort).enabled.push_back({"PrioritySort"});
  profile.at(reference::ExtensionPoint::kBind).enabled.push_back({"DefaultBinder"});
  std::set<std::string> names;
  for (const std::string& name : plugins) {
    if (!names.insert(name).second)
      return Error{"pluginsWithoutEnqueueExtensions: " + name + " listed twice"};
    Outcome ok = registry.Register(
        name,
        [name](const reference::PluginArgs&,
               const reference::Handle&) -> Result<std::unique_ptr<reference::Plugin>> {
          return std::unique_ptr<reference::Plugin>(
              std::make_unique<NoEnqueueExtensionsPlugin>(name));
        });
    if (!ok)
      return Error{"pluginsWithoutEnqueueExtensions: " + name + ": the name of a real plugin"};
    profile.at(reference::ExtensionPoint::kFilter).enabled.push_back({name});
  }
  auto fw = reference::Framework::Create(profile, registry, &handle);
  if (!fw.ok()) return Error{"pluginsWithoutEnqueueExtensions: " + fw.message()};
  reference::ClusterEventMap out;
  for (auto& [event, plugin] : (*fw)->EventRegistrations()) {
    if (names.count(plugin)) out.push_back({event, plugin});
  }
  return out;
}

reference::ClusterEvent ResolveEvent(const std::string& label) {
  if (auto e = reference::PredefinedClusterEvent(label)) return *e;
  return reference::ClusterEvent{"unregistered/" + label, reference::action::kAll, label};
}

Result<std::shared_ptr<reference::NodeInfo>> NodeInfoArg(const Case& c, const Cluster& cluster,
                                                         const json& node) {
  if (node.is_string()) {
    const reference::NodeInfo* ni = cluster.snapshot().Get(node.get<std::string>());
    if (ni == nullptr) return Error{"node: unknown node " + node.get<std::string>()};
    return std::make_shared<reference::NodeInfo>(*ni);
  }
  auto obj = k8s::NodeFromJson(node, "node");
  if (!obj.ok()) return obj.error();
  auto built = reference::BuildNode(*obj);
  if (!built.ok()) return Error{"node: " + built.message()};
  auto ni = std::make_shared<reference::NodeInfo>(*built);
  for (const k8s::Pod& p : c.pods) {
    if (p.spec().node_name() != (*built)->name()) continue;
    auto pod = reference::BuildPod(p, reference::FeaturesFor(reference::CompatLevel::kV1_27));
    if (!pod.ok()) return Error{"pods: " + pod.message()};
    ni->AddPod(reference::MakePodInfo(*pod));
  }
  return ni;
}

}  // namespace schedcheck::check
