#include "reference/scheduler/pod_signatures.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "reference/k8s/serialize_deterministic.h"
#include "reference/plugins/image_locality/image_locality.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "reference/plugins/node_declared_features/node_declared_features.h"
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

// The in-tree plugins of v1.37.2 that implement fwk.SignPlugin.
bool ImplementsSignPlugin(std::string_view name) {
  static const std::set<std::string_view> kSigners = {
      "DynamicResources",
      "ImageLocality",
      "InterPodAffinity",
      "NodeAffinity",
      "NodeDeclaredFeatures",
      "NodeName",
      "NodePorts",
      "NodeResourcesBalancedAllocation",
      "NodeResourcesFit",
      "NodeUnschedulable",
      "NodeVolumeLimits",
      "PodTopologySpread",
      "TaintToleration",
      "VolumeBinding",
      "VolumeRestrictions",
      "VolumeZone",
  };
  return kSigners.count(name) > 0;
}

constexpr ExtensionPoint kSignedPoints[] = {ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,
                                            ExtensionPoint::kPreScore, ExtensionPoint::kScore};

// An injective text: strings carry their length, numbers end with ';', lists their size.
class Text {
 public:
  Text& Str(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_.append(s);
    return *this;
  }
  Text& Int(int64_t v) {
    out_ += std::to_string(v);
    out_ += ';';
    return *this;
  }
  // A list whose order upstream fixes by sorting (each item already a Text).
  Text& SortedList(std::vector<std::string> items) {
    std::sort(items.begin(), items.end());
    Int(static_cast<int64_t>(items.size()));
    for (const std::string& item : items) Str(item);
    return *this;
  }
  std::string str() const { return out_; }

 private:
  std::string out_;
};

// A string map (labels, nodeSelector): JSON marshals it with sorted keys.
std::string MapText(const google::protobuf::Map<std::string, std::string>& map) {
  std::vector<std::string> items;
  for (const auto& [k, v] : map) items.push_back(Text().Str(k).Str(v).str());
  return Text().SortedList(std::move(items)).str();
}

// NodeSelectorRequirementsSigner: each requirement with its values sorted, the list sorted.
std::string RequirementsText(
    const google::protobuf::RepeatedPtrField<k8s::NodeSelectorRequirement>& reqs) {
  std::vector<std::string> items;
  for (const k8s::NodeSelectorRequirement& r : reqs) {
    std::vector<std::string> values(r.values().begin(), r.values().end());
    std::sort(values.begin(), values.end());
    Text t;
    t.Str(r.key()).Str(r.operator_()).Int(static_cast<int64_t>(values.size()));
    for (const std::string& v : values) t.Str(v);
    items.push_back(t.str());
  }
  return Text().SortedList(std::move(items)).str();
}

std::string TermText(const k8s::NodeSelectorTerm& term) {
  return Text()
      .Str(RequirementsText(term.match_expressions()))
      .Str(RequirementsText(term.match_fields()))
      .str();
}

// fwk.NodeAffinitySigner: null without spec.affinity.nodeAffinity; else the required terms and
// the preferred terms (with their weights), each list sorted.
std::string NodeAffinityText(const k8s::PodSpec& spec) {
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity()) return "null";
  const k8s::NodeAffinity& na = spec.affinity().node_affinity();
  std::vector<std::string> required;
  for (const k8s::NodeSelectorTerm& term :
       na.required_during_scheduling_ignored_during_execution().node_selector_terms()) {
    required.push_back(TermText(term));
  }
  std::vector<std::string> preferred;
  for (const k8s::PreferredSchedulingTerm& p :
       na.preferred_during_scheduling_ignored_during_execution()) {
    preferred.push_back(Text().Int(p.weight()).Str(TermText(p.preference())).str());
  }
  return Text()
      .Str("affinity")
      .Str(Text().SortedList(std::move(required)).str())
      .Str(Text().SortedList(std::move(preferred)).str())
      .str();
}

