// The traces of a campaign: trace k of a campaign with seed S is drawn from one of the campaign's
// generators with a seed derived from (S, k) alone, so it is the same trace whatever the number
// of traces or shards, and a shard I/N runs exactly the traces k with k mod N = I.
#ifndef SCHEDCHECK_HARNESS_CAMPAIGN_TRACE_SOURCE_H_
#define SCHEDCHECK_HARNESS_CAMPAIGN_TRACE_SOURCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::campaign {

// The generators a campaign may draw from (harness/generators), in the order --help lists them.
//   scenarios         node and pod adds, updates (labels, gates, taints), deletes: requeues
//   wide              every API event kind, odd accepted values (namespaces, PriorityClasses,
//                     PDBs, quantities), at 1.37 with the fields v1.37 reads
//   preemption        full nodes, mixed priorities, PDBs, preemptors
//   storage           StorageClasses, CSI objects, PVs, claims, pods with volumes
//   spread            PodTopologySpread's default constraints over Services and controllers
//   match-label-keys  rolling updates spreading with matchLabelKeys
//   cluster-cases     one decision on a generated cluster
const std::vector<std::string>& GeneratorNames();
// The default list: every trace generator.
std::vector<std::string> DefaultGenerators();
// `configs` in a --generators list is not a trace generator: each trace also gets a generated
// scheduler configuration, both sides (config_source.h).
inline constexpr char kConfigs[] = "configs";
bool WantsConfigs(const std::vector<std::string>& names);
// The trace generators of a --generators list: without `configs`; all of them when it was alone.
std::vector<std::string> TraceGenerators(const std::vector<std::string>& names);
// Checks a --generators list: known names (and `configs`), no repeats, not empty. Errors name the
// bad entry.
Outcome CheckGenerators(const std::vector<std::string>& names);

// The seed of trace `index` of a campaign seeded `campaign_seed` (SplitMix64 of both).
uint64_t TraceSeed(uint64_t campaign_seed, int64_t index);

struct TraceSpec {
  int64_t index = 0;
  uint64_t seed = 0;         // TraceSeed(campaign seed, index): draws the trace
  std::string generator;     // which generator drew it
  uint64_t replay_seed = 1;  // both sides' replay seed (tie-breaks): 1 + seed mod 1e6
};

// Trace `index`'s spec: its seed, and its generator chosen from `generators` by that seed.
// REQUIRES: generators not empty.
TraceSpec SpecOf(uint64_t campaign_seed, int64_t index, const std::vector<std::string>& generators);

// Draws the trace of `spec` for replay at `compat`. Traces of wide, preemption and storage (and
// scenarios at 1.37) are made consistent with what the API server would hold by the reference's
// replay (RealizeTrace). Errors: the generator failed on this seed.
Result<std::vector<trace::Record>> DrawTrace(const TraceSpec& spec, const std::string& compat);

}  // namespace schedcheck::campaign

#endif  // SCHEDCHECK_HARNESS_CAMPAIGN_TRACE_SOURCE_H_
