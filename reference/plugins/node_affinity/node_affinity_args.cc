#include "reference/plugins/node_affinity/node_affinity_args.h"

#include <google/protobuf/util/json_util.h>

#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

// Node fields support only metadata.name with In/NotIn and exactly one value.
std::string FieldError(const k8s::NodeSelectorRequirement& req, const std::string& path) {
  if (req.key() != "metadata.name") {
    return path + ".key: Invalid value: \"" + req.key() + "\": not a valid field selector key";
  }
  if (req.operator_() != "In" && req.operator_() != "NotIn") {
    return path + ".operator: Invalid value: \"" + req.operator_() +
           "\": not a valid selector operator";
  }
  if (req.values_size() != 1) {
    return path + ".values: Required value: must have one element";
  }
  return "";
}

}  // namespace

bool IsEmptyNodeSelectorTerm(const k8s::NodeSelectorTerm& term) {
  return term.match_expressions().empty() && term.match_fields().empty();
}

std::vector<std::string> NodeSelectorTermErrors(const k8s::NodeSelectorTerm& term,
                                                const std::string& path, bool reworded_messages) {
  std::vector<std::string> errs;
  for (int i = 0; i < term.match_expressions_size(); ++i) {
    std::vector<std::string> e = NodeSelectorRequirementErrors(
        term.match_expressions(i), path + ".matchExpressions[" + std::to_string(i) + "]",
        reworded_messages);
    errs.insert(errs.end(), e.begin(), e.end());
  }
  for (int i = 0; i < term.match_fields_size(); ++i) {
    std::string e =
        FieldError(term.match_fields(i), path + ".matchFields[" + std::to_string(i) + "]");
    if (!e.empty()) errs.push_back(e);
  }
  return errs;
}

std::string NodeSelectorTermError(const k8s::NodeSelectorTerm& term, const std::string& path) {
  return AggregateError(NodeSelectorTermErrors(term, path, /*reworded_messages=*/false));
}

Result<NodeAffinityArgs> ParseNodeAffinityArgs(const PluginArgs& args) {
  NodeAffinityArgs out;
  if (args.is_null()) return out;
  if (!args.is_object()) return Error{"NodeAffinityArgs: expected an object"};
  for (const auto& [key, value] : args.items()) {
    if (key == "apiVersion" || key == "kind") continue;
    if (key != "addedAffinity") return Error{"NodeAffinityArgs: unknown field \"" + key + "\""};
  }
  auto it = args.find("addedAffinity");
  if (it == args.end() || it->is_null()) return out;
  k8s::NodeAffinity affinity;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto parsed = google::protobuf::util::JsonStringToMessage(it->dump(), &affinity, options);
  if (!parsed.ok()) return Error{"addedAffinity: " + parsed.ToString()};
  const std::string required_path = "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution";
  if (affinity.has_required_during_scheduling_ignored_during_execution()) {
    const auto& terms =
        affinity.required_during_scheduling_ignored_during_execution().node_selector_terms();
    for (int i = 0; i < terms.size(); ++i) {
      std::string e = NodeSelectorTermError(
          terms[i], required_path + ".nodeSelectorTerms[" + std::to_string(i) + "]");
      if (!e.empty()) return Error{e};
    }
  }
  const std::string preferred_path =
      "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution";
  const auto& preferred = affinity.preferred_during_scheduling_ignored_during_execution();
  for (int i = 0; i < preferred.size(); ++i) {
    // Terms with weight 0 or an empty preference are dropped before parsing.
    if (preferred[i].weight() == 0 || IsEmptyNodeSelectorTerm(preferred[i].preference())) continue;
    std::string e = NodeSelectorTermError(
        preferred[i].preference(), preferred_path + "[" + std::to_string(i) + "].preference");
    if (!e.empty()) return Error{e};
  }
  out.added_affinity = std::move(affinity);
  return out;
}

}  // namespace schedcheck::reference
