#include "reference/plugins/dynamic_resources/dynamic_resources.h"

#include <string>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> DynamicResources::New(const PluginArgs& args,
                                                      const Handle& handle) {
  if (!handle.features.dynamic_resource_allocation) {
    return Error{"DynamicResources: not modelled at compat 1.27 (its feature gate was off)"};
  }
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"DynamicResources: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<DynamicResources>());
}

namespace {

class DynamicResourcesState final : public StateData {
 public:
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<DynamicResourcesState>();
  }
};

}  // namespace

Status DynamicResources::PreFilter(CycleState& state, const Pod& pod,
                                   [[maybe_unused]] PreFilterResult* result) {
  state.Write(std::string(kStateKey), std::make_unique<DynamicResourcesState>());
  if (pod.obj.spec().resource_claims_size() == 0) return Status(Code::kSkip);
  return Status(Code::kUnschedulableAndUnresolvable, std::string(kDraNotModelled));
}

Status DynamicResources::PostFilter(CycleState& state, [[maybe_unused]] const Pod& pod,
                                    [[maybe_unused]] const NodeToStatus& statuses,
                                    [[maybe_unused]] PostFilterResult* result) {
  if (state.ReadAs<DynamicResourcesState>(kStateKey) == nullptr) return Status::Error("not found");
  return Status(Code::kUnschedulable);
}

Status DynamicResources::Filter([[maybe_unused]] const CycleState& state,
                                [[maybe_unused]] const Pod& pod,
                                [[maybe_unused]] const NodeInfo& node) {
  return Status();
}

Status DynamicResources::Score([[maybe_unused]] const CycleState& state,
                               [[maybe_unused]] const Pod& pod,
                               [[maybe_unused]] const NodeInfo& node_info, int64_t* score) {
  *score = 0;
  return Status();
}

}  // namespace schedcheck::reference
