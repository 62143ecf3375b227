#include "harness/generators/storage_generators.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/generators/draws.h"

namespace schedcheck::generators {
namespace {

constexpr int64_t kNanos = 1000LL * 1000 * 1000;
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kHostname[] = "kubernetes.io/hostname";
constexpr char kNamespace[] = "default";
constexpr char kNoProvisioner[] = "kubernetes.io/no-provisioner";
constexpr char kMigratedPlugins[] = "storage.alpha.kubernetes.io/migrated-plugins";
constexpr char kBindCompleted[] = "pv.kubernetes.io/bind-completed";
constexpr char kBoundByController[] = "pv.kubernetes.io/bound-by-controller";
constexpr char kProvisionedBy[] = "pv.kubernetes.io/provisioned-by";
constexpr int kMaxClasses = 4;

using draws::Between;
using draws::Chance;
using draws::Index;
using draws::Pick;
using draws::PickStr;
using draws::Uniform;

// --- vocabularies ---------------------------------------------------------------------------

const std::vector<std::string> kZones = {"zone-a", "zone-b", "zone-c"};
// A generic attachable driver, a node-local one, and the two CSI drivers the in-tree GCE PD and
// AWS EBS plugins migrate to (so CSINode counts of those drivers limit in-tree volumes too).
const std::vector<std::string> kDrivers = {"csi.example.com", "local.csi.example.com",
                                           "pd.csi.storage.gke.io", "ebs.csi.aws.com"};
const std::vector<std::string> kProvisioners = {"csi.example.com", "local.csi.example.com",
                                                kNoProvisioner, "pd.csi.storage.gke.io"};
const std::vector<std::vector<std::string>> kAccessModes = {{"ReadWriteOnce"},
                                                            {"ReadWriteOnce"},
                                                            {"ReadWriteOncePod"},
                                                            {"ReadWriteOnce", "ReadOnlyMany"},
                                                            {"ReadWriteMany"}};

// A storage quantity with its size, so that the generator can keep a bound PV at least as large
// as its claim's request without parsing quantities.
struct Size {
  std::string text;
  int64_t mib;
};
const std::vector<Size> kCapacities = {
    {"1Gi", 1024}, {"5Gi", 5120}, {"10Gi", 10240}, {"20Gi", 20480}};
const std::vector<Size> kRequests = {
    {"500Mi", 500}, {"1Gi", 1024}, {"2Gi", 2048}, {"5Gi", 5120}, {"10Gi", 10240}};

// A timestamp `second` seconds after the replays' epoch (as wide_generators.cc writes them).
std::string Timestamp(int64_t second) {
  const time_t t = static_cast<time_t>(second);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// --- the scenario state ----------------------------------------------------------------------

struct ClassInfo {
  std::string name;
  std::string provisioner;
  std::vector<std::string> zones;  // allowedTopologies on the zone key; empty: anywhere
  bool wait_for_first_consumer = false;
};

struct VolumeInfo {
  k8s::PersistentVolume pv;
  int64_t mib = 0;
};

struct ClaimInfo {
  k8s::PersistentVolumeClaim pvc;
  int64_t mib = 0;
  bool owned_ephemeral = false;  // a generic ephemeral volume's claim, owned by its pod
};

struct LivePod {
  k8s::Pod pod;
  std::vector<std::string> claims;  // claim names its volumes use (claims and ephemeral ones)
};

struct State {
  int64_t t = 0;
  int64_t rv = 0;
  bool newer_fields = false;
  bool migration = false;  // CSINodes may list migrated in-tree plugins (see the header)
  // The replay runs the volume controllers model: WaitForFirstConsumer claims are left to it (the
  // trace binds only Immediate ones, as the PV controller does without the scheduler).
  bool controllers_model = false;
  std::vector<k8s::Node> nodes;
  std::vector<ClassInfo> classes;
  std::vector<k8s::CSINode> csi_nodes;
  std::vector<k8s::CSIStorageCapacity> capacities;
  std::vector<VolumeInfo> volumes;
  std::vector<ClaimInfo> claims;            // claims that exist (terminating ones included)
  std::vector<std::string> deleted_claims;  // names a later pod may still use
  std::vector<LivePod> pods;
  int next_node = 0;
  int next_class = 0;
  int next_capacity = 0;
  int next_volume = 0;
  int next_claim = 0;
  int next_pod = 0;
  std::vector<trace::Record> out;
};

trace::Record& Emit(State& st, trace::EventType type) {
  trace::Record r;
  r.set_time_ns(st.t * kNanos);
  r.mutable_api()->set_type(type);
  // As in the wide scenarios, some events arrive while the instant's first cycle is in flight
  // (docs/FORMATS.md#replay-conventions), so that storage events overlap attempts.
  if (st.t > 0 && Chance(10)) r.mutable_api()->set_during_attempt(true);
  st.out.push_back(std::move(r));
  return st.out.back();
}

std::string NextRv(State& st) { return std::to_string(++st.rv); }

void EmitNode(State& st, trace::EventType type, k8s::Node& node) {
  node.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_node() = node;
}

void EmitPod(State& st, trace::EventType type, k8s::Pod& pod) {
  pod.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_pod() = pod;
}

void EmitVolume(State& st, trace::EventType type, k8s::PersistentVolume& pv) {
  pv.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_persistent_volume() = pv;
}

void EmitClaim(State& st, trace::EventType type, k8s::PersistentVolumeClaim& pvc) {
  pvc.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_persistent_volume_claim() = pvc;
}

void EmitCsiNode(State& st, trace::EventType type, k8s::CSINode& csi_node) {
  csi_node.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_csi_node() = csi_node;
}

void EmitCapacity(State& st, trace::EventType type, k8s::CSIStorageCapacity& capacity) {
  capacity.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_csi_storage_capacity() = capacity;
}

bool IsCsiDriver(const std::string& provisioner) {
  return std::find(kDrivers.begin(), kDrivers.end(), provisioner) != kDrivers.end();
}

const ClassInfo* FindClass(const State& st, const std::string& name) {
  for (const ClassInfo& c : st.classes) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// A class name for a new PV or claim: mostly a live class, sometimes the next one, which a later
// event may create (until then VolumeBinding reports the class not found).
std::string ClassNameFor(const State& st) {
  std::vector<std::string> names;
  for (const ClassInfo& c : st.classes) names.push_back(c.name);
  if (names.empty() || (st.next_class < kMaxClasses && Chance(5)))
    return "sc-" + std::to_string(st.next_class);
  return PickStr(names);
}

std::vector<std::string> NodeNames(const State& st) {
  std::vector<std::string> names;
  for (const k8s::Node& n : st.nodes) names.push_back(n.metadata().name());
  return names;
}

// --- nodes, classes, drivers -----------------------------------------------------------------

k8s::Node NewNode(State& st) {
  k8s::Node node;
  const std::string name = "n" + std::to_string(st.next_node++);
  node.mutable_metadata()->set_name(name);
  node.mutable_metadata()->set_uid("uid-" + name);
  auto& labels = *node.mutable_metadata()->mutable_labels();
  labels[kHostname] = name;
  if (Chance(90)) labels[kZone] = PickStr(kZones);
  auto& alloc = *node.mutable_status()->mutable_allocatable();
  alloc["cpu"] = PickStr({"2", "4"});
  alloc["memory"] = "8Gi";
  alloc["pods"] = "110";
  // Attach limits the node reports itself: the in-tree limit plugins read the first two, and
  // NodeVolumeLimits the CSI one (a CSINode count replaces it).
  if (Chance(15)) alloc["attachable-volumes-gce-pd"] = PickStr({"1", "2"});
  if (Chance(10)) alloc["attachable-volumes-aws-ebs"] = PickStr({"1", "2"});
  if (Chance(10)) alloc["attachable-volumes-csi-csi.example.com"] = PickStr({"1", "2"});
  *node.mutable_status()->mutable_capacity() = alloc;
  return node;
}

void AddClass(State& st) {
  ClassInfo c;
  c.name = "sc-" + std::to_string(st.next_class++);
  c.provisioner = PickStr(kProvisioners);
  k8s::StorageClass sc;
  sc.set_api_version("storage.k8s.io/v1");
  sc.set_kind("StorageClass");
  sc.mutable_metadata()->set_name(c.name);
  sc.mutable_metadata()->set_resource_version(NextRv(st));
  sc.set_provisioner(c.provisioner);
  sc.set_reclaim_policy(PickStr({"Delete", "Retain"}));
  const int mode = Between(0, 9);
  // Unset (10%): the API server defaults it to Immediate; the replays must do the same.
  if (mode < 5) {
    sc.set_volume_binding_mode("WaitForFirstConsumer");
    c.wait_for_first_consumer = true;
  } else if (mode < 9) {
    sc.set_volume_binding_mode("Immediate");
  }
  if (Chance(25)) {
    k8s::TopologySelectorLabelRequirement* r =
        sc.add_allowed_topologies()->add_match_label_expressions();
    r->set_key(kZone);
    std::vector<std::string> zones = kZones;
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      const size_t z = Index(zones.size());
      r->add_values(zones[z]);
      c.zones.push_back(zones[z]);
      zones.erase(zones.begin() + static_cast<long>(z));
    }
  }
  *Emit(st, trace::ADDED).mutable_api()->mutable_storage_class() = sc;
  st.classes.push_back(std::move(c));
}

void AddDrivers(State& st) {
  for (const std::string& name : kDrivers) {
    if (!Chance(75)) continue;  // no CSIDriver object: upstream's defaults (attach required)
    k8s::CSIDriver d;
    d.set_api_version("storage.k8s.io/v1");
    d.set_kind("CSIDriver");
    d.mutable_metadata()->set_name(name);
    d.mutable_metadata()->set_resource_version(NextRv(st));
    // Mostly what such a driver declares (a node-local one attaches nothing), sometimes not.
    if (!Chance(25))
      d.mutable_spec()->set_attach_required(name == "local.csi.example.com" ? Chance(15)
                                                                            : Chance(85));
    // Capacity tracking on most drivers: VolumeBinding then filters and (1.37) scores by capacity.
    if (!Chance(30)) d.mutable_spec()->set_storage_capacity(Chance(75));
    // v1.37 (VolumeLimitScaling): nodes whose CSINode lacks the driver are refused.
    if (st.newer_fields && Chance(20))
      d.mutable_spec()->set_prevent_pod_scheduling_if_missing(true);
    *Emit(st, trace::ADDED).mutable_api()->mutable_csi_driver() = d;
  }
}

k8s::CSINodeDriver NewCsiNodeDriver(const std::string& driver, const std::string& node) {
  k8s::CSINodeDriver d;
  d.set_name(driver);
  d.set_node_id(node);
  if (Chance(50)) d.add_topology_keys(kZone);
  if (!Chance(25)) d.mutable_allocatable()->set_count(Between(0, 3));
  return d;
}

k8s::CSINode NewCsiNode(const State& st, const std::string& node) {
  k8s::CSINode c;
  c.set_api_version("storage.k8s.io/v1");
  c.set_kind("CSINode");
  c.mutable_metadata()->set_name(node);
  for (const std::string& driver : kDrivers) {
    if (Chance(50)) *c.mutable_spec()->add_drivers() = NewCsiNodeDriver(driver, node);
  }
  if (st.migration && Chance(60)) {
    (*c.mutable_metadata()->mutable_annotations())[kMigratedPlugins] =
        PickStr({"kubernetes.io/gce-pd", "kubernetes.io/aws-ebs,kubernetes.io/gce-pd"});
  }
  return c;
}

void AddCsiNode(State& st, const std::string& node) {
  k8s::CSINode c = NewCsiNode(st, node);
  EmitCsiNode(st, trace::ADDED, c);
  st.csi_nodes.push_back(std::move(c));
}

// A CSIStorageCapacity for a class a CSI driver provisions: what the driver reports for one zone.
void AddCapacity(State& st) {
  std::vector<std::string> classes;
  for (const ClassInfo& c : st.classes) {
    if (IsCsiDriver(c.provisioner)) classes.push_back(c.name);
  }
  if (classes.empty()) return;
  k8s::CSIStorageCapacity cap;
  cap.set_api_version("storage.k8s.io/v1");
  cap.set_kind("CSIStorageCapacity");
  cap.mutable_metadata()->set_name("cap-" + std::to_string(st.next_capacity++));
  cap.mutable_metadata()->set_namespace_(kNamespace);
  cap.set_storage_class_name(PickStr(classes));
  if (Chance(80)) {
    (*cap.mutable_node_topology()->mutable_match_labels())[kZone] = PickStr(kZones);
  } else {
    k8s::LabelSelectorRequirement* r = cap.mutable_node_topology()->add_match_expressions();
    r->set_key(kZone);
    r->set_operator_("In");
    r->add_values(PickStr(kZones));
    r->add_values(PickStr(kZones));
  }
  if (Chance(85)) cap.set_capacity(PickStr({"0", "1Gi", "5Gi", "12Gi", "40Gi", "100Gi"}));
  if (Chance(30)) cap.set_maximum_volume_size(PickStr({"1Gi", "10Gi"}));
  // v1.37.2's VolumeBinding Score panics on a capacity found sufficient by maximumVolumeSize
  // alone (docs/DEVIATIONS.md): at 1.37 such a capacity also has a capacity.
  if (st.newer_fields && cap.has_maximum_volume_size() && !cap.has_capacity()) {
    cap.set_capacity(PickStr({"5Gi", "40Gi"}));
  }
  EmitCapacity(st, trace::ADDED, cap);
  st.capacities.push_back(std::move(cap));
}

// --- volumes and claims ----------------------------------------------------------------------

k8s::NodeSelectorRequirement* AffinityRequirement(k8s::PersistentVolume* pv) {
  return pv->mutable_spec()
      ->mutable_node_affinity()
      ->mutable_required()
      ->add_node_selector_terms()
      ->add_match_expressions();
}

// Where a PV lives: nowhere in particular, a zone (node affinity, mostly with the zone label
// VolumeZone reads), a node (a local volume), or — in-tree only — the zone label alone, as older
// in-tree PVs carry it. `zones`: a class's allowed zones, which a provisioned PV stays within.
void SetTopology(const State& st, k8s::PersistentVolume* pv, bool in_tree,
                 const std::vector<std::string>& zones) {
  if (in_tree && st.migration) return;  // see the header: a known deviation otherwise
  const int where = Between(0, 9);
  const std::string zone = zones.empty() ? PickStr(kZones) : PickStr(zones);
  if (where < 4) return;
  if (where < 7 || (!zones.empty() && where < 9)) {
    k8s::NodeSelectorRequirement* r = AffinityRequirement(pv);
    r->set_key(kZone);
    r->set_operator_("In");
    r->add_values(zone);
    if (Chance(70)) (*pv->mutable_metadata()->mutable_labels())[kZone] = zone;
  } else if (where < 9 && !in_tree) {
    std::vector<std::string> names = NodeNames(st);
    if (names.empty() || Chance(5)) names.push_back("n9");  // a node that never comes
    k8s::NodeSelectorRequirement* r = AffinityRequirement(pv);
    r->set_key(kHostname);
    r->set_operator_("In");
    r->add_values(PickStr(names));
  } else {
    (*pv->mutable_metadata()->mutable_labels())[kZone] = zone;
  }
}

// Binds `pv` to `claim` as pv_controller.go's bindVolumeToClaim writes it.
void SetClaimRef(k8s::PersistentVolume* pv, const k8s::PersistentVolumeClaim& claim) {
  k8s::ObjectReference* ref = pv->mutable_spec()->mutable_claim_ref();
  ref->set_kind("PersistentVolumeClaim");
  ref->set_api_version("v1");
  ref->set_namespace_(claim.metadata().namespace_());
  ref->set_name(claim.metadata().name());
  ref->set_uid(claim.metadata().uid());
  pv->mutable_status()->set_phase("Bound");
}

// A PV of `class_name` at least `min_mib` large. `provisioned`: created by the class's
// provisioner for a claim (its driver's CSI source, the class's zones).
VolumeInfo NewVolume(State& st, const std::string& class_name, int64_t min_mib,
                     const std::vector<std::string>& modes, bool provisioned) {
  VolumeInfo v;
  k8s::PersistentVolume& pv = v.pv;
  const std::string name = "pv-" + std::to_string(st.next_volume++);
  pv.set_api_version("v1");
  pv.set_kind("PersistentVolume");
  pv.mutable_metadata()->set_name(name);
  k8s::PersistentVolumeSpec* spec = pv.mutable_spec();
  std::vector<Size> sizes;
  for (const Size& s : kCapacities) {
    if (s.mib >= min_mib) sizes.push_back(s);
  }
  const Size size = Pick(sizes);
  v.mib = size.mib;
  (*spec->mutable_capacity())["storage"] = size.text;
  for (const std::string& m : modes) spec->add_access_modes(m);
  spec->set_storage_class_name(class_name);
  spec->set_volume_mode(Chance(10) ? "Block" : "Filesystem");  // defaulted to Filesystem
  spec->set_persistent_volume_reclaim_policy(provisioned ? "Delete"
                                                         : PickStr({"Retain", "Delete"}));
  const ClassInfo* c = FindClass(st, class_name);
  const std::string provisioner = c == nullptr ? "" : c->provisioner;
  const int source = Between(0, 9);
  bool in_tree = false;
  if ((provisioned && IsCsiDriver(provisioner)) || (IsCsiDriver(provisioner) && source < 7)) {
    spec->mutable_csi()->set_driver(provisioner);
    spec->mutable_csi()->set_volume_handle(name);
  } else if (provisioned || source < 6) {
    spec->mutable_csi()->set_driver(PickStr(kDrivers));
    spec->mutable_csi()->set_volume_handle(name);
  } else if (source < 8) {
    spec->mutable_gce_persistent_disk()->set_pd_name("pd-" + name);
    spec->mutable_gce_persistent_disk()->set_fs_type("ext4");
    in_tree = true;
  } else {
    // Both spellings csi-translation-lib parses: a bare ID and aws://<zone>/<ID>.
    spec->mutable_aws_elastic_block_store()->set_volume_id(Chance(50) ? "vol-" + name
                                                                      : "aws://zone-a/vol-" + name);
    in_tree = true;
  }
  SetTopology(st, &pv, in_tree,
              provisioned && c != nullptr ? c->zones : std::vector<std::string>{});
  if (provisioned) (*pv.mutable_metadata()->mutable_annotations())[kProvisionedBy] = provisioner;
  pv.mutable_status()->set_phase("Available");
  return v;
}

ClaimInfo NewClaim(State& st, const std::string& name, const std::string& class_name,
                   const std::vector<std::string>& modes, const Size& request) {
  ClaimInfo c;
  c.mib = request.mib;
  k8s::PersistentVolumeClaim& pvc = c.pvc;
  pvc.set_api_version("v1");
  pvc.set_kind("PersistentVolumeClaim");
  pvc.mutable_metadata()->set_name(name);
  pvc.mutable_metadata()->set_namespace_(kNamespace);
  pvc.mutable_metadata()->set_uid("uid-pvc-" + name);
  pvc.mutable_metadata()->set_creation_timestamp(Timestamp(st.t));
  for (const std::string& m : modes) pvc.mutable_spec()->add_access_modes(m);
  (*pvc.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = request.text;
  pvc.mutable_spec()->set_storage_class_name(class_name);
  pvc.mutable_spec()->set_volume_mode(Chance(10) ? "Block" : "Filesystem");
  pvc.mutable_status()->set_phase("Pending");
  return c;
}

// The claim's side of a binding, as pv_controller.go's bindClaimToVolume and
// updateClaimStatus write it.
void CompleteClaim(k8s::PersistentVolumeClaim* pvc, const k8s::PersistentVolume& pv,
                   bool by_controller) {
  pvc->mutable_spec()->set_volume_name(pv.metadata().name());
  auto& annotations = *pvc->mutable_metadata()->mutable_annotations();
  annotations[kBindCompleted] = "yes";
  if (by_controller) annotations[kBoundByController] = "yes";
  pvc->mutable_status()->set_phase("Bound");
  pvc->mutable_status()->clear_access_modes();
  for (const std::string& m : pv.spec().access_modes()) pvc->mutable_status()->add_access_modes(m);
  (*pvc->mutable_status()->mutable_capacity())["storage"] = pv.spec().capacity().at("storage");
}

std::vector<std::string> ModesOf(const k8s::PersistentVolumeClaim& pvc) {
  return {pvc.spec().access_modes().begin(), pvc.spec().access_modes().end()};
}

// A claim and its PV, bound to each other from the start (created by a user who pre-binds, or
// captured after the PV controller ran).
void AddBoundPair(State& st) {
  const std::string class_name = ClassNameFor(st);
  const std::vector<std::string> modes = Pick(kAccessModes);
  ClaimInfo claim =
      NewClaim(st, "pvc-" + std::to_string(st.next_claim++), class_name, modes, Pick(kRequests));
  VolumeInfo volume = NewVolume(st, class_name, claim.mib, modes, false);
  const bool by_controller = Chance(60);
  claim.pvc.mutable_spec()->set_volume_mode(volume.pv.spec().volume_mode());
  SetClaimRef(&volume.pv, claim.pvc);
  if (by_controller)
    (*volume.pv.mutable_metadata()->mutable_annotations())[kBoundByController] = "yes";
  CompleteClaim(&claim.pvc, volume.pv, by_controller);
  EmitVolume(st, trace::ADDED, volume.pv);
  EmitClaim(st, trace::ADDED, claim.pvc);
  st.volumes.push_back(std::move(volume));
  st.claims.push_back(std::move(claim));
}

void AddAvailableVolume(State& st) {
  VolumeInfo volume = NewVolume(st, ClassNameFor(st), 0, Pick(kAccessModes), false);
  EmitVolume(st, trace::ADDED, volume.pv);
  st.volumes.push_back(std::move(volume));
}

void AddUnboundClaim(State& st) {
  ClaimInfo claim = NewClaim(st, "pvc-" + std::to_string(st.next_claim++), ClassNameFor(st),
                             Pick(kAccessModes), Pick(kRequests));
  EmitClaim(st, trace::ADDED, claim.pvc);
  st.claims.push_back(std::move(claim));
}

bool UsedByLivePod(const State& st, const std::string& claim) {
  for (const LivePod& p : st.pods) {
    if (std::find(p.claims.begin(), p.claims.end(), claim) != p.claims.end()) return true;
  }
  return false;
}

// Deletes the claim at `i` (no live pod uses it); the PV it was bound to becomes Released, as
// the PV controller marks it (its claimRef stays: a Retain volume is not reused by itself).
void DeleteClaim(State& st, size_t i) {
  ClaimInfo claim = st.claims[i];
  st.claims.erase(st.claims.begin() + static_cast<long>(i));
  EmitClaim(st, trace::DELETED, claim.pvc);
  st.deleted_claims.push_back(claim.pvc.metadata().name());
  const std::string& bound = claim.pvc.spec().volume_name();
  if (bound.empty() || !Chance(70)) return;
  for (VolumeInfo& v : st.volumes) {
    if (v.pv.metadata().name() != bound) continue;
    v.pv.mutable_status()->set_phase("Released");
    EmitVolume(st, trace::MODIFIED, v.pv);
  }
}

// --- pods ------------------------------------------------------------------------------------

void AddClaimVolumes(State& st, k8s::PodSpec* spec, std::vector<std::string>* claims) {
  std::vector<std::string> names;
  for (const ClaimInfo& c : st.claims) {
    if (!c.owned_ephemeral) names.push_back(c.pvc.metadata().name());
  }
  for (const std::string& n : st.deleted_claims) names.push_back(n);
  if (Chance(5)) names.push_back("missing-claim");  // never created
  const int n = names.empty() ? 0 : Between(0, 3);
  for (int i = 0; i < n && !names.empty(); ++i) {
    const size_t j = Index(names.size());
    k8s::Volume* v = spec->add_volumes();
    v->set_name("v" + std::to_string(i));
    v->mutable_persistent_volume_claim()->set_claim_name(names[j]);
    if (Chance(10)) v->mutable_persistent_volume_claim()->set_read_only(true);
    claims->push_back(names[j]);
    names.erase(names.begin() + static_cast<long>(j));  // one volume per claim
  }
}

// Inline in-tree volumes (counted by the in-tree limit plugins, or by NodeVolumeLimits where
// migrated; GCE PD and EBS conflicts in VolumeRestrictions) and an inline CSI volume.
void AddInlineVolumes(k8s::PodSpec* spec) {
  if (Chance(10)) {
    k8s::Volume* v = spec->add_volumes();
    v->set_name("gce");
    v->mutable_gce_persistent_disk()->set_pd_name(PickStr({"disk-1", "disk-2", "disk-3"}));
    if (Chance(30)) v->mutable_gce_persistent_disk()->set_read_only(true);
  }
  if (Chance(8)) {
    k8s::Volume* v = spec->add_volumes();
    v->set_name("ebs");
    v->mutable_aws_elastic_block_store()->set_volume_id(
        PickStr({"vol-1", "vol-2", "aws://zone-a/vol-3"}));
  }
  if (Chance(5)) {
    k8s::Volume* v = spec->add_volumes();
    v->set_name("azure");
    const std::string disk = PickStr({"d1", "d2"});
    v->mutable_azure_disk()->set_disk_name(disk);
    v->mutable_azure_disk()->set_data_disk_uri("https://disks.example/" + disk + ".vhd");
    // What the API server's defaulting writes, except the kind: its default (Shared) and
    // Dedicated fail the CSI translation on nodes with a CSINode with a Go-formatted message the
    // reference does not reproduce (docs/DEVIATIONS.md), so only Managed disks are generated.
    v->mutable_azure_disk()->set_kind("Managed");
    v->mutable_azure_disk()->set_caching_mode("ReadWrite");
    v->mutable_azure_disk()->set_fs_type("ext4");
    v->mutable_azure_disk()->set_read_only(false);
  }
  if (Chance(5)) {
    k8s::Volume* v = spec->add_volumes();
    v->set_name("inline-csi");
    v->mutable_csi()->set_driver(PickStr(kDrivers));
  }
}

void StepPodAdd(State& st) {
  LivePod p;
  k8s::Pod& pod = p.pod;
  const std::string name = "p" + std::to_string(st.next_pod++);
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_namespace_(kNamespace);
  pod.mutable_metadata()->set_uid("uid-" + name);
  pod.mutable_metadata()->set_creation_timestamp(Timestamp(st.t));
  (*pod.mutable_metadata()->mutable_labels())["app"] = PickStr({"web", "db"});
  k8s::PodSpec* spec = pod.mutable_spec();
  k8s::Container* c = spec->add_containers();
  c->set_name("c");
  c->set_image("img-a:1");
  (*c->mutable_resources()->mutable_requests())["cpu"] = PickStr({"100m", "500m", "1"});
  (*c->mutable_resources()->mutable_requests())["memory"] = "128Mi";
  if (st.newer_fields && Chance(10)) {
    (*spec->mutable_resources()->mutable_requests())["cpu"] = "2";  // above the container's
  }
  if (Chance(15)) (*spec->mutable_node_selector())[kZone] = PickStr(kZones);
  AddClaimVolumes(st, spec, &p.claims);
  // A generic ephemeral volume; its claim comes from the ephemeral-volume controller below.
  ClaimInfo eph;
  bool has_eph = false;
  if (Chance(15)) {
    const std::string class_name = ClassNameFor(st);
    const std::vector<std::string> modes = Pick(kAccessModes);
    const Size request = Pick(kRequests);
    k8s::Volume* v = spec->add_volumes();
    v->set_name("eph");
    k8s::PersistentVolumeClaimSpec* t =
        v->mutable_ephemeral()->mutable_volume_claim_template()->mutable_spec();
    for (const std::string& m : modes) t->add_access_modes(m);
    (*t->mutable_resources()->mutable_requests())["storage"] = request.text;
    t->set_storage_class_name(class_name);
    t->set_volume_mode("Filesystem");  // as defaulted; the claim copies the template
    eph = NewClaim(st, name + "-eph", class_name, modes, request);
    eph.pvc.mutable_spec()->set_volume_mode("Filesystem");
    has_eph = true;
    p.claims.push_back(name + "-eph");
  }
  AddInlineVolumes(spec);
  pod.mutable_status()->set_phase("Pending");
  EmitPod(st, trace::ADDED, pod);
  if (has_eph && Chance(80)) {
    // Owned by the pod (the controller's claim), or — rarely — a claim of that name someone
    // else created, which the pod cannot use.
    k8s::OwnerReference* ref = eph.pvc.mutable_metadata()->add_owner_references();
    ref->set_api_version("v1");
    ref->set_kind("Pod");
    ref->set_controller(true);
    if (Chance(90)) {
      ref->set_name(name);
      ref->set_uid(pod.metadata().uid());
      eph.owned_ephemeral = true;
    } else {
      ref->set_name("someone-else");
      ref->set_uid("uid-someone-else");
    }
    EmitClaim(st, trace::ADDED, eph.pvc);
    st.claims.push_back(std::move(eph));
  }
  st.pods.push_back(std::move(p));
}

// Deletes a pod; then claims that only it held: a terminating claim goes (pvc-protection lets
// it), and its owned ephemeral claim is garbage-collected (sometimes later than the trace ends).
void StepPodDelete(State& st) {
  if (st.pods.empty()) return StepPodAdd(st);
  const size_t i = Index(st.pods.size());
  LivePod p = st.pods[i];
  st.pods.erase(st.pods.begin() + static_cast<long>(i));
  EmitPod(st, trace::DELETED, p.pod);
  for (const std::string& name : p.claims) {
    if (UsedByLivePod(st, name)) continue;
    for (size_t j = 0; j < st.claims.size(); ++j) {
      const ClaimInfo& c = st.claims[j];
      if (c.pvc.metadata().name() != name) continue;
      const bool terminating = !c.pvc.metadata().deletion_timestamp().empty();
      if (terminating || (c.owned_ephemeral && Chance(60))) DeleteClaim(st, j);
      break;
    }
  }
}

// --- the controllers' writes -----------------------------------------------------------------

// The PV controller binds an unbound claim: to an Available PV that fits it (class, access
// modes, size), or to one the class's provisioner creates for it (with the claim reference
// already set, as external-provisioner does). PV first, then the claim, maybe a little later.
void StepBindClaim(State& st) {
  std::vector<size_t> unbound;
  for (size_t i = 0; i < st.claims.size(); ++i) {
    const ClaimInfo& c = st.claims[i];
    const ClassInfo* cls = FindClass(st, c.pvc.spec().storage_class_name());
    if (cls != nullptr && st.controllers_model && cls->wait_for_first_consumer) continue;
    if (c.pvc.spec().volume_name().empty() && c.pvc.metadata().deletion_timestamp().empty() &&
        cls != nullptr)
      unbound.push_back(i);
  }
  if (unbound.empty()) return StepPodAdd(st);
  const size_t ci = Pick(unbound);
  const std::string class_name = st.claims[ci].pvc.spec().storage_class_name();
  const std::vector<std::string> modes = ModesOf(st.claims[ci].pvc);
  std::vector<size_t> fitting;
  for (size_t i = 0; i < st.volumes.size(); ++i) {
    const VolumeInfo& v = st.volumes[i];
    if (v.pv.spec().has_claim_ref() || v.pv.spec().storage_class_name() != class_name ||
        v.pv.spec().volume_mode() != st.claims[ci].pvc.spec().volume_mode() ||
        v.mib < st.claims[ci].mib)
      continue;
    bool has_modes = true;
    for (const std::string& m : modes) {
      const auto& pv_modes = v.pv.spec().access_modes();
      has_modes = has_modes && std::find(pv_modes.begin(), pv_modes.end(), m) != pv_modes.end();
    }
    if (has_modes) fitting.push_back(i);
  }
  const ClassInfo* c = FindClass(st, class_name);
  size_t vi = 0;
  if (!fitting.empty() && (c->provisioner == kNoProvisioner || Chance(70))) {
    vi = Pick(fitting);
    VolumeInfo& v = st.volumes[vi];
    SetClaimRef(&v.pv, st.claims[ci].pvc);
    (*v.pv.mutable_metadata()->mutable_annotations())[kBoundByController] = "yes";
    EmitVolume(st, trace::MODIFIED, v.pv);
  } else if (c->provisioner != kNoProvisioner) {
    VolumeInfo v = NewVolume(st, class_name, st.claims[ci].mib, modes, true);
    v.pv.mutable_spec()->set_volume_mode(st.claims[ci].pvc.spec().volume_mode());
    SetClaimRef(&v.pv, st.claims[ci].pvc);
    if (Chance(40)) {
      // Created Pending by the provisioner, then marked Bound by the PV controller.
      v.pv.mutable_status()->set_phase("Pending");
      EmitVolume(st, trace::ADDED, v.pv);
      v.pv.mutable_status()->set_phase("Bound");
      EmitVolume(st, trace::MODIFIED, v.pv);
    } else {
      EmitVolume(st, trace::ADDED, v.pv);
    }
    st.volumes.push_back(std::move(v));
    vi = st.volumes.size() - 1;
  } else {
    return StepPodAdd(st);  // nothing can bind it: no PV fits and no provisioner
  }
  if (Chance(40)) st.t += Pick<int64_t>({1, 2});
  CompleteClaim(&st.claims[ci].pvc, st.volumes[vi].pv, true);
  EmitClaim(st, trace::MODIFIED, st.claims[ci].pvc);
}

void StepClaimAdd(State& st) {
  if (Chance(30)) return AddBoundPair(st);
  AddUnboundClaim(st);
}

// A user deletes a claim: gone at once if no live pod uses it, else only marked terminating
// (the pvc-protection finalizer holds it until its last pod goes).
void StepClaimDelete(State& st) {
  std::vector<size_t> candidates;
  for (size_t i = 0; i < st.claims.size(); ++i) {
    if (st.claims[i].pvc.metadata().deletion_timestamp().empty()) candidates.push_back(i);
  }
  if (candidates.empty()) return AddUnboundClaim(st);
  const size_t i = Pick(candidates);
  if (!UsedByLivePod(st, st.claims[i].pvc.metadata().name())) return DeleteClaim(st, i);
  st.claims[i].pvc.mutable_metadata()->set_deletion_timestamp(Timestamp(st.t));
  EmitClaim(st, trace::MODIFIED, st.claims[i].pvc);
}

// The kubelet re-registers drivers: a CSINode appears for a node without one, or a driver is
// added or removed (v1.27 refuses a changed allocatable count of a registered driver; newer
// releases with MutableCSINodeAllocatableCount take it in place).
void StepCsiNode(State& st) {
  std::vector<std::string> without;
  for (const std::string& node : NodeNames(st)) {
    bool has = false;
    for (const k8s::CSINode& c : st.csi_nodes) has = has || c.metadata().name() == node;
    if (!has) without.push_back(node);
  }
  if (st.csi_nodes.empty() || (!without.empty() && Chance(30))) {
    if (without.empty()) return StepPodAdd(st);
    return AddCsiNode(st, PickStr(without));
  }
  const size_t i = Index(st.csi_nodes.size());
  if (Chance(5)) {
    // The node's kubelet is gone for good (or the object was removed by hand).
    EmitCsiNode(st, trace::DELETED, st.csi_nodes[i]);
    st.csi_nodes.erase(st.csi_nodes.begin() + static_cast<long>(i));
    return;
  }
  k8s::CSINode& c = st.csi_nodes[i];
  auto* drivers = c.mutable_spec()->mutable_drivers();
  std::vector<std::string> missing;
  for (const std::string& d : kDrivers) {
    bool has = false;
    for (const k8s::CSINodeDriver& x : *drivers) has = has || x.name() == d;
    if (!has) missing.push_back(d);
  }
  const int what = Between(0, 9);
  if (st.newer_fields && !drivers->empty() && what < 4) {
    drivers->Mutable(static_cast<int>(Index(drivers->size())))
        ->mutable_allocatable()
        ->set_count(Between(0, 3));
  } else if (!drivers->empty() && (missing.empty() || what < 7)) {
    drivers->DeleteSubrange(static_cast<int>(Index(drivers->size())), 1);
  } else if (!missing.empty()) {
    *drivers->Add() = NewCsiNodeDriver(PickStr(missing), c.metadata().name());
  }
  EmitCsiNode(st, trace::MODIFIED, c);
}

void StepCapacity(State& st) {
  if (st.capacities.empty() || Chance(30)) return AddCapacity(st);
  const size_t i = Index(st.capacities.size());
  k8s::CSIStorageCapacity& cap = st.capacities[i];
  if (Chance(20)) {
    EmitCapacity(st, trace::DELETED, cap);
    st.capacities.erase(st.capacities.begin() + static_cast<long>(i));
    return;
  }
  // capacity and maximumVolumeSize are the mutable fields.
  cap.set_capacity(PickStr({"0", "1Gi", "5Gi", "100Gi"}));
  if (Chance(30)) cap.set_maximum_volume_size(PickStr({"1Gi", "10Gi"}));
  EmitCapacity(st, trace::MODIFIED, cap);
}

void StepNodeAdd(State& st) {
  k8s::Node node = NewNode(st);
  EmitNode(st, trace::ADDED, node);
  const std::string name = node.metadata().name();
  st.nodes.push_back(std::move(node));
  if (Chance(60)) AddCsiNode(st, name);
}

void StepStorage(State& st) {
  const int kind = Between(0, 99);
  if (kind < 30) return StepPodAdd(st);
  if (kind < 40) return StepPodDelete(st);
  if (kind < 55) return StepBindClaim(st);
  if (kind < 62) return AddAvailableVolume(st);
  if (kind < 72) return StepClaimAdd(st);
  if (kind < 77) return StepClaimDelete(st);
  if (kind < 84) return StepCsiNode(st);
  if (kind < 88) return st.next_class < kMaxClasses ? AddClass(st) : StepPodAdd(st);
  if (kind < 93) return StepNodeAdd(st);
  return StepCapacity(st);
}

void AdvanceTime(State& st) { st.t += Pick<int64_t>({0, 0, 1, 2, 5, 30}); }

}  // namespace

rc::Gen<WideScenario> StorageScenarioGen(bool newer_fields, bool controllers_model) {
  return rc::gen::exec([newer_fields, controllers_model] {
    State st;
    st.newer_fields = newer_fields;
    st.controllers_model = controllers_model;
    st.migration = Chance(30);
    const int classes = Between(1, 3);
    for (int i = 0; i < classes; ++i) AddClass(st);
    AddDrivers(st);
    const int nodes = Between(1, 4);
    for (int i = 0; i < nodes; ++i) {
      k8s::Node node = NewNode(st);
      EmitNode(st, trace::ADDED, node);
      st.nodes.push_back(std::move(node));
    }
    for (const std::string& node : NodeNames(st)) {
      if (Chance(80)) AddCsiNode(st, node);
    }
    if (Chance(70)) {
      // Several zones' capacities, so that nodes differ in the room a provisioned claim leaves.
      const int capacities = Between(1, 4);
      for (int i = 0; i < capacities; ++i) AddCapacity(st);
    }
    const int objects = Between(1, 5);
    for (int i = 0; i < objects; ++i) {
      const int what = Between(0, 2);
      if (what == 0) {
        AddBoundPair(st);
      } else if (what == 1) {
        AddAvailableVolume(st);
      } else {
        AddUnboundClaim(st);
      }
    }
    const int steps = Between(1, 20);
    for (int i = 0; i < steps; ++i) {
      AdvanceTime(st);
      StepStorage(st);
    }
    return WideScenario{std::move(st.out)};
  });
}

}  // namespace schedcheck::generators
