// Feature gates a run sets, as upstream's `--feature-gates A=true,B=false`. Only compat 1.37 takes
// them, and only the gates kube-scheduler v1.37.2 reads while scheduling (pkg/features at the
// tag). A gate may be given its default value; a non-default value only where the reference
// models what the gate does: every beta gate kube-scheduler v1.37.2 reads (feature_gates.cc lists
// them, each with what its other value does), plus the gates kube-scheduler does not read but
// which must be off with one it reads (PodLevelResourcesFixDefaulting,
// PodLevelResourcesFixKubeletQOSClass, MatchLabelKeysInPodTopologySpreadSelectorMerge). Alpha
// gates are taken at their defaults only, but for SchedulerPreQueueingHints. Upstream's
// dependencies among these gates hold as its feature gate enforces them. Anything else is refused
// with the reason, never run by the default's rules.
#ifndef SCHEDCHECK_REFERENCE_BASE_FEATURE_GATES_H_
#define SCHEDCHECK_REFERENCE_BASE_FEATURE_GATES_H_

#include <map>
#include <string>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::reference {

// The gates a run sets, by name (gates left out keep their defaults).
using FeatureGates = std::map<std::string, bool>;

inline constexpr std::string_view kOpportunisticBatching = "OpportunisticBatching";
inline constexpr std::string_view kGenericWorkload = "GenericWorkload";
inline constexpr std::string_view kMatchLabelKeysInPodTopologySpread =
    "MatchLabelKeysInPodTopologySpread";
inline constexpr std::string_view kSchedulerAsyncAPICalls = "SchedulerAsyncAPICalls";
inline constexpr std::string_view kSchedulerPopFromBackoffQ = "SchedulerPopFromBackoffQ";
inline constexpr std::string_view kSchedulerAsyncPreemption = "SchedulerAsyncPreemption";
inline constexpr std::string_view kStorageCapacityScoring = "StorageCapacityScoring";
inline constexpr std::string_view kVolumeLimitScaling = "VolumeLimitScaling";
inline constexpr std::string_view kNominatedNodeNameForExpectation =
    "NominatedNodeNameForExpectation";
inline constexpr std::string_view kPodLevelResources = "PodLevelResources";
inline constexpr std::string_view kInPlacePodLevelResourcesVerticalScaling =
    "InPlacePodLevelResourcesVerticalScaling";

// "A=true,B=false" (Go's mapStringBool: comma-separated, true/false as strconv.ParseBool takes
// them, whitespace around entries ignored; "" is no gate). Errors name the entry.
Result<FeatureGates> ParseFeatureGates(std::string_view text);
// The canonical text of `gates`: "A=true,B=false" in name order ("" for none).
std::string FeatureGatesText(const FeatureGates& gates);
// "" when a run at `compat` can set `gates`, else why not (naming the gate).
std::string CheckFeatureGates(const FeatureGates& gates, std::string_view compat);
// The value of gate `name` in a run: the one set, else the default at 1.37. REQUIRES: a gate
// CheckFeatureGates knows.
bool GateEnabled(const FeatureGates& gates, std::string_view name);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_BASE_FEATURE_GATES_H_
