// NodeDeclaredFeatures (nodedeclaredfeatures/nodedeclaredfeatures.go, new in v1.35, GA in v1.37):
// a pod whose spec needs a node feature (component-helpers nodedeclaredfeatures,
// InferForScheduling) fits only nodes that list that feature in status.declaredFeatures. The plugin
// does not exist at v1.27: New refuses to build it there.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_DECLARED_FEATURES_NODE_DECLARED_FEATURES_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_DECLARED_FEATURES_NODE_DECLARED_FEATURES_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// The feature registry of v1.37 (features.AllFeatures), in name order as the framework keeps it.
const std::vector<std::string_view>& DeclaredFeatureRegistry();

// Framework.InferForPodScheduling: the registry features the pod's spec requires, in registry
// order. At v1.37 three can be required (RestartAllContainersOnContainerExits,
// UserNamespacesHostNetworkSupport, VolumeBindMountOptions); no feature has a MaxVersion.
std::vector<std::string_view> InferForPodScheduling(const k8s::PodSpec& spec);

// FeatureMapper.TryMap: the registry features found by walking `declared` (expected sorted, as
// API validation keeps it) alongside the sorted registry; unknown names are dropped. An unsorted
// list loses names exactly as upstream's walk does.
std::vector<std::string_view> TryMapDeclaredFeatures(
    const google::protobuf::RepeatedPtrField<std::string>& declared);

class NodeDeclaredFeatures final : public PreFilterPlugin,
                                   public FilterPlugin,
                                   public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeDeclaredFeatures";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodeDeclaredFeatures";
  static constexpr std::string_view kErrReasonUnsatisfiedRequirements =
      "node(s) didn't match Pod's required features";

  class PreFilterState final : public StateData {
   public:
    explicit PreFilterState(std::vector<std::string_view> reqs) : reqs(std::move(reqs)) {}
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreFilterState>(*this);
    }
    std::vector<std::string_view> reqs;
  };

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Skip when the pod requires no feature, else stores the requirements.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // UnschedulableAndUnresolvable kErrReasonUnsatisfiedRequirements when a required feature is not
  // among the node's declared ones; Error without the PreFilter state.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Node Add | UpdateNodeDeclaredFeature (isSchedulableAfterNodeChange: QueueSkip only for an
  // update that leaves status.declaredFeatures as it was) and TargetPod Update
  // (isSchedulableAfterTargetPodUpdate: Queue when the inferred requirements changed).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_DECLARED_FEATURES_NODE_DECLARED_FEATURES_H_
