#include "reference/plugins/default_binder/default_binder.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> DefaultBinder::New(const PluginArgs& args, const Handle& handle) {
  (void)handle;
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"DefaultBinder takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<DefaultBinder>());
}

Status DefaultBinder::Bind(CycleState& state, const Pod& pod, const std::string& node) {
  (void)state, (void)pod, (void)node;
  return Status();
}

}  // namespace schedcheck::reference
