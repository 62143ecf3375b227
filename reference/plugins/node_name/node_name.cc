#include "reference/plugins/node_name/node_name.h"

#include <string>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> NodeName::New(const PluginArgs& args, const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodeName takes no arguments"};
  }
  if (handle.features.node_name_pre_filter) {
    return std::unique_ptr<Plugin>(std::make_unique<NodeNameV1_37>());
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeName>());
}

Status NodeNameV1_37::PreFilter([[maybe_unused]] CycleState& state, const Pod& pod,
                                PreFilterResult* result) {
  if (!pod.node_name().empty()) {
    result->all_nodes = false;
    result->node_names = {pod.node_name()};
  }
  return Status();
}

std::vector<ClusterEvent> NodeName::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

std::vector<ClusterEventWithHint> NodeName::EventsToRegisterWithHints() const {
  return {{{std::string(resource::kNode), action::kAdd, ""}, nullptr}};
}

Status NodeName::Filter([[maybe_unused]] const CycleState& state, const Pod& pod,
                        const NodeInfo& node) {
  if (node.node() == nullptr) return Status::Error("node not found");
  if (!Fits(pod, node)) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReason));
  }
  return Status();
}

bool NodeName::Fits(const Pod& pod, const NodeInfo& node) {
  return pod.obj.spec().node_name().empty() || pod.obj.spec().node_name() == node.node()->name();
}

}  // namespace schedcheck::reference
