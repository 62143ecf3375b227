// Generated scheduler configurations (`--generators ...,configs`): for each trace a
// KubeSchedulerConfiguration of one default-scheduler profile that changes the default one in a
// few of the ways users do — plugins disabled (multiPoint), score plugins reweighted (at Score or
// in MultiPoint), filter, preFilter and preScore plugins listed at their extension point in
// another order (at v1.27 three such overrides make the expansion repeat a plugin), plugin args
// (NodeResourcesFit's
// scoring strategy, PodTopologySpread's default constraints, InterPodAffinity's
// hardPodAffinityWeight, NodeResourcesBalancedAllocation's resources). Both sides of the trace
// run it: the in-process ones parse it, an exec:/kube: child is sent its text. Drawn from the
// trace's seed with our own SplitMix64 stream, so the same trace always has the same
// configuration.
#ifndef SCHEDCHECK_HARNESS_CAMPAIGN_CONFIG_SOURCE_H_
#define SCHEDCHECK_HARNESS_CAMPAIGN_CONFIG_SOURCE_H_

#include <cstdint>
#include <string>

#include "reference/base/result.h"

namespace schedcheck::campaign {

// The configuration of the trace with seed `trace_seed` at `compat`, as JSON text (a YAML
// document); one the reference accepts at `compat`. Errors: the reference refused what was drawn
// (a bug of this generator), with its message.
Result<std::string> DrawConfiguration(uint64_t trace_seed, const std::string& compat);

}  // namespace schedcheck::campaign

#endif  // SCHEDCHECK_HARNESS_CAMPAIGN_CONFIG_SOURCE_H_
