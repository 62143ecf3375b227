#include "harness/check/cluster.h"

#include "reference/plugins/registry.h"

namespace schedcheck::check {
namespace {

// Objects keyed "namespace/name" (an empty namespace is "default"); a later duplicate wins.
template <typename Object>
void StoreByKey(const std::vector<Object>& objects,
                std::map<std::string, Object, std::less<>>* store) {
  for (const Object& o : objects) {
    const std::string& ns = o.metadata().namespace_();
    (*store)[(ns.empty() ? "default" : ns) + "/" + o.metadata().name()] = o;
  }
}

// Cluster-scoped objects keyed by name; a later duplicate wins.
template <typename Object>
void StoreByName(const std::vector<Object>& objects,
                 std::map<std::string, Object, std::less<>>* store) {
  for (const Object& o : objects) (*store)[o.metadata().name()] = o;
}

}  // namespace

ClusterInput ClusterInputOf(const Case& c) {
  return ClusterInput{c.nodes,        c.pods,          c.namespaces,
                      c.pdbs,         c.services,      c.replication_controllers,
                      c.replica_sets, c.stateful_sets, c.storage};
}

Result<std::unique_ptr<Cluster>> Cluster::Build(const ClusterInput& input,
                                                const reference::Profile& profile,
                                                const std::string& compat, reference::Engine engine,
                                                const reference::FeatureGates& gates) {
  const reference::CompatLevel level =
      reference::ParseCompatLevel(compat).value_or(reference::CompatLevel::kV1_27);
  Result<reference::Features> features = reference::FeaturesFor(level, gates);
  if (!features.ok()) return features.error();
  std::unique_ptr<Cluster> c(new Cluster(*features));
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    auto node = reference::BuildNode(input.nodes[i]);
    std::string where =
        "nodes[" + std::to_string(i) + "] (" + input.nodes[i].metadata().name() + ")";
    if (!node.ok()) return Error{where + ": " + node.message()};
    c->node_names_.push_back((*node)->name());
    if (Outcome ok = c->cache_.AddNode(*node); !ok) return Error{where + ": " + ok.message()};
  }
  for (size_t i = 0; i < input.pods.size(); ++i) {
    auto pod = reference::BuildPod(input.pods[i], *features);
    std::string where = "pods[" + std::to_string(i) + "] (" + input.pods[i].metadata().name() + ")";
    if (!pod.ok()) return Error{where + ": " + pod.message()};
    if (!(*pod)->node_name().empty()) {
      if (Outcome ok = c->cache_.AddPod(*pod); !ok) return Error{where + ": " + ok.message()};
    } else if (!(*pod)->obj.status().nominated_node_name().empty()) {
      c->nominator_.Add(reference::MakePodInfo(*pod), (*pod)->obj.status().nominated_node_name());
    }
  }
  for (const k8s::Namespace& ns : input.namespaces)
    c->objects_.namespaces[ns.metadata().name()] = ns;
  for (const k8s::PodDisruptionBudget& pdb : input.pdbs) {
    std::string ns = pdb.metadata().namespace_().empty() ? "default" : pdb.metadata().namespace_();
    c->objects_.pdbs[ns + "/" + pdb.metadata().name()] = pdb;
  }
  StoreByKey(input.services, &c->objects_.services);
  StoreByKey(input.replication_controllers, &c->objects_.replication_controllers);
  StoreByKey(input.replica_sets, &c->objects_.replica_sets);
  StoreByKey(input.stateful_sets, &c->objects_.stateful_sets);
  StoreByName(input.storage.persistent_volumes, &c->objects_.persistent_volumes);
  StoreByKey(input.storage.persistent_volume_claims, &c->objects_.persistent_volume_claims);
  StoreByName(input.storage.storage_classes, &c->objects_.storage_classes);
  StoreByName(input.storage.csi_nodes, &c->objects_.csi_nodes);
  StoreByName(input.storage.csi_drivers, &c->objects_.csi_drivers);
  StoreByKey(input.storage.csi_storage_capacities, &c->objects_.csi_storage_capacities);
  c->cache_.UpdateSnapshot(&c->snapshot_);
  c->handle_.snapshot = &c->snapshot_;
  c->handle_.objects = &c->objects_;
  c->handle_.nominator = &c->nominator_;
  auto fw =
      reference::Framework::Create(profile, reference::PluginRegistryFor(engine), &c->handle_);
  if (!fw.ok()) return fw.error();
  c->framework_ = std::move(*fw);
  c->handle_.framework = c->framework_.get();
  return c;
}

}  // namespace schedcheck::check