// fwk.TolerationsSigner: sort.Slice by key, then value. Go's sort.Slice is an insertion sort up
// to 12 elements, so stable there; longer lists may differ from upstream in the order of
// tolerations with equal key and value.
std::string TolerationsText(const k8s::PodSpec& spec) {
  std::vector<const k8s::Toleration*> sorted;
  for (const k8s::Toleration& t : spec.tolerations()) sorted.push_back(&t);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    return a->key() < b->key() || (a->key() == b->key() && a->value() < b->value());
  });
  Text t;
  t.Int(static_cast<int64_t>(sorted.size()));
  for (const k8s::Toleration* tol : sorted) {
    t.Str(tol->key()).Str(tol->operator_()).Str(tol->value()).Str(tol->effect());
    t.Int(tol->has_toleration_seconds() ? 1 : 0).Int(tol->toleration_seconds());
  }
  return t.str();
}

// fwk.VolumesSigner: every volume's source (not its name), sorted. ConfigMap and Secret sources,
// which upstream leaves out, are not in the schema; a volume without a known source is the
// API's default emptyDir for every pod alike.
std::string VolumesText(const k8s::PodSpec& spec) {
  std::vector<std::string> items;
  for (const k8s::Volume& v : spec.volumes()) {
    k8s::Volume source = v;
    source.clear_name();
    items.push_back(k8s::SerializeDeterministic(source));
  }
  return Text().SortedList(std::move(items)).str();
}

// fwk.HostPortsSigner: the distinct non-zero hostPorts of containers and init containers,
// sorted (a host-network pod's ports carry the API's default, ApplyApiDefaults).
std::string HostPortsText(const k8s::PodSpec& spec) {
  std::set<int32_t> ports;
  for (const auto* list : {&spec.containers(), &spec.init_containers()}) {
    for (const k8s::Container& c : *list) {
      for (const k8s::ContainerPort& p : c.ports()) {
        if (p.host_port() != 0) ports.insert(p.host_port());
      }
    }
  }
  Text t;
  t.Int(static_cast<int64_t>(ports.size()));
  for (int32_t p : ports) t.Int(p);
  return t.str();
}

// ImageLocality's SignPod: the distinct normalized images of containers and init containers.
std::string ImagesText(const k8s::PodSpec& spec) {
  std::set<std::string> names;
  for (const auto* list : {&spec.containers(), &spec.init_containers()}) {
    for (const k8s::Container& c : *list) names.insert(NormalizedImageName(c.image()));
  }
  return Text().SortedList({names.begin(), names.end()}).str();
}

// computePodResourceRequest (NodeResourcesFit and BalancedAllocation sign alike): the spec's
// requests as framework.Resource, zero-valued scalar entries kept. Without DeviceClasses no
// extended resource is delegated to DRA, so the DRAExtendedResource refusal never applies.
std::optional<std::string> ResourcesText(const k8s::Pod& pod, const PodResourceGates& gates) {
  PodResourcesOptions opts;
  opts.skip_pod_level_resources = !gates.pod_level_resources;
  Result<ResourceList> list = PodRequests(pod, opts);
  if (!list.ok()) return std::nullopt;
  Resource r = ResourceFromList(*list);
  Text t;
  t.Int(r.milli_cpu).Int(r.memory).Int(r.ephemeral_storage).Int(r.allowed_pod_number);
  t.Int(static_cast<int64_t>(r.scalar.size()));
  for (const auto& [name, value] : r.scalar) t.Str(name.str()).Int(value);
  return t.str();
}

}  // namespace

PodSigner PodSigner::ForProfile(const Framework& fw, const Profile& profile,
                                const PodResourceGates& gates) {
  PodSigner signer;
  signer.enabled_ = true;
  signer.scheduler_name_ = fw.scheduler_name();
  signer.gates_ = gates;
  for (ExtensionPoint point : kSignedPoints) {
    for (const std::string& name : fw.PluginNames(point)) {
      if (!ImplementsSignPlugin(name)) signer.enabled_ = false;
      if (std::find(signer.plugins_.begin(), signer.plugins_.end(), name) ==
          signer.plugins_.end()) {
        signer.plugins_.push_back(name);
      }
    }
  }
  const auto* spread = dynamic_cast<const SpreadDefaults*>(fw.GetPlugin("PodTopologySpread"));
  // With default constraints PodTopologySpread refuses every pod: none is signed (the default
  // profile).
  if (spread != nullptr && spread->has_default_constraints()) signer.enabled_ = false;
  if (auto it = profile.plugin_config.find("InterPodAffinity"); it != profile.plugin_config.end()) {
    // The framework was created from these arguments, so they parse.
    Result<InterPodAffinityArgs> args = ParseInterPodAffinityArgs(it->second);
    if (args.ok()) {
      signer.ignore_preferred_terms_of_existing_pods_ =
          args->ignore_preferred_terms_of_existing_pods;
    }
  }
  return signer;
}

