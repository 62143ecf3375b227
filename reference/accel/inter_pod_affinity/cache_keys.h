// Texts naming everything, besides a node itself, that the node's contribution to an
// InterPodAffinity aggregate depends on (contribution_cache.h). Equal texts mean equal
// contributions on an unchanged node; the converse need not hold (a differently written but
// equivalent selector only costs a recount).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CACHE_KEYS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CACHE_KEYS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference/api/objects.h"
#include "reference/api/selectors.h"
#include "reference/framework/pod_info.h"

namespace schedcheck::reference::interpodaffinity::fast {

// Existing pods' required anti-affinity terms matched against the incoming pod: its namespace,
// its labels and its namespace's labels (which change without any node changing).
std::string IncomingPodKey(const Pod& pod, const Labels& namespace_labels);

// Existing pods matched against the incoming pod's required affinity or anti-affinity terms
// (namespaceSelectors merged).
std::string RequiredTermsKey(const std::vector<AffinityTerm>& terms);

// PreScore: the incoming pod's preferred terms (merged) against existing pods, and existing
// pods' required (weighted by hardPodAffinityWeight) and preferred terms against the pod.
std::string ScoreKey(const Pod& pod, const Labels& namespace_labels, int32_t hard_weight,
                     const std::vector<WeightedAffinityTerm>& preferred_affinity,
                     const std::vector<WeightedAffinityTerm>& preferred_anti_affinity);

}  // namespace schedcheck::reference::interpodaffinity::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CACHE_KEYS_H_
