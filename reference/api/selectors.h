// The matching rules shared by plugins (docs/SEMANTICS.md#shared-matching-rules): label selectors,
// node selector terms, required node affinity, and taint tolerations. Pure functions over
// Kubernetes objects.
#ifndef SCHEDCHECK_REFERENCE_API_SELECTORS_H_
#define SCHEDCHECK_REFERENCE_API_SELECTORS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/objects.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

using Labels = google::protobuf::Map<std::string, std::string>;

// A present selector: matchLabels AND matchExpressions (In, NotIn, Exists, DoesNotExist).
// An empty selector matches everything; callers treat an absent (nil) selector as matching
// nothing. A malformed requirement (unknown operator, In/NotIn without values) matches nothing.
bool LabelSelectorMatches(const k8s::LabelSelector& selector, const Labels& labels);
// True when the selector is well formed (the conditions of metav1.LabelSelectorAsSelector).
bool LabelSelectorValid(const k8s::LabelSelector& selector);

// --- how upstream's parsers reject requirements (labels.NewRequirement) ---
// validation.IsValidLabelValue's message (v0.27; with `reworded_messages`, v0.37's
// content.IsLabelValue, which says "bytes" where v0.27 says "characters"), "" when `value` is a
// label value (at most 63 characters of the label value regex).
std::string LabelValueError(std::string_view value, bool reworded_messages);
// validation.IsValidLabelValue(value) is empty.
bool IsLabelValue(std::string_view value);
// Go's strconv.ParseInt(text, 10, 64): an optional sign, then decimal digits, in int64 range.
bool GoParseInt64(std::string_view text, int64_t* out);
// Go's %q of a string (strconv.Quote), as field errors print a bad string value.
std::string GoQuote(std::string_view s);
// Go's %#v of a []string (a nil slice when empty), as field errors print a bad []string value.
std::string GoStringSlice(const google::protobuf::RepeatedPtrField<std::string>& values);
// utilerrors.Flatten(utilerrors.NewAggregate(errors)).Error(): "" for none, the message itself
// for one, "[a, b]" for several (a message repeated is printed once).
std::string AggregateError(const std::vector<std::string>& errors);
// The errors component-helpers' nodeSelectorRequirementsAsSelector collects for one
// matchExpressions entry (labels.NewRequirement), each as field.Error prints it with the path
// `path` (e.g. "[0].matchExpressions[1]"): a key that is not a label key ("key: Invalid value:
// ..."), an unknown operator, In/NotIn without values,
// Exists/DoesNotExist with values, Gt/Lt without exactly one integer value, and every value that
// is not a label value ("values[i][key]: Invalid value: ..."). The API server validates only the
// key of such a requirement, so pods carry them; upstream's term then matches no node, and a
// preferred term with one makes NodeAffinity's PreScore fail. Empty when the requirement parses.
std::vector<std::string> NodeSelectorRequirementErrors(const k8s::NodeSelectorRequirement& req,
                                                       const std::string& path,
                                                       bool reworded_messages);
// NodeSelectorRequirementErrors(req, ...) is empty, without building the messages.
bool NodeSelectorRequirementParses(const k8s::NodeSelectorRequirement& req);
// validation.IsQualifiedName (v0.27) / content.IsLabelKey (v0.37) for a label key, its messages
// joined with "; " as validateLabelKey joins them; "" for a valid key. The two differ in
// wording only: v0.37 (`reworded_messages`) says "bytes" for lengths and "a valid label key"
// (v0.27: "a qualified name") for a key with two or more '/'.
std::string LabelKeyError(std::string_view key, bool reworded_messages);
// LabelKeyError(key) is empty, without building the messages.
bool IsValidLabelKey(std::string_view key);

// One node selector requirement against a label set (In, NotIn, Exists, DoesNotExist, Gt, Lt);
// a requirement that does not parse (NodeSelectorRequirementErrors) matches nothing.
bool NodeSelectorRequirementMatches(const k8s::NodeSelectorRequirement& req, const Labels& labels);
// A term matches when all matchExpressions and all matchFields match; an empty term matches
// nothing. matchFields supports only metadata.name.
bool NodeSelectorTermMatches(const k8s::NodeSelectorTerm& term, const k8s::Node& node);
// Terms are ORed; an empty term list matches nothing.
bool NodeSelectorMatches(const k8s::NodeSelector& selector, const k8s::Node& node);

// spec.nodeSelector AND required node affinity terms (component-helpers GetRequiredNodeAffinity).
bool PodMatchesRequiredNodeAffinity(const k8s::Pod& pod, const k8s::Node& node);

// equality.Semantic.DeepEqual of two string maps (labels, annotations): nil and empty are equal.
bool SemanticEqualMaps(const Labels& a, const Labels& b);
// equality.Semantic.DeepEqual of two repeated messages (tolerations, taints), element by element
// in order. Fields are compared as stored: a taint's timeAdded as text (docs/DEVIATIONS.md).
template <typename Message>
bool SemanticEqualLists(const google::protobuf::RepeatedPtrField<Message>& a,
                        const google::protobuf::RepeatedPtrField<Message>& b) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i) {
    if (a[i].SerializeAsString() != b[i].SerializeAsString()) return false;
  }
  return true;
}

// toleration.ToleratesTaint: effect (empty = all) and key (empty with Exists = all) and value.
bool TolerationToleratesTaint(const k8s::Toleration& toleration, const k8s::Taint& taint);
bool TolerationsTolerateTaint(
    const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations,
    const k8s::Taint& taint);

// The first taint (in spec order) accepted by `filter` that no toleration tolerates, or null.
template <typename TaintFilter>
const k8s::Taint* FindUntoleratedTaint(
    const google::protobuf::RepeatedPtrField<k8s::Taint>& taints,
    const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations, TaintFilter filter) {
  for (const k8s::Taint& taint : taints) {
    if (!filter(taint)) continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) return &taint;
  }
  return nullptr;
}

inline bool IsNoScheduleOrNoExecute(const k8s::Taint& taint) {
  return taint.effect() == "NoSchedule" || taint.effect() == "NoExecute";
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_SELECTORS_H_
