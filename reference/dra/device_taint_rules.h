// DeviceTaintRules (DRADeviceTaintRules, beta and on at v1.37.2) as kube-scheduler v1.37.2 sees
// them: through the ResourceSlice tracker of k8s.io/dynamic-resource-allocation v0.37.2
// (resourceslice/tracker), which hands the scheduler every slice with the taints of the rules
// matching its devices appended ("patched" slices), and sends a ResourceSlice update whenever a
// rule's add, update or delete changes a slice's taints. The rules themselves reach no plugin and
// no queue: only the slice events they cause do.
#ifndef SCHEDCHECK_REFERENCE_DRA_DEVICE_TAINT_RULES_H_
#define SCHEDCHECK_REFERENCE_DRA_DEVICE_TAINT_RULES_H_

#include <functional>
#include <map>
#include <string>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

using DeviceTaintRules = std::map<std::string, k8s::DeviceTaintRule, std::less<>>;

// applyPatches: the slice with each matching rule's taint appended to the taints of each device
// it selects (a rule without a selector selects nothing; driver, pool and device, where set, must
// equal the slice's driver, pool name and the device's name). Rules apply in name order (upstream:
// its informer's list order, which no allocation depends on).
k8s::ResourceSlice ApplyDeviceTaintRules(const k8s::ResourceSlice& slice,
                                         const DeviceTaintRules& rules);

// syncSlice's check after a rule event: whether some device's taints differ between two patched
// forms of one slice (key, value, effect and timeAdded, in order).
bool TaintsDiffer(const k8s::ResourceSlice& a, const k8s::ResourceSlice& b);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_DEVICE_TAINT_RULES_H_
