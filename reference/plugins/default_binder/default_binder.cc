#include "reference/plugins/default_binder/default_binder.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> DefaultBinder::New(const PluginArgs& args,
                                                   [[maybe_unused]] const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"DefaultBinder takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<DefaultBinder>());
}

Status DefaultBinder::Bind([[maybe_unused]] CycleState& state, [[maybe_unused]] const Pod& pod,
                           [[maybe_unused]] const std::string& node) {
  return Status();
}

}  // namespace schedcheck::reference
