#include "reference/plugins/pod_topology_spread/default_selector.h"

#include <map>
#include <string>

#include "reference/api/selectors.h"

namespace schedcheck::reference::pod_topology_spread {
namespace {

// The objects of `store` in namespace `ns` ("ns/..." keys are contiguous, in name order).
template <typename Object, typename Visit>
void ForEachInNamespace(const std::map<std::string, Object, std::less<>>& store,
                        const std::string& ns, Visit&& visit) {
  const std::string prefix = ns + "/";
  for (auto it = store.lower_bound(prefix); it != store.end() && it->first.starts_with(prefix);
       ++it) {
    visit(it->second);
  }
}

template <typename Object>
const Object* Find(const std::map<std::string, Object, std::less<>>& store, const std::string& ns,
                   const std::string& name) {
  auto it = store.find(ns + "/" + name);
  return it == store.end() ? nullptr : &it->second;
}

// labels.Set(selector).AsSelectorPreValidated().Matches(pod labels).
bool MapSelects(const google::protobuf::Map<std::string, std::string>& selector,
                const Labels& labels) {
  for (const auto& [key, value] : selector) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  return true;
}

void AddRequirement(k8s::LabelSelector* out, const std::string& key, const std::string& op,
                    const google::protobuf::RepeatedPtrField<std::string>* values,
                    const std::string* value) {
  k8s::LabelSelectorRequirement* req = out->add_match_expressions();
  req->set_key(key);
  req->set_operator_(op);
  if (values != nullptr) *req->mutable_values() = *values;
  if (value != nullptr) req->add_values(*value);
}

// metav1.LabelSelectorAsSelector(selector).Requirements() ANDed into `out`; nothing for a nil or
// malformed selector (upstream ignores the error and the Nothing selector's requirements).
void AddLabelSelector(const k8s::LabelSelector* selector, k8s::LabelSelector* out) {
  if (selector == nullptr || !LabelSelectorValid(*selector)) return;
  std::map<std::string, std::string> sorted(selector->match_labels().begin(),
                                            selector->match_labels().end());
  for (const auto& [key, value] : sorted) AddRequirement(out, key, "In", nullptr, &value);
  for (const k8s::LabelSelectorRequirement& req : selector->match_expressions()) {
    AddRequirement(out, req.key(), req.operator_(), &req.values(), nullptr);
  }
}

// metav1.GetControllerOfNoCopy.
const k8s::OwnerReference* ControllerOf(const k8s::Pod& pod) {
  for (const k8s::OwnerReference& ref : pod.metadata().owner_references()) {
    if (ref.has_controller() && ref.controller()) return &ref;
  }
  return nullptr;
}

}  // namespace

SpreadSelector DefaultSelector(const Pod& pod, const ClusterObjects& objects) {
  const std::string& ns = pod.ns().empty() ? std::string("default") : pod.ns();
  std::map<std::string, std::string> label_set;
  ForEachInNamespace(objects.services, ns, [&](const k8s::Service& service) {
    const auto& selector = service.spec().selector();
    // A nil selector selects nothing; an empty one selects everything and adds no label.
    if (selector.empty() || !MapSelects(selector, pod.labels())) return;
    for (const auto& [key, value] : selector) label_set[key] = value;
  });
  k8s::LabelSelector from_owner;
  if (const k8s::OwnerReference* owner = ControllerOf(pod.obj)) {
    const std::string& api = owner->api_version();
    const std::string& kind = owner->kind();
    if (api == "v1" && kind == "ReplicationController") {
      if (const auto* rc = Find(objects.replication_controllers, ns, owner->name())) {
        for (const auto& [key, value] : rc->spec().selector()) label_set[key] = value;
      }
    } else if (api == "apps/v1" && kind == "ReplicaSet") {
      if (const auto* rs = Find(objects.replica_sets, ns, owner->name())) {
        AddLabelSelector(rs->spec().has_selector() ? &rs->spec().selector() : nullptr, &from_owner);
      }
    } else if (api == "apps/v1" && kind == "StatefulSet") {
      if (const auto* ss = Find(objects.stateful_sets, ns, owner->name())) {
        AddLabelSelector(ss->spec().has_selector() ? &ss->spec().selector() : nullptr, &from_owner);
      }
    }
  }
  SpreadSelector out;
  out.nothing = false;
  for (const auto& [key, value] : label_set)
    AddRequirement(&out.selector, key, "In", nullptr, &value);
  for (const k8s::LabelSelectorRequirement& req : from_owner.match_expressions()) {
    *out.selector.add_match_expressions() = req;
  }
  return out;
}

}  // namespace schedcheck::reference::pod_topology_spread
