#include <map>

#include "harness/replay/replayer_internal.h"
#include "reference/queue/events.h"

namespace schedcheck::replay {
namespace {

std::map<std::string, std::string> ConditionStatuses(const k8s::Node& node) {
  std::map<std::string, std::string> out;
  for (const auto& c : node.status().conditions()) out[c.type()] = c.status();
  return out;
}

bool SameMap(const google::protobuf::Map<std::string, std::string>& a,
             const google::protobuf::Map<std::string, std::string>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end() || it->second != v) return false;
  }
  return true;
}

bool SameTaints(const k8s::Node& a, const k8s::Node& b) {
  if (a.spec().taints_size() != b.spec().taints_size()) return false;
  for (int i = 0; i < a.spec().taints_size(); ++i) {
    const auto& x = a.spec().taints(i);
    const auto& y = b.spec().taints(i);
    if (x.key() != y.key() || x.value() != y.value() || x.effect() != y.effect() ||
        x.time_added() != y.time_added()) {
      return false;
    }
  }
  return true;
}

reference::ClusterEvent Predefined(std::string_view label) {
  return *reference::PredefinedClusterEvent(label);
}

}  // namespace

std::optional<reference::ClusterEvent> NodeUpdateEvent(const k8s::Node& old_node,
                                                       const k8s::Node& new_node) {
  if (old_node.spec().unschedulable() != new_node.spec().unschedulable() &&
      !new_node.spec().unschedulable()) {
    return Predefined("NodeSpecUnschedulableChange");
  }
  if (!SameMap(old_node.status().allocatable(), new_node.status().allocatable())) {
    return Predefined("NodeAllocatableChange");
  }
  if (!SameMap(old_node.metadata().labels(), new_node.metadata().labels()))
    return Predefined("NodeLabelChange");
  if (!SameTaints(old_node, new_node)) return Predefined("NodeTaintChange");
  if (ConditionStatuses(old_node) != ConditionStatuses(new_node))
    return Predefined("NodeConditionChange");
  return std::nullopt;
}

}  // namespace schedcheck::replay
