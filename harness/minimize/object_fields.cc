#include "harness/minimize/object_fields.h"

#include <algorithm>

#include "google/protobuf/message.h"

namespace schedcheck::minimize {
namespace {

template <typename Map>
std::vector<std::string> SortedKeys(const Map& map) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string TaintName(const k8s::Taint& t) { return t.key() + ":" + t.effect(); }

std::string TolerationName(const k8s::Toleration& t) {
  return t.key() + " " + t.operator_() + " " + t.value() + " " + t.effect();
}

std::string SpreadName(const k8s::TopologySpreadConstraint& c) {
  return c.topology_key() + " " + c.when_unsatisfiable();
}

// Deletes the elements of `list` that `name_of` names `name`.
template <typename List, typename NameOf>
void EraseNamed(List* list, const std::string& name, NameOf name_of) {
  for (int i = list->size() - 1; i >= 0; --i) {
    if (name_of(list->Get(i)) == name) list->DeleteSubrange(i, 1);
  }
}

void AddPodFields(const k8s::Pod& pod, const std::string& object, std::vector<FieldUnit>* out) {
  const k8s::PodSpec& spec = pod.spec();
  for (const std::string& key : SortedKeys(spec.node_selector()))
    out->push_back({object, "nodeSelector", key});
  for (const auto& t : spec.tolerations())
    out->push_back({object, "toleration", TolerationName(t)});
  for (const auto* containers : {&spec.init_containers(), &spec.containers()}) {
    for (const k8s::Container& c : *containers) {
      // A limit without a request is the request (API defaulting): both go together.
      std::vector<std::string> resources = SortedKeys(c.resources().requests());
      for (const std::string& r : SortedKeys(c.resources().limits())) resources.push_back(r);
      std::sort(resources.begin(), resources.end());
      resources.erase(std::unique(resources.begin(), resources.end()), resources.end());
      for (const std::string& r : resources)
        out->push_back({object, "request", c.name() + "/" + r});
    }
  }
  if (spec.affinity().has_node_affinity()) out->push_back({object, "nodeAffinity", ""});
  if (spec.affinity().has_pod_affinity()) out->push_back({object, "podAffinity", ""});
  if (spec.affinity().has_pod_anti_affinity()) out->push_back({object, "podAntiAffinity", ""});
  for (const auto& c : spec.topology_spread_constraints())
    out->push_back({object, "topologySpread", SpreadName(c)});
}

void RemovePodField(const FieldUnit& f, k8s::Pod* pod) {
  k8s::PodSpec* spec = pod->mutable_spec();
  if (f.kind == "nodeSelector") {
    spec->mutable_node_selector()->erase(f.name);
  } else if (f.kind == "toleration") {
    EraseNamed(spec->mutable_tolerations(), f.name, TolerationName);
  } else if (f.kind == "request") {
    const size_t slash = f.name.rfind('/');
    const std::string container = f.name.substr(0, slash), resource = f.name.substr(slash + 1);
    for (auto* containers : {spec->mutable_init_containers(), spec->mutable_containers()}) {
      for (k8s::Container& c : *containers) {
        if (c.name() != container) continue;
        c.mutable_resources()->mutable_requests()->erase(resource);
        c.mutable_resources()->mutable_limits()->erase(resource);
      }
    }
  } else if (f.kind == "nodeAffinity") {
    spec->mutable_affinity()->clear_node_affinity();
  } else if (f.kind == "podAffinity") {
    spec->mutable_affinity()->clear_pod_affinity();
  } else if (f.kind == "podAntiAffinity") {
    spec->mutable_affinity()->clear_pod_anti_affinity();
  } else if (f.kind == "topologySpread") {
    EraseNamed(spec->mutable_topology_spread_constraints(), f.name, SpreadName);
  }
}

// The event's object, whatever its kind (reflection: kinds are added to ApiEvent over time).
const google::protobuf::Message* ObjectOf(const trace::ApiEvent& e) {
  const auto* oneof = e.GetDescriptor()->FindOneofByName("object");
  const auto* field =
      oneof == nullptr ? nullptr : e.GetReflection()->GetOneofFieldDescriptor(e, oneof);
  return field == nullptr ? nullptr : &e.GetReflection()->GetMessage(e, field);
}

k8s::ObjectMeta* MutableMetadataOf(trace::ApiEvent* e) {
  const auto* oneof = e->GetDescriptor()->FindOneofByName("object");
  const auto* field =
      oneof == nullptr ? nullptr : e->GetReflection()->GetOneofFieldDescriptor(*e, oneof);
  if (field == nullptr) return nullptr;
  google::protobuf::Message* object = e->GetReflection()->MutableMessage(e, field);
  const auto* meta = object->GetDescriptor()->FindFieldByName("metadata");
  if (meta == nullptr || meta->message_type() != k8s::ObjectMeta::descriptor()) return nullptr;
  return static_cast<k8s::ObjectMeta*>(object->GetReflection()->MutableMessage(object, meta));
}

}  // namespace

const k8s::ObjectMeta* MetadataOf(const trace::ApiEvent& e) {
  const google::protobuf::Message* object = ObjectOf(e);
  if (object == nullptr) return nullptr;
  const auto* meta = object->GetDescriptor()->FindFieldByName("metadata");
  if (meta == nullptr || meta->message_type() != k8s::ObjectMeta::descriptor()) return nullptr;
  return static_cast<const k8s::ObjectMeta*>(&object->GetReflection()->GetMessage(*object, meta));
}

std::string KindOf(const trace::ApiEvent& e) {
  const google::protobuf::Message* object = ObjectOf(e);
  return object == nullptr ? "?" : object->GetDescriptor()->name();
}

std::vector<FieldUnit> FieldsOf(const trace::ApiEvent& event, const std::string& object) {
  std::vector<FieldUnit> out;
  if (const k8s::ObjectMeta* meta = MetadataOf(event)) {
    for (const std::string& key : SortedKeys(meta->labels())) {
      // The API server sets this one on every namespace; a namespace without it is not real.
      if (event.has_namespace_() && key == "kubernetes.io/metadata.name") continue;
      out.push_back({object, "label", key});
    }
  }
  if (event.has_node()) {
    for (const auto& t : event.node().spec().taints())
      out.push_back({object, "taint", TaintName(t)});
  }
  if (event.has_pod()) AddPodFields(event.pod(), object, &out);
  return out;
}

void RemoveField(const FieldUnit& field, trace::ApiEvent* event) {
  if (field.kind == "label") {
    if (k8s::ObjectMeta* meta = MutableMetadataOf(event)) meta->mutable_labels()->erase(field.name);
  } else if (field.kind == "taint") {
    if (event->has_node())
      EraseNamed(event->mutable_node()->mutable_spec()->mutable_taints(), field.name, TaintName);
  } else if (event->has_pod()) {
    RemovePodField(field, event->mutable_pod());
  }
}

}  // namespace schedcheck::minimize
