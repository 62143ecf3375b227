#include "harness/check/run_hint.h"

#include <string>
#include <vector>

#include "harness/check/cluster.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/queue/update_events.h"

namespace schedcheck::check {
namespace {

using Verdict = CaseResult::Verdict;

struct HintAnswer {
  std::string hint;  // Queue, QueueSkip, NotRegistered
  bool error = false;
  std::string error_message;
};

HintAnswer AskPlugin(const reference::QueueingHintExtensions& plugin, const reference::Pod& pod,
                     const reference::ClusterEvent& event, const reference::EventObjects& objects) {
  bool registered = false;
  for (const reference::ClusterEventWithHint& reg : plugin.EventsToRegisterWithHints()) {
    if (!reference::MatchClusterEventsV1_37(reg.event, event)) continue;
    registered = true;
    if (!reg.hint) return {"Queue", false, ""};
    Result<reference::QueueingHint> hint = reg.hint(pod, objects);
    if (!hint.ok()) return {"Queue", true, hint.message()};
    if (*hint == reference::QueueingHint::kQueue) return {"Queue", false, ""};
  }
  return {registered ? "QueueSkip" : "NotRegistered", false, ""};
}

}  // namespace

CaseResult RunHintCase(const Case& c) {
  ClusterInput input = ClusterInputOf(c);
  auto cluster = Cluster::Build(input, CaseProfile(c), c.compat.empty() ? "1.27" : c.compat);
  if (!cluster.ok()) return {Verdict::kBadInput, "setup: " + cluster.message()};
  const std::string& name = c.plugins[0].name;
  const auto* plugin = dynamic_cast<const reference::QueueingHintExtensions*>(
      (*cluster)->framework().GetPlugin(name));
  if (plugin == nullptr) {
    return {Verdict::kBadInput, "plugins: " + name + " registers no events with hints at 1.37"};
  }
  const reference::CompatLevel level = reference::CompatLevel::kV1_37;
  auto pod = reference::BuildPod(*c.pod, reference::FeaturesFor(level));
  if (!pod.ok()) return {Verdict::kBadInput, "pod: " + pod.message()};
  reference::EventObjects objects;
  for (const auto& [source, target, field] :
       {std::tuple{&c.old_pod, &objects.old_pod, "oldObject"},
        std::tuple{&c.new_pod, &objects.new_pod, "newObject"}}) {
    if (!*source) continue;
    auto built = reference::BuildPod(**source, reference::FeaturesFor(level));
    if (!built.ok()) return {Verdict::kBadInput, std::string(field) + ": " + built.message()};
    *target = *built;
  }
  for (const auto& [source, target, field] :
       {std::tuple{&c.old_node, &objects.old_node, "oldObject"},
        std::tuple{&c.new_node, &objects.new_node, "newObject"}}) {
    if (!*source) continue;
    auto built = reference::BuildNode(**source);
    if (!built.ok()) return {Verdict::kBadInput, std::string(field) + ": " + built.message()};
    *target = *built;
  }
  objects.old_object = c.old_object;
  objects.new_object = c.new_object;
  const reference::ClusterEvent event{c.event_resource, c.event_action, ""};
  HintAnswer got = AskPlugin(*plugin, **pod, event, objects);

  const std::string want_hint = c.expect["hint"].get<std::string>();
  const bool want_error = c.expect.contains("error") && c.expect["error"].get<bool>();
  if (got.hint != want_hint || got.error != want_error) {
    auto describe = [](const std::string& hint, bool error) {
      return hint + (error ? " (hint function error)" : "");
    };
    std::string detail =
        "expected " + describe(want_hint, want_error) + ", got " + describe(got.hint, got.error);
    if (got.error) detail += ": " + got.error_message;
    return {Verdict::kFail, detail};
  }
  return {Verdict::kPass, ""};
}

CaseResult RunUpdateCase(const Case& c) {
  std::vector<reference::ClusterEvent> events;
  if (c.event_resource == "Node") {
    events = reference::NodeSchedulingPropertiesChange(*c.new_node, *c.old_node);
  } else {
    auto got = reference::PodSchedulingPropertiesChange(*c.new_pod, *c.old_pod, c.target_pod);
    if (!got.ok()) return {Verdict::kBadInput, got.message()};
    events = std::move(*got);
  }
  std::vector<std::string> got;
  for (const reference::ClusterEvent& e : events) {
    got.push_back(e.resource + "/" + std::string(reference::ActionNameV1_37(e.action)));
  }
  std::vector<std::string> want;
  for (const auto& e : c.expect["events"]) want.push_back(e.get<std::string>());
  if (got != want) {
    auto list = [](const std::vector<std::string>& v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
      return s + "]";
    };
    return {Verdict::kFail, "expected events " + list(want) + ", got " + list(got)};
  }
  return {Verdict::kPass, ""};
}

}  // namespace schedcheck::check
