// How upstream's framework.NewPodInfo fails on a pod's (anti)affinity terms: each term's
// labelSelector and namespaceSelector go through metav1.LabelSelectorAsSelector, whose errors
// InterPodAffinity reports as "parsing pod: ..." (PreFilter) or "failed to parse pod: ..."
// (PreScore). Internal to the plugin.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_PARSE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_PARSE_H_

#include <string>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::interpodaffinity {

// The aggregated parse error of the pod's four term lists, or "" when every selector parses.
// Checked: operators, value counts per operator and label value syntax (keys are not checked).
std::string PodAffinityParseError(const k8s::Pod& pod);

// framework.newAffinityTerm's error for one term (its labelSelector, then its
// namespaceSelector), or "".
std::string PodAffinityTermError(const k8s::PodAffinityTerm& term);

}  // namespace schedcheck::reference::interpodaffinity

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_PARSE_H_
