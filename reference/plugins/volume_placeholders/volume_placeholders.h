// Placeholders for the two volume plugins the reference does not model at compat 1.37 yet:
// VolumeBinding and NodeVolumeLimits (v1.37 counts VolumeAttachments and scores capacity; see
// docs/DEVIATIONS.md). Each is registered under its upstream name with v1.37's extension points
// and events, and behaves as v1.37 does for pods without the volumes it reads. A pod WITH such
// volumes is rejected in PreFilter with UnschedulableAndUnresolvable "volume plugins are not
// modelled by schedcheck" (a deliberate deviation). At 1.27 the real plugins run
// (reference/plugins/volume_binding, node_volume_limits).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

inline constexpr std::string_view kVolumesNotModelled =
    "volume plugins are not modelled by schedcheck";

// VolumeBinding at 1.37: PreFilter Skip (after writing an empty state) for a pod without claim
// or ephemeral volumes, else UAU kVolumesNotModelled; Score 0; Reserve records "all bound".
class VolumeBindingV1_37Placeholder : public PreFilterPlugin,
                                      public FilterPlugin,
                                      public ScorePlugin,
                                      public ReservePlugin,
                                      public PreBindPlugin,
                                      public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeBinding";
  static constexpr std::string_view kStateKey = "VolumeBinding";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override;
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override;
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override;
  std::vector<ClusterEvent> EventsToRegister() const override;
};

// NodeVolumeLimits at 1.37: PreFilter Skip for a pod without claim, ephemeral or in-tree disk
// volumes (v1.37's own Skip condition), else UAU kVolumesNotModelled; Filter Success.
class NodeVolumeLimitsV1_37Placeholder final : public PreFilterPlugin,
                                               public FilterPlugin,
                                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeVolumeLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  std::vector<ClusterEvent> EventsToRegister() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_
