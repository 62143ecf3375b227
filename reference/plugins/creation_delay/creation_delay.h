// CreationDelay: an example out-of-tree plugin. Its PreFilter keeps a pod unschedulable until N
// seconds after the pod's creation, N taken from the pod annotation
// `schedcheck.io/creation-delay-seconds`. It registers NO cluster events (an empty
// EventsToRegister), so a pod it rejected is only retried by the queue's periodic flushes: the
// 5-minute unschedulable timeout, not after N seconds. That is the classic way a plugin ends up
// delaying pods far longer than intended, and what a replay with schedcheck makes visible.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_CREATION_DELAY_CREATION_DELAY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_CREATION_DELAY_CREATION_DELAY_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/framework/registry.h"

namespace schedcheck::reference {

class CreationDelay final : public PreFilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "CreationDelay";
  static constexpr std::string_view kAnnotation = "schedcheck.io/creation-delay-seconds";

  explicit CreationDelay(const Handle& handle) : handle_(handle) {}
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Success when the pod has no (valid) annotation or is old enough; Unschedulable otherwise;
  // Error when the annotation is malformed or time is unavailable.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Deliberately empty: see the file comment.
  std::vector<ClusterEvent> EventsToRegister() const override { return {}; }

 private:
  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_CREATION_DELAY_CREATION_DELAY_H_
