// DynamicResources at v1.37 as far as schedcheck models it: the plugin sits in the default profile
// (before DefaultPreemption, weight 2), and for a pod without resource claims it does what
// upstream's does: PreFilter returns Skip and Score gives every node 0. ResourceClaims,
// DeviceClasses and ResourceSlices are not modelled, so a pod WITH spec.resourceClaims is rejected
// in PreFilter with UnschedulableAndUnresolvable kDraNotModelled (docs/DEVIATIONS.md). Not built at
// v1.27, where schedcheck models DRA not at all (its gate was off by default).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

inline constexpr std::string_view kDraNotModelled =
    "dynamic resource allocation (resourceClaims) is not modelled by schedcheck";

class DynamicResources final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PostFilterPlugin,
                               public ScorePlugin {
 public:
  static constexpr std::string_view kName = "DynamicResources";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  static constexpr std::string_view kStateKey = "DynamicResources";
  // Writes its (empty) state, then Skip without resource claims (claims.empty());
  // UnschedulableAndUnresolvable kDraNotModelled with them.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Error "not found" when PreFilter never ran (an earlier PreFilter rejected the pod: upstream
  // reads its state first, and that error ends the PostFilter phase, so no preemption follows);
  // else Unschedulable: nothing to deallocate (a pod with claims never gets this far here).
  Status PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                    PostFilterResult* result) override;
  // Success: only reached for pods PreFilter let through, which have no claims.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // 0: a pod without claims has nothing to score (DefaultNormalizeScore keeps all-zero scores).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_
