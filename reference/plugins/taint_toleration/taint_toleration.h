// TaintToleration (tainttoleration/taint_toleration.go, v1.27): Filter rejects nodes with an
// untolerated NoSchedule/NoExecute taint; Score counts untolerated PreferNoSchedule taints and
// NormalizeScore reverses them so that nodes with the fewest get 100.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class TaintToleration : public FilterPlugin,
                        public PreScorePlugin,
                        public ScorePlugin,
                        public EnqueueExtensions,
                        public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "TaintToleration";
  static constexpr std::string_view kPreScoreStateKey = "PreScoreTaintToleration";

  using Tolerations = google::protobuf::RepeatedPtrField<k8s::Toleration>;
  // preScoreState: the pod's tolerations that can apply to PreferNoSchedule taints.
  class PreScoreState final : public StateData {
   public:
    Tolerations tolerations_prefer_no_schedule;
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreScoreState>(*this);
    }
  };

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit TaintToleration(const Features& features) : features_(features) {}

  std::string_view Name() const override { return kName; }
  // Error "invalid nodeInfo" without a node; UnschedulableAndUnresolvable when some
  // NoSchedule/NoExecute taint is not tolerated: v1.27 "node(s) had untolerated taint {key:
  // value}" naming the first (spec order) such taint, or, untolerated_taint_message_hides_taint,
  // "node(s) had untolerated taint(s)".
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Keeps the tolerations whose effect is empty or PreferNoSchedule (no Skip in v1.27).
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Number of PreferNoSchedule taints not tolerated by the PreScore tolerations.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  bool HasNormalizeScore() const override { return true; }
  // DefaultNormalizeScore(100, reverse = true).
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;
  // Node: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: Node Add | UpdateNodeTaint (isSchedulableAfterNodeChange) and TargetPod
  // UpdatePodToleration (isSchedulableAfterTargetPodTolerationChange).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // countIntolerableTaintsPreferNoSchedule.
  static int64_t CountIntolerableTaintsPreferNoSchedule(
      const google::protobuf::RepeatedPtrField<k8s::Taint>& taints, const Tolerations& tolerations);

 private:
  Features features_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_
