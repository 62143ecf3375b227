// Plugin construction, arguments, event registration and the helpers shared by the filtering
// (filtering.cc) and scoring (scoring.cc) halves (upstream plugin.go).
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

#include "reference/plugins/inter_pod_affinity/parse.h"

namespace schedcheck::reference {

Result<InterPodAffinityArgs> ParseInterPodAffinityArgs(const PluginArgs& args) {
  InterPodAffinityArgs out;
  if (args.is_null()) return out;
  if (!args.is_object()) return Error{"InterPodAffinityArgs: expected an object"};
  for (const auto& [key, value] : args.items()) {
    if (key == "apiVersion" || key == "kind") continue;
    if (key == "hardPodAffinityWeight") {
      // A null pointer in the versioned config is defaulted to 1.
      if (value.is_null()) continue;
      if (!value.is_number_integer()) {
        return Error{"InterPodAffinityArgs: hardPodAffinityWeight: expected an integer"};
      }
      int64_t w = value.get<int64_t>();
      // validateHardPodAffinityWeight.
      if (w < 0 || w > 100) {
        return Error{"hardPodAffinityWeight: Invalid value: " + std::to_string(w) +
                     ": not in valid range [0-100]"};
      }
      out.hard_pod_affinity_weight = static_cast<int32_t>(w);
    } else if (key == "ignorePreferredTermsOfExistingPods") {
      if (!value.is_boolean()) {
        return Error{"InterPodAffinityArgs: ignorePreferredTermsOfExistingPods: expected a bool"};
      }
      out.ignore_preferred_terms_of_existing_pods = value.get<bool>();
    } else {
      return Error{"InterPodAffinityArgs: unknown field \"" + key + "\""};
    }
  }
  return out;
}

Result<std::unique_ptr<Plugin>> InterPodAffinity::New(const PluginArgs& args,
                                                      const Handle& handle) {
  auto parsed = ParseInterPodAffinityArgs(args);
  if (!parsed.ok()) return parsed.error();
  return std::unique_ptr<Plugin>(std::make_unique<InterPodAffinity>(*parsed, handle));
}

std::vector<ClusterEvent> InterPodAffinity::EventsToRegister() const {
  // Any pod change may add or remove a match (adds for affinity, deletes and label updates for
  // anti-affinity); a new node or changed node labels may create a fitting topology domain.
  return {
      {std::string(resource::kPod), action::kAll, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdateNodeLabel, ""},
  };
}

namespace interpodaffinity {

Result<std::shared_ptr<PodInfo>> NewPodInfo(const Pod& pod) {
  std::string err = PodAffinityParseError(pod.obj);
  if (!err.empty()) return Error{err};
  return std::make_shared<PodInfo>(*MakePodInfo(std::make_shared<const Pod>(pod)));
}

Labels GetNamespaceLabelsSnapshot(const std::string& ns, const Handle& handle) {
  if (handle.objects == nullptr) return Labels();
  const Labels* labels = handle.objects->NamespaceLabels(ns);
  return labels ? *labels : Labels();
}

void MergeAffinityTermNamespacesIfNotEmpty(AffinityTerm& term, const Handle& handle) {
  // A nil selector converts to Nothing (not Empty): it is "merged" too, selecting nothing. An
  // empty `{}` selector is Everything and stays as it is (it matches every namespace).
  if (term.has_namespace_selector && term.namespace_selector.match_labels().empty() &&
      term.namespace_selector.match_expressions().empty()) {
    return;
  }
  if (term.has_namespace_selector && handle.objects != nullptr) {
    for (const auto& [name, ns] : handle.objects->namespaces) {
      if (LabelSelectorMatches(term.namespace_selector, ns.metadata().labels())) {
        term.namespaces.insert(name);
      }
    }
  }
  term.has_namespace_selector = false;
  term.namespace_selector.Clear();
}

}  // namespace interpodaffinity

}  // namespace schedcheck::reference
