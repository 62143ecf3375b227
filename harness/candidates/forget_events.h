// A plugin wrapper that forgets its event registration: it delegates every extension point to
// the real plugin but returns an empty EventsToRegister(), so the queue never moves a pod that
// plugin rejected on a cluster event (only the periodic leftover flush does). Used to build
// "forget-events:PLUGIN" candidates for the gate.
#ifndef SCHEDCHECK_HARNESS_CANDIDATES_FORGET_EVENTS_H_
#define SCHEDCHECK_HARNESS_CANDIDATES_FORGET_EVENTS_H_

#include <memory>
#include <set>
#include <string>

#include "reference/base/result.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"

namespace schedcheck::candidates {

// Wraps `inner`. The wrapper implements exactly the QueueSort, PreFilter, Filter, PostFilter,
// PreScore, Score and Bind points `inner` implements (the runtime discovers points by type);
// PreEnqueue, Reserve, Permit, PreBind and PostBind are always present and delegate when `inner`
// has them, else return Success (a no-op at those points).
std::unique_ptr<reference::Plugin> ForgetEvents(std::unique_ptr<reference::Plugin> inner);

// A copy of `base` in which each plugin of `plugins` is built wrapped by ForgetEvents.
// Errors name a plugin `base` does not know.
Result<std::shared_ptr<const reference::Registry>> RegistryForgettingEvents(
    const reference::Registry& base, const std::set<std::string>& plugins);

}  // namespace schedcheck::candidates

#endif  // SCHEDCHECK_HARNESS_CANDIDATES_FORGET_EVENTS_H_
