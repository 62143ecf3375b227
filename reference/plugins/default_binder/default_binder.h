// DefaultBinder (defaultbinder/default_binder.go). Upstream POSTs a pods/binding to the API
// server. In the reference scheduler the runtime's cache/API layer applies the binding after the
// Bind extension point succeeds, so this plugin only claims the pod: Bind returns Success.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_BINDER_DEFAULT_BINDER_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_BINDER_DEFAULT_BINDER_H_

#include <memory>
#include <string>
#include <string_view>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// Like upstream, no EnqueueExtensions (it never rejects a pod).
class DefaultBinder final : public BindPlugin {
 public:
  static constexpr std::string_view kName = "DefaultBinder";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Always Success: the runtime performs the binding (spec.nodeName = node) itself.
  Status Bind(CycleState& state, const Pod& pod, const std::string& node) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_BINDER_DEFAULT_BINDER_H_
