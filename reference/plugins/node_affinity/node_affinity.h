// NodeAffinity (nodeaffinity/node_affinity.go, v1.27): spec.nodeSelector and required node
// affinity as a filter (with a node-name narrowing from matchFields), preferred node affinity as a
// score, plus the scheduler-enforced args.addedAffinity.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/selectors.h"
#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_affinity/node_affinity_args.h"

namespace schedcheck::reference {

class NodeAffinity : public PreFilterPlugin,
                     public FilterPlugin,
                     public PreScorePlugin,
                     public ScorePlugin,
                     public EnqueueExtensions,
                     public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeAffinity";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodeAffinity";
  static constexpr std::string_view kPreScoreStateKey = "PreScoreNodeAffinity";
  static constexpr std::string_view kErrReasonPod =
      "node(s) didn't match Pod's node affinity/selector";
  static constexpr std::string_view kErrReasonEnforced =
      "node(s) didn't match scheduler-enforced node affinity";
  static constexpr std::string_view kErrReasonConflict = "pod affinity terms conflict";

  // Usable preferred terms (nodeaffinity.PreferredSchedulingTerms): no weight-0 or empty term,
  // every term parses.
  using PreferredTerms = google::protobuf::RepeatedPtrField<k8s::PreferredSchedulingTerm>;

  // preFilterState: nodeaffinity.GetRequiredNodeAffinity(pod), the pod's nodeSelector and
  // required node affinity.
  class PreFilterState final : public StateData {
   public:
    explicit PreFilterState(const Pod& pod);
    // RequiredNodeAffinity.Match with parse errors ignored (a term that does not parse matches
    // no node).
    bool Match(const Node& node) const;
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreFilterState>(*this);
    }

   private:
    Labels node_selector_;
    std::optional<k8s::NodeSelector> node_affinity_;
  };

  // preScoreState: the pod's preferred node affinity.
  class PreScoreState final : public StateData {
   public:
    PreferredTerms preferred_node_affinity;
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreScoreState>(*this);
    }
  };

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  NodeAffinity(NodeAffinityArgs args, const Features& features);

  std::string_view Name() const override { return kName; }
  // Skip when the pod has no nodeSelector, no required node affinity and no added required
  // affinity is configured. Otherwise stores the required affinity and narrows to the union over
  // terms of each term's intersected `metadata.name In` values (no narrowing if some term has
  // none); an empty union is UnschedulableAndUnresolvable "pod affinity terms conflict".
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Added required affinity first ("scheduler-enforced"), then the pod's nodeSelector and
  // required terms; both rejections are UnschedulableAndUnresolvable.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Stores the pod's preferred terms; Error when one of them does not parse (v1.27: no Skip).
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum of the weights of the matching preferred terms (added ones included).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  bool HasNormalizeScore() const override { return true; }
  // DefaultNormalizeScore(100, reverse = false).
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;
  // Node: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: Node Add | UpdateNodeLabel (isSchedulableAfterNodeChange).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

 protected:
  // isSchedulableAfterNodeChange: QueueSkip when the node fails the added affinity or the pod's
  // required affinity; Queue for an added node that passes, and for an update only when the old
  // node did not match. A required term that does not parse is an error when no term matches.
  Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod& pod, const EventObjects& e) const;

  // The added affinity (validated by New): its required node selector and its usable preferred
  // terms.
  std::optional<k8s::NodeSelector> added_node_selector_;
  PreferredTerms added_pref_sched_terms_;
  // addedPrefSchedTerms != nil: the added affinity lists preferred terms (before dropping
  // weight-0 and empty ones).
  bool has_added_pref_sched_terms_ = false;
  Features features_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_
