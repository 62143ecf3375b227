// NodePorts (nodeports/node_ports.go, v1.27 and v1.37): rejects nodes where a host port the pod
// wants is already taken. PreFilter collects the pod's container ports; Filter checks them against
// the node's used ports. Also exports Fits() for the v1.27 queue's preCheckForNode.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_PORTS_NODE_PORTS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_PORTS_NODE_PORTS_H_

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// fitsPorts: true when none of `want` conflicts with the node's used host ports.
bool FitsPorts(const std::vector<HostPort>& want, const NodeInfo& node);
// Fits: FitsPorts with the pod's container ports.
bool FitsPorts(const Pod& pod, const NodeInfo& node);

class NodePorts : public PreFilterPlugin,
                  public FilterPlugin,
                  public EnqueueExtensions,
                  public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodePorts";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodePorts";
  static constexpr std::string_view kErrReason =
      "node(s) didn't have free ports for the requested pod ports";

  // preFilterState: the pod's container ports (every containers[*].ports entry, hostPort 0
  // included: the conflict check ignores those).
  class PreFilterState final : public StateData {
   public:
    explicit PreFilterState(std::vector<HostPort> ports) : ports(std::move(ports)) {}
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreFilterState>(*this);
    }
    std::vector<HostPort> ports;
  };

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodePorts(const Features& features) : features_(features) {}

  std::string_view Name() const override { return kName; }
  // Success, even for a pod without host ports; with skip_when_nothing_to_do (v1.37), Skip for a
  // pod without host ports (Pod::container_ports holds only hostPort entries at that level).
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Unschedulable with kErrReason on a conflict.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // v1.27: Pod Delete; Node Add|Update.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: AssignedPod Delete (isSchedulableAfterAssignedPodDeleted); Node Add without a hint
  // function. Container ports are immutable, so no pod update is registered.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

 private:
  Features features_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_PORTS_NODE_PORTS_H_