PodSignature PodSigner::Sign(const Pod& pod) const {
  if (!enabled_) return nullptr;
  const k8s::PodSpec& spec = pod.obj.spec();
  // Signer key -> fragment: plugins that sign the same key (volumes, tolerations, resources) give
  // the same fragment, so the map keeps one.
  std::map<std::string_view, std::string> fragments;
  fragments["v1.Pod.Spec.SchedulerName"] = scheduler_name_;
  for (const std::string& plugin : plugins_) {
    if (plugin == "NodeResourcesFit" || plugin == "NodeResourcesBalancedAllocation") {
      std::optional<std::string> resources = ResourcesText(pod.obj, gates_);
      if (!resources) return nullptr;
      fragments["v1.Pod.Spec.ContainerRequestsAndOverheads()"] = std::move(*resources);
    } else if (plugin == "NodeVolumeLimits" || plugin == "VolumeBinding" ||
               plugin == "VolumeZone" || plugin == "VolumeRestrictions") {
      fragments["v1.Pod.Spec.Volumes.NonSyntheticSources()"] = VolumesText(spec);
    } else if (plugin == "TaintToleration" || plugin == "NodeUnschedulable") {
      fragments["v1.Pod.Spec.Tolerations"] = TolerationsText(spec);
    } else if (plugin == "InterPodAffinity") {
      if (spec.has_affinity() &&
          (spec.affinity().has_pod_affinity() || spec.affinity().has_pod_anti_affinity())) {
        return nullptr;  // "pods with InterPodAffinity are not signable"
      }
      // Labels matter only for other pods' terms that could select this one; with
      // ignorePreferredTermsOfExistingPods upstream leaves them out all the same.
      if (!ignore_preferred_terms_of_existing_pods_) {
        fragments["v1.Pod.Labels"] = MapText(pod.obj.metadata().labels());
      }
    } else if (plugin == "NodePorts") {
      fragments["v1.Pod.Spec.HostPorts()"] = HostPortsText(spec);
    } else if (plugin == "PodTopologySpread") {
      // Its default constraints would refuse every pod; then the signer is not enabled.
      if (spec.topology_spread_constraints_size() > 0) return nullptr;
    } else if (plugin == "NodeAffinity") {
      fragments["v1.Pod.Spec.Affinity.NodeAffinity"] = NodeAffinityText(spec);
      fragments["v1.Pod.Spec.Affinity.NodeSelector"] = MapText(spec.node_selector());
    } else if (plugin == "NodeName") {
      fragments["v1.Pod.Spec.NodeName"] = spec.node_name();
    } else if (plugin == "ImageLocality") {
      fragments["v1.Pod.Spec.CanonicalImageNames()"] = ImagesText(spec);
    } else if (plugin == "NodeDeclaredFeatures") {
      Text t;
      std::vector<std::string_view> features = InferForPodScheduling(spec);
      t.Int(static_cast<int64_t>(features.size()));
      for (std::string_view f : features) t.Str(f);
      fragments["v1.Pod.Spec.RequiredFeatures()"] = t.str();
    } else if (plugin == "DynamicResources") {
      if (spec.resource_claims_size() > 0) return nullptr;
    } else {
      return nullptr;  // not a signing plugin: the profile is not enabled
    }
  }
  Text signature;
  for (const auto& [key, fragment] : fragments) signature.Str(key).Str(fragment);
  return std::make_shared<const std::string>(signature.str());
}

}  // namespace schedcheck::reference
