#include "harness/generators/wide_generators.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <set>
#include <utility>

#include "google/protobuf/struct.pb.h"
#include "harness/generators/draws.h"
#include "harness/replay/replayer.h"
#include "reference/k8s/k8s_json.h"
#include "reference/runtime/profile.h"

namespace schedcheck::generators {
namespace {

constexpr int64_t kNanos = 1000LL * 1000 * 1000;
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kHostname[] = "kubernetes.io/hostname";
constexpr char kNsNameLabel[] = "kubernetes.io/metadata.name";
constexpr char kFoo[] = "example.com/foo";

using draws::Between;
using draws::Chance;
using draws::Index;
using draws::Pick;
using draws::PickStr;
using draws::Uniform;

// --- vocabularies ---------------------------------------------------------------------------

const std::vector<std::string> kNamespaceNames = {"default", "other", "team-a"};
const std::vector<std::string> kApps = {"web", "db", "cache", ""};  // "" is a valid label value
const std::vector<std::string> kZones = {"zone-a", "zone-b", "zone-c"};
// Valid label values that look odd (63 characters is the limit).
const std::string k63(63, 'v');
// Values labels.NewRequirement rejects (not label values), which the API server still accepts in
// node selector requirements: it validates only their keys.
const std::vector<std::string> kInvalidLabelValues = {
    "has space", std::string(64, 'x'), "-leading", "trailing-", "a/b", "caf\xc3\xa9"};
// Gt/Lt values: integers, non-integers, and integers that are not label values ("-1", "+5"),
// which labels.NewRequirement also rejects.
const std::vector<std::string> kNumericBounds = {
    "3", "0", "10", "007", "abc", "1.5", "-1", "+5", "99999999999999999999"};
const std::vector<std::string> kRanks = {"1", "5", "10", "007", "abc", "", "99999999999999999999"};

// A PriorityClass as the generator knows it.
struct ClassDef {
  std::string name;
  int32_t value;
  bool never;           // preemptionPolicy: Never
  bool global_default;  // at most one live class has it
  bool builtin;         // system-* classes exist in every cluster; never in the trace
};
const std::vector<ClassDef> kClasses = {
    {"low", 10, false, false, false},
    {"high", 1000, false, false, false},
    {"high-never", 1000, true, false, false},
    {"critical", 100000, false, false, false},
    {"default-prio", 5, false, true, false},
    {"system-node-critical", 2000001000, false, false, true},
};

// --- quantities ------------------------------------------------------------------------------

// Every spelling below is accepted by resource.ParseQuantity and by validation (non-negative).
// "frac": not a whole number of the unit the scheduler counts in (millicpu, bytes). A pod's
// containers plus overhead hold at most one of those per resource: the reference rounds each
// quantity up before summing, upstream sums exactly and rounds once (docs/DEVIATIONS.md
// "Quantities").
struct Q {
  std::string text;
  bool frac;
};
const std::vector<Q> kCpu = {{"0", false},     {"1m", false},  {"100m", false}, {"250m", false},
                             {"0.1", false},   {".25", false}, {"0.5", false},  {"1", false},
                             {"1.5", false},   {"2e0", false}, {"1e-1", false}, {"+200m", false},
                             {"1500m", false}, {"0.0", false}, {"0.5m", true},  {"500u", true},
                             {"1e-4", true},   {"100n", true}, {"100k", false}};
const std::vector<Q> kMemory = {
    {"0", false},       {"1", false},     {"1k", false},  {"1e3", false},   {"128Mi", false},
    {"0.125Gi", false}, {"100M", false},  {"1e8", false}, {"512Mi", false}, {"1Gi", false},
    {"1.5Gi", false},   {"2.5Ki", false}, {"1G", false},  {"0.1Gi", true},  {"1.5", true},
    {"0.3Ki", true},    {"1Ti", false}};
const std::vector<Q> kStorage = {{"0", false}, {"1Gi", false}, {"500M", false}, {"2e9", false}};

struct FracBudget {
  bool cpu = false;
  bool memory = false;
};

// Picks from `values`, skipping fractional ones once the budget for that resource is spent.
std::string PickQuantity(const std::vector<Q>& values, bool* frac_used) {
  std::vector<Q> allowed;
  for (const Q& q : values) {
    if (!(q.frac && frac_used != nullptr && *frac_used)) allowed.push_back(q);
  }
  Q q = Pick(allowed);
  if (q.frac && frac_used != nullptr) *frac_used = true;
  return q.text;
}

// --- pods ------------------------------------------------------------------------------------

std::string OddValidLabelValue() { return PickStr({"v1.0", "A_1", k63, "x", "0"}); }

void SetLabels(k8s::ObjectMeta* meta) {
  auto& labels = *meta->mutable_labels();
  labels.clear();
  if (Chance(85)) labels["app"] = PickStr(kApps);
  if (Chance(40)) labels["tier"] = PickStr({"front", "back"});
  if (Chance(15)) labels["version"] = OddValidLabelValue();
}

// A container's resources: requests only, limits only (the API server copies them into
// requests), or both (equal, so requests <= limits holds). Extended resources need requests =
// limits, whole numbers.
void SetResources(k8s::Container* c, FracBudget* budget, bool count_in_sum) {
  auto* res = c->mutable_resources();
  std::map<std::string, std::string> values;
  if (Chance(85)) values["cpu"] = PickQuantity(kCpu, count_in_sum ? &budget->cpu : nullptr);
  if (Chance(75))
    values["memory"] = PickQuantity(kMemory, count_in_sum ? &budget->memory : nullptr);
  if (Chance(15)) values["ephemeral-storage"] = PickQuantity(kStorage, nullptr);
  const int mode = Between(0, 99);  // < 70 requests only, < 85 limits only, else both
  for (const auto& [name, text] : values) {
    if (mode < 70) {
      (*res->mutable_requests())[name] = text;
    } else if (mode < 85) {
      (*res->mutable_limits())[name] = text;
    } else {
      (*res->mutable_requests())[name] = text;
      (*res->mutable_limits())[name] = text;
    }
  }
  if (Chance(10)) {
    std::string n = PickStr({"0", "1", "2"});
    (*res->mutable_limits())[kFoo] = n;
    if (Chance(50)) (*res->mutable_requests())[kFoo] = n;
  }
}

// `newer_fields`: also fields newer schedulers read (compat 1.37): sidecar (restartable init)
// containers, whose requests add to the sum, and pod-level requests, which replace the
// containers' aggregate (at least that aggregate, as validation requires).
void AddContainers(k8s::PodSpec* spec, bool newer_fields = false) {
  FracBudget budget;
  const int n = Between(1, 3);
  std::set<std::pair<std::string, int32_t>> host_ports;  // (protocol, hostPort) unique per pod
  for (int i = 0; i < n; ++i) {
    k8s::Container* c = spec->add_containers();
    c->set_name("c" + std::to_string(i));
    // Untagged names count as ":latest" (ImageLocality's normalizedImageName), also behind a
    // registry with a port.
    c->set_image(PickStr({"img-a:1", "img-b:1", "img-c:1", "registry.local/img-a:1", "img-d",
                          "registry.local:5000/img-e"}));
    SetResources(c, &budget, true);
    if (Chance(8)) {
      const int32_t host_port = Pick<int32_t>({8080, 9090});
      std::string protocol = PickStr({"", "TCP", "UDP", "SCTP"});
      if (host_ports.insert({protocol.empty() ? "TCP" : protocol, host_port}).second) {
        k8s::ContainerPort* p = c->add_ports();
        p->set_container_port(Pick<int32_t>({80, 53}));
        p->set_host_port(host_port);
        if (!protocol.empty()) p->set_protocol(protocol);
        p->set_host_ip(PickStr({"", "", "0.0.0.0", "127.0.0.1", "10.0.0.1"}));
      }
    }
    if (Chance(10)) {
      // A port without hostPort: not a host port at all.
      k8s::ContainerPort* p = c->add_ports();
      p->set_container_port(8080);
    }
  }
  if (newer_fields && Chance(15)) {
    k8s::Container* sidecar = spec->add_init_containers();
    sidecar->set_name("sidecar");
    sidecar->set_image("img-b:1");
    sidecar->set_restart_policy("Always");
    SetResources(sidecar, &budget, true);  // a sidecar runs alongside: its requests add up
  }
  if (Chance(20)) {
    k8s::Container* init = spec->add_init_containers();
    init->set_name("init");
    init->set_image("img-a:1");
    SetResources(init, &budget, false);  // init containers take a max, not a sum
  }
  if (newer_fields && Chance(10)) {
    // Features NodeDeclaredFeatures infers (v1.37): a container rule restarting every container,
    // a bind mount with options.
    k8s::Container* c = spec->mutable_containers(0);
    if (Chance(50)) {
      c->add_restart_policy_rules()->set_action(PickStr({"RestartAllContainers", "Restart"}));
    } else {
      k8s::VolumeMount* m = c->add_volume_mounts();
      m->set_name("data");
      m->set_mount_path("/data");
      m->add_bind_mount_options(PickStr({"ro", "nosuid"}));
    }
  }
  if (newer_fields && Chance(12)) {
    auto& requests = *spec->mutable_resources()->mutable_requests();
    requests["cpu"] = PickStr({"4", "6"});  // above any aggregate the containers here reach
    if (Chance(60)) requests["memory"] = PickStr({"8Gi", "12Gi"});
  }
  if (Chance(10)) {
    // Overhead comes from a RuntimeClass (admission refuses it otherwise); it adds to the sum.
    spec->set_runtime_class_name("kata");
    auto& overhead = *spec->mutable_overhead();
    overhead["cpu"] = PickQuantity({{"100m", false}, {"0.25", false}, {"0.5m", true}}, &budget.cpu);
    if (Chance(50))
      overhead["memory"] = PickQuantity({{"64Mi", false}, {"0.1Gi", true}}, &budget.memory);
  }
}

std::vector<std::string> ValuesFor(const std::string& key) {
  if (key == kZone) return kZones;
  if (key == "disk") return {"ssd", "hdd", ""};
  if (key == "rank") return kRanks;
  if (key == kHostname) return {"n0", "n1", "n2"};
  return {"x", ""};
}

k8s::NodeSelectorRequirement NodeRequirement() {
  k8s::NodeSelectorRequirement r;
  r.set_key(PickStr({kZone, "disk", "rank", kHostname, "missing-key"}));
  r.set_operator_(PickStr({"In", "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}));
  const std::string& op = r.operator_();
  if (op == "In" || op == "NotIn") {
    const int n = Between(1, 3);
    std::vector<std::string> pool = ValuesFor(r.key());
    for (int i = 0; i < n; ++i) r.add_values(PickStr(pool));
    if (Chance(20)) r.add_values(PickStr(kInvalidLabelValues));
  } else if (op == "Gt" || op == "Lt") {
    r.set_key(Chance(80) ? "rank" : r.key());
    r.add_values(PickStr(kNumericBounds));
  }
  return r;
}

// A node selector term: 0 (rarely: an empty term matches nothing) to 3 expressions, duplicate
// keys allowed, sometimes a metadata.name field requirement (validation: In/NotIn, one value, a
// node name).
// `name_in`: the term may pin a node with "metadata.name In". A pod's required terms get at most
// one such field: the PreFilterResult they make then names at most one node, so a missing one is
// the same for both builds (docs/DEVIATIONS.md "PreFilterResult node order": upstream names a
// random one of several missing nodes).
k8s::NodeSelectorTerm NodeTerm(bool name_in = true) {
  k8s::NodeSelectorTerm t;
  const int n = Chance(5) ? 0 : Between(1, 3);
  for (int i = 0; i < n; ++i) *t.add_match_expressions() = NodeRequirement();
  if (Chance(10)) {
    k8s::NodeSelectorRequirement* f = t.add_match_fields();
    f->set_key("metadata.name");
    f->set_operator_(name_in ? PickStr({"In", "NotIn"}) : "NotIn");
    f->add_values(PickStr({"n0", "n1", "n2", "n9"}));
  }
  return t;
}

void AddNodeConstraints(k8s::PodSpec* spec) {
  if (Chance(10)) {
    auto& sel = *spec->mutable_node_selector();
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      std::string key = PickStr({"disk", kZone, "rank"});
      sel[key] = PickStr(ValuesFor(key) == kRanks ? std::vector<std::string>{"5", "1", ""}
                                                  : ValuesFor(key));
    }
  }
  if (Chance(12)) {
    auto* req = spec->mutable_affinity()
                    ->mutable_node_affinity()
                    ->mutable_required_during_scheduling_ignored_during_execution();
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) *req->add_node_selector_terms() = NodeTerm(/*name_in=*/i == 0);
  }
  if (Chance(20)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      k8s::PreferredSchedulingTerm* p =
          spec->mutable_affinity()
              ->mutable_node_affinity()
              ->add_preferred_during_scheduling_ignored_during_execution();
      p->set_weight(Between(1, 100));
      *p->mutable_preference() = NodeTerm();
    }
  }
  if (Chance(30)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      k8s::Toleration* t = spec->add_tolerations();
      switch (Between(0, 4)) {
        case 0:
          t->set_key("dedicated");
          t->set_operator_(PickStr({"Equal", ""}));
          t->set_value(PickStr({"a", "b"}));
          t->set_effect(PickStr({"", "NoSchedule", "PreferNoSchedule", "NoExecute"}));
          if (t->effect() == "NoExecute" && Chance(50))
            t->set_toleration_seconds(Pick<int64_t>({0, 60}));
          break;
        case 1:
          t->set_operator_("Exists");  // empty key with Exists tolerates everything
          if (Chance(50)) t->set_effect(PickStr({"NoSchedule", "PreferNoSchedule"}));
          break;
        case 2:
          t->set_key("dedicated");
          t->set_operator_("Exists");
          break;
        case 3:
          t->set_key("node.kubernetes.io/unschedulable");
          t->set_operator_("Exists");
          t->set_effect("NoSchedule");
          break;
        default:
          t->set_key("gpu");
          t->set_operator_("Equal");
          t->set_value("");
          t->set_effect(PickStr({"", "NoSchedule"}));
      }
    }
  }
}

// A label selector for pod affinity, spread constraints or PDBs: validated on create, so only
// label values; duplicate keys, "" values, Exists/DoesNotExist, empty selectors.
k8s::LabelSelector ValidSelector() {
  k8s::LabelSelector sel;
  if (Chance(10)) return sel;  // {}: matches everything
  if (Chance(60)) (*sel.mutable_match_labels())["app"] = PickStr(kApps);
  if (sel.match_labels().empty() || Chance(30)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      k8s::LabelSelectorRequirement* r = sel.add_match_expressions();
      r->set_key(PickStr({"app", "app", "tier"}));
      r->set_operator_(PickStr({"In", "NotIn", "Exists", "DoesNotExist"}));
      if (r->operator_() == "In" || r->operator_() == "NotIn") {
        const int v = Between(1, 2);
        for (int j = 0; j < v; ++j)
          r->add_values(r->key() == "app" ? PickStr(kApps) : PickStr({"front", "back"}));
      }
    }
  }
  return sel;
}

k8s::PodAffinityTerm AffinityTerm() {
  k8s::PodAffinityTerm t;
  if (!Chance(8)) *t.mutable_label_selector() = ValidSelector();  // absent: matches no pod
  t.set_topology_key(PickStr({kHostname, kHostname, kZone, "disk", "rack"}));
  if (Chance(25)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i)
      t.add_namespaces(PickStr({"default", "other", "team-a", "ghost-ns"}));
  }
  if (Chance(25)) {
    k8s::LabelSelector* ns = t.mutable_namespace_selector();
    switch (Between(0, 3)) {
      case 0:
        break;  // {}: every namespace
      case 1:
        (*ns->mutable_match_labels())["env"] = PickStr({"prod", "dev"});
        break;
      case 2: {
        k8s::LabelSelectorRequirement* r = ns->add_match_expressions();
        r->set_key("team");
        r->set_operator_(PickStr({"In", "NotIn", "Exists", "DoesNotExist"}));
        if (r->operator_() == "In" || r->operator_() == "NotIn")
          r->add_values(PickStr({"x", "y", ""}));
        break;
      }
      default:
        (*ns->mutable_match_labels())[kNsNameLabel] = PickStr(kNamespaceNames);
    }
  }
  return t;
}

void AddPodConstraints(k8s::PodSpec* spec) {
  if (Chance(12)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      *spec->mutable_affinity()
           ->mutable_pod_anti_affinity()
           ->add_required_during_scheduling_ignored_during_execution() = AffinityTerm();
    }
  }
  if (Chance(6)) {
    *spec->mutable_affinity()
         ->mutable_pod_affinity()
         ->add_required_during_scheduling_ignored_during_execution() = AffinityTerm();
  }
  if (Chance(20)) {
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      k8s::WeightedPodAffinityTerm* w =
          Chance(50) ? spec->mutable_affinity()
                           ->mutable_pod_affinity()
                           ->add_preferred_during_scheduling_ignored_during_execution()
                     : spec->mutable_affinity()
                           ->mutable_pod_anti_affinity()
                           ->add_preferred_during_scheduling_ignored_during_execution();
      w->set_weight(Between(1, 100));
      *w->mutable_pod_affinity_term() = AffinityTerm();
    }
  }
  if (Chance(18)) {
    // Distinct {topologyKey, whenUnsatisfiable} pairs (validation).
    std::set<std::pair<std::string, std::string>> seen;
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      std::string key = Chance(10) ? "rack" : PickStr({kZone, kHostname});  // no node has "rack"
      std::string when = Chance(50) ? "DoNotSchedule" : "ScheduleAnyway";
      if (!seen.insert({key, when}).second) continue;
      k8s::TopologySpreadConstraint* c = spec->add_topology_spread_constraints();
      c->set_max_skew(Between(1, 3));
      c->set_topology_key(key);
      c->set_when_unsatisfiable(when);
      if (!Chance(8)) *c->mutable_label_selector() = ValidSelector();  // absent: counts no pod
      if (when == "DoNotSchedule" && Chance(20)) c->set_min_domains(Between(1, 4));
      if (Chance(20)) c->set_node_affinity_policy(PickStr({"Honor", "Ignore"}));
      if (Chance(20)) c->set_node_taints_policy(PickStr({"Honor", "Ignore"}));
      if (c->has_label_selector() && Chance(20)) {
        // matchLabelKeys: label names not among the selector's keys (validation).
        std::set<std::string> used;
        for (const auto& [k, v] : c->label_selector().match_labels()) used.insert(k);
        for (const auto& r : c->label_selector().match_expressions()) used.insert(r.key());
        for (const char* k : {"tier", "version"}) {
          if (!used.count(k)) {
            c->add_match_label_keys(k);
            break;
          }
        }
      }
    }
  }
}

}  // namespace

// --- the scenario state ----------------------------------------------------------------------

namespace {

struct GenPod {
  k8s::Pod pod;
  bool bound = false;     // created with spec.nodeName (the generator's view)
  bool finished = false;  // terminal or terminating: only a delete follows
};

struct State {
  int64_t t = 0;
  int64_t rv = 0;
  std::vector<GenPod> pods;
  std::vector<k8s::Node> nodes;
  std::vector<std::string> deleted_nodes;
  std::map<std::string, k8s::Namespace> namespaces;
  std::vector<ClassDef> classes;  // live classes created by the trace, plus the built-in ones
  std::vector<k8s::PodDisruptionBudget> pdbs;
  int next_pod = 0;
  int next_node = 0;
  int next_pdb = 0;
  std::vector<trace::Record> out;
  bool preemption_heavy = false;
  bool newer_fields = false;  // WideScenarioGen(true): fields of newer releases
};

trace::Record& Emit(State& st, trace::EventType type) {
  trace::Record r;
  r.set_time_ns(st.t * kNanos);
  r.mutable_api()->set_type(type);
  // Some events arrive while the instant's first scheduling cycle is in flight
  // (docs/FORMATS.md#replay-conventions:
  // delivered after its filtering, before its failure is requeued or its binding applied), so
  // that move requests overlap attempts.
  if (st.t > 0 && Chance(12)) r.mutable_api()->set_during_attempt(true);
  st.out.push_back(std::move(r));
  return st.out.back();
}

std::string NextRv(State& st) { return std::to_string(++st.rv); }

// A timestamp `second` seconds after the instant the replays' virtual t = 0 stands for (their
// epoch, the Unix epoch: the traces carry no start_time label), negative for before the trace.
// Start times are in the past of the moment they are written, as a kubelet writes them (a few
// are a little in the future: a kubelet whose clock runs ahead of the scheduler's).
std::string StartTime(int64_t second) {
  const time_t t = static_cast<time_t>(second);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void EmitPod(State& st, trace::EventType type, k8s::Pod& pod) {
  pod.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_pod() = pod;
}

void EmitNode(State& st, trace::EventType type, k8s::Node& node) {
  node.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_node() = node;
}

void EmitNamespace(State& st, trace::EventType type, k8s::Namespace& ns) {
  ns.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_namespace_() = ns;
}

void EmitPdb(State& st, trace::EventType type, k8s::PodDisruptionBudget& pdb) {
  pdb.mutable_metadata()->set_resource_version(NextRv(st));
  *Emit(st, type).mutable_api()->mutable_pod_disruption_budget() = pdb;
}

void EmitClass(State& st, trace::EventType type, const ClassDef& c) {
  k8s::PriorityClass pc;
  pc.set_api_version("scheduling.k8s.io/v1");
  pc.set_kind("PriorityClass");
  pc.mutable_metadata()->set_name(c.name);
  pc.mutable_metadata()->set_resource_version(NextRv(st));
  pc.set_value(c.value);
  pc.set_global_default(c.global_default);
  pc.set_preemption_policy(c.never ? "Never" : "PreemptLowerPriority");
  *Emit(st, type).mutable_api()->mutable_priority_class() = pc;
}

const ClassDef* LiveDefaultClass(const State& st) {
  for (const ClassDef& c : st.classes) {
    if (c.global_default) return &c;
  }
  return nullptr;
}

// Priority as Priority admission leaves it. Mostly the admitted object (spec.priority,
// spec.preemptionPolicy and, for the global default, spec.priorityClassName written); sometimes
// the object as the client wrote it (no priority), which both replays admit themselves — only for
// classes whose preemptionPolicy is PreemptLowerPriority: the reference's replay copies a class's
// preemptionPolicy into the pod as the admission plugin does, the kube adapter does not (an
// adapter gap, see the report; harness/replay admission_test pins the reference).
void SetPriority(State& st, k8s::PodSpec* spec, const std::vector<std::string>& prefer = {},
                 bool allow_unnamed = true) {
  // Draw an index, never a pointer: RapidCheck replays earlier draws' values while shrinking.
  std::vector<int> choices;
  if (allow_unnamed) choices.push_back(-1);
  for (size_t i = 0; i < st.classes.size(); ++i) {
    const std::string& name = st.classes[i].name;
    if (prefer.empty() || std::find(prefer.begin(), prefer.end(), name) != prefer.end()) {
      choices.push_back(static_cast<int>(i));
    }
  }
  const int choice = choices.empty() ? -1 : Pick(choices);
  const ClassDef* c =
      choice < 0 || choice >= static_cast<int>(st.classes.size()) ? nullptr : &st.classes[choice];
  const bool unnamed = c == nullptr;
  if (unnamed) c = LiveDefaultClass(st);
  const bool admitted = Chance(85) || (c != nullptr && (c->never || c->builtin));
  if (!admitted) {
    if (!unnamed) spec->set_priority_class_name(c->name);
    return;
  }
  if (c == nullptr) {
    spec->set_priority(0);
  } else {
    spec->set_priority_class_name(c->name);
    spec->set_priority(c->value);
  }
  spec->set_preemption_policy(c != nullptr && c->never ? "Never" : "PreemptLowerPriority");
}

// A host-network pod (a node agent): the API makes its container ports host ports, and requires a
// hostPort, when given, to equal its containerPort; one port, so that ports stay unique per pod.
void MakeHostNetwork(k8s::PodSpec* spec) {
  spec->set_host_network(true);
  for (k8s::Container& c : *spec->mutable_containers()) c.clear_ports();
  for (k8s::Container& c : *spec->mutable_init_containers()) c.clear_ports();
  k8s::ContainerPort* p = spec->mutable_containers(0)->add_ports();
  p->set_container_port(Pick<int32_t>({9100, 8080}));
  if (Chance(50)) p->set_host_port(p->container_port());
}

k8s::Pod NewPod(State& st, bool allow_gates) {
  k8s::Pod pod;
  const std::string name = "p" + std::to_string(st.next_pod++);
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_namespace_(Chance(60) ? "default" : PickStr({"other", "team-a"}));
  pod.mutable_metadata()->set_uid("uid-" + name);
  pod.mutable_metadata()->set_creation_timestamp(StartTime(st.t));
  SetLabels(pod.mutable_metadata());
  if (Chance(20))
    (*pod.mutable_metadata()->mutable_annotations())["note"] = "any text: even spaces";
  k8s::PodSpec* spec = pod.mutable_spec();
  AddContainers(spec, st.newer_fields);
  if (Chance(6)) MakeHostNetwork(spec);
  AddNodeConstraints(spec);
  AddPodConstraints(spec);
  SetPriority(st, spec);
  const int sched = Between(0, 99);
  if (sched < 10) {
    spec->set_scheduler_name("default-scheduler");
  } else if (sched < 14) {
    spec->set_scheduler_name("other-scheduler");  // not ours: only counts once bound
  }
  if (allow_gates && Chance(10)) spec->add_scheduling_gates()->set_name("example.com/gate");
  pod.mutable_status()->set_phase("Pending");
  if (Chance(5)) {
    // A nomination an earlier scheduler instance wrote (the pod is seen again after a restart).
    std::vector<std::string> names = {"n9"};
    for (const k8s::Node& n : st.nodes) names.push_back(n.metadata().name());
    pod.mutable_status()->set_nominated_node_name(PickStr(names));
  }
  return pod;
}

// A terminating pod's DisruptionTarget condition, sometimes: written by a scheduler that is
// preempting it (the one preemption's eligibility check waits for), or by the kubelet.
void AddDisruptionCondition(k8s::Pod* pod) {
  if (!Chance(60)) return;
  k8s::PodCondition* c = pod->mutable_status()->add_conditions();
  c->set_type("DisruptionTarget");
  c->set_status(Chance(85) ? "True" : "False");
  c->set_reason(Chance(75) ? "PreemptionByScheduler" : "TerminationByKubelet");
}

// A pod someone else bound (a DaemonSet's, a static pod, another scheduler's): nodeName set at
// creation, often running with a start time.
void MarkBound(State& st, k8s::Pod* pod) {
  std::vector<std::string> names;
  for (const k8s::Node& n : st.nodes) names.push_back(n.metadata().name());
  for (const std::string& n : st.deleted_nodes) names.push_back(n);
  if (names.empty() || Chance(5)) names.push_back("ghost-node");  // never registered
  pod->mutable_spec()->set_node_name(PickStr(names));
  pod->mutable_spec()->clear_scheduling_gates();
  if (Chance(75)) {
    pod->mutable_status()->set_phase("Running");
    pod->mutable_status()->set_start_time(StartTime(st.t - Between(0, 5) + (Chance(5) ? 30 : 0)));
  }
  if (st.newer_fields && Chance(20) && pod->spec().containers_size() > 0) {
    // An in-place resize the kubelet allocated (and maybe actuated): newer schedulers count the
    // larger of spec, allocated and actuated requests.
    k8s::ContainerStatus* cs = pod->mutable_status()->add_container_statuses();
    cs->set_name(pod->spec().containers(0).name());
    (*cs->mutable_allocated_resources())["cpu"] = PickStr({"100m", "1", "2"});
    if (Chance(50))
      (*cs->mutable_resources()->mutable_requests())["cpu"] = PickStr({"50m", "1500m"});
  }
  if (st.newer_fields && pod->spec().has_resources() &&
      !pod->spec().resources().requests().empty() && Chance(60)) {
    // A pod-level resize (InPlacePodLevelResourcesVerticalScaling): allocated and actuated
    // pod-level requests, counted when both are there.
    k8s::PodStatus* status = pod->mutable_status();
    (*status->mutable_allocated_resources())["cpu"] = PickStr({"2", "8"});
    (*status->mutable_resources()->mutable_requests())["cpu"] = PickStr({"3", "8"});
  }
}

k8s::Node NewNode(State& st, const std::string& name) {
  k8s::Node node;
  node.mutable_metadata()->set_name(name);
  node.mutable_metadata()->set_uid("uid-" + name + "-" + std::to_string(st.rv));
  auto& labels = *node.mutable_metadata()->mutable_labels();
  labels[kHostname] = name;
  if (Chance(85)) labels[kZone] = PickStr(kZones);
  if (Chance(50)) labels["disk"] = PickStr({"ssd", "hdd", ""});
  if (Chance(30)) labels["rank"] = PickStr(kRanks);
  auto& alloc = *node.mutable_status()->mutable_allocatable();
  if (st.preemption_heavy) {
    alloc["cpu"] = PickStr({"1", "2", "1500m"});
    alloc["memory"] = PickStr({"2Gi", "2048Mi", "1.5Gi"});
    alloc["pods"] = PickStr({"3", "4", "110"});
  } else {
    // Large values stay within int64 in the scheduler's units and in its score arithmetic
    // ((allocatable - requested) * 100): beyond, docs/DEVIATIONS.md "Quantities beyond int64".
    alloc["cpu"] = PickStr({"1", "2", "4", "3500m", "1.5", "0.5", "1e1", "64", "1e6"});
    alloc["memory"] = PickStr({"1Gi", "4Gi", "4096Mi", "3.5Gi", "4e9", "1G", "8Gi", "1Ti", "1Pi"});
    alloc["pods"] = Chance(3) ? "0" : PickStr({"2", "3", "110", "110"});
  }
  if (Chance(95)) alloc["ephemeral-storage"] = PickStr({"10Gi", "1e10", "1G"});
  if (Chance(20)) alloc[kFoo] = PickStr({"0", "1", "4"});
  *node.mutable_status()->mutable_capacity() = alloc;
  if (Chance(10)) node.mutable_status()->clear_allocatable();  // the API server copies capacity
  if (st.newer_fields && Chance(50)) {
    // The features the kubelet declares (v1.35+), sorted as the kubelet writes them.
    for (const char* f : {"InPlacePodVerticalScalingInitContainers",
                          "RestartAllContainersOnContainerExits", "VolumeBindMountOptions"}) {
      if (Chance(60)) node.mutable_status()->add_declared_features(f);
    }
  }
  if (Chance(st.preemption_heavy ? 8 : 20)) {
    std::set<std::pair<std::string, std::string>> seen;  // (key, effect) unique (validation)
    const int n = Between(1, 2);
    for (int i = 0; i < n; ++i) {
      k8s::Taint t;
      switch (Between(0, 4)) {
        case 0:
          t.set_key("dedicated"), t.set_value("a"), t.set_effect("NoSchedule");
          break;
        case 1:
          t.set_key("dedicated"), t.set_value("b"), t.set_effect("PreferNoSchedule");
          break;
        case 2:
          t.set_key("gpu"), t.set_effect("NoSchedule");
          break;
        case 3:
          t.set_key("dedicated"), t.set_value("a"), t.set_effect("NoExecute");
          t.set_time_added(StartTime(st.t - 60));
          break;
        default:
          t.set_key("node.kubernetes.io/unschedulable"), t.set_effect("NoSchedule");
      }
      if (seen.insert({t.key(), t.effect()}).second) *node.mutable_spec()->add_taints() = t;
    }
  }
  if (Chance(5)) node.mutable_spec()->set_unschedulable(true);
  k8s::NodeCondition* ready = node.mutable_status()->add_conditions();
  ready->set_type("Ready");
  ready->set_status(Chance(85) ? "True" : PickStr({"False", "Unknown"}));
  for (const char* image : {"img-a:1", "img-b:1", "registry.local/img-a:1", "img-d:latest",
                            "registry.local:5000/img-e:latest"}) {
    if (!Chance(35)) continue;
    k8s::ContainerImage* img = node.mutable_status()->add_images();
    img->add_names(image);
    if (Chance(30)) img->add_names(std::string(image) + "@sha256:0123");
    img->set_size_bytes(Pick<int64_t>({100LL << 20, 800LL << 20, 2000LL << 20}));
  }
  return node;
}

k8s::Namespace NewNamespace(const std::string& name) {
  k8s::Namespace ns;
  ns.set_api_version("v1");
  ns.set_kind("Namespace");
  ns.mutable_metadata()->set_name(name);
  auto& labels = *ns.mutable_metadata()->mutable_labels();
  labels[kNsNameLabel] = name;
  if (Chance(60)) labels["env"] = PickStr({"prod", "dev"});
  if (Chance(40)) labels["team"] = PickStr({"x", "y", ""});
  return ns;
}

google::protobuf::Value IntOrPercent() {
  google::protobuf::Value v;
  if (Chance(70)) {
    v.set_number_value(Between(0, 3));
  } else {
    v.set_string_value(PickStr({"50%", "100%", "0%"}));
  }
  return v;
}

k8s::PodDisruptionBudget NewPdb(State& st) {
  k8s::PodDisruptionBudget pdb;
  pdb.set_api_version("policy/v1");
  pdb.set_kind("PodDisruptionBudget");
  pdb.mutable_metadata()->set_name("pdb" + std::to_string(st.next_pdb++));
  pdb.mutable_metadata()->set_namespace_(Chance(75) ? "default" : "other");
  const int sel = Between(0, 99);
  if (sel < 10) {
    // no selector: selects no pod
  } else if (sel < 20) {
    pdb.mutable_spec()->mutable_selector();  // {}: all pods (the scheduler skips empty selectors)
  } else {
    *pdb.mutable_spec()->mutable_selector() = ValidSelector();
  }
  if (Chance(50)) {
    *pdb.mutable_spec()->mutable_min_available() = IntOrPercent();
  } else {
    *pdb.mutable_spec()->mutable_max_unavailable() = IntOrPercent();
  }
  pdb.mutable_status()->set_disruptions_allowed(Between(0, 2));
  pdb.mutable_status()->set_current_healthy(Between(0, 4));
  pdb.mutable_status()->set_desired_healthy(Between(0, 4));
  pdb.mutable_status()->set_expected_pods(Between(0, 4));
  if (Chance(20) && !st.pods.empty()) {
    const GenPod& p = Pick(st.pods);
    (*pdb.mutable_status()->mutable_disrupted_pods())[p.pod.metadata().name()] = StartTime(st.t);
  }
  return pdb;
}

// --- steps -----------------------------------------------------------------------------------

void StepPodAdd(State& st, bool bound) {
  GenPod p{NewPod(st, !bound), bound, false};
  if (bound) MarkBound(st, &p.pod);
  EmitPod(st, trace::ADDED, p.pod);
  st.pods.push_back(std::move(p));
}

std::vector<size_t> PodIndexes(const State& st, bool bound) {
  std::vector<size_t> out;
  for (size_t i = 0; i < st.pods.size(); ++i) {
    if (st.pods[i].bound == bound && !st.pods[i].finished) out.push_back(i);
  }
  return out;
}

// An update of a pod the generator created pending (RealizeTrace adds the binding when the
// scheduler bound it meanwhile): metadata, images, added tolerations, removed gates, a
// nodeSelector addition while gated, or a status-only write.
void StepPendingPodUpdate(State& st) {
  std::vector<size_t> idx = PodIndexes(st, false);
  if (idx.empty()) return StepPodAdd(st, false);
  k8s::Pod& pod = st.pods[Pick(idx)].pod;
  k8s::PodSpec* spec = pod.mutable_spec();
  const bool gated = spec->scheduling_gates_size() > 0;
  // Not generated: a pending pod deleted while a finalizer keeps it (deletionTimestamp set, e.g.
  // a Job pod's batch.kubernetes.io/job-tracking). Both schedulers pop and skip it
  // (skipPodSchedule), but the kube adapter reports no inflight->none "Done" for the skip, which
  // the decision log's conventions (docs/DEVIATIONS.md "Queue transition labels") ask for: an
  // adapter gap, reported to its owner. Bound pods do become terminating below.
  switch (Between(0, 7)) {
    case 0:
      SetLabels(pod.mutable_metadata());
      break;
    case 1:
      (*pod.mutable_metadata()->mutable_annotations())["note"] = PickStr({"changed", "again", ""});
      break;
    case 2:
      spec->mutable_containers(0)->set_image(PickStr({"img-a:1", "img-b:1", "img-c:2"}));
      break;
    case 3: {
      k8s::Toleration* t = spec->add_tolerations();
      t->set_key(PickStr({"dedicated", "gpu"}));
      t->set_operator_("Exists");
      break;
    }
    case 4:
      if (gated) {
        spec->clear_scheduling_gates();
      } else {
        (*pod.mutable_metadata()->mutable_labels())["app"] = PickStr(kApps);
      }
      break;
    case 5:
      if (gated && !spec->node_selector().contains("disk")) {
        (*spec->mutable_node_selector())["disk"] = PickStr({"ssd", "hdd"});
      } else {
        (*pod.mutable_metadata()->mutable_labels())["tier"] = PickStr({"front", "back"});
      }
      break;
    default: {
      // Status only (as the status subresource writes it): a condition.
      pod.mutable_status()->clear_conditions();
      k8s::PodCondition* c = pod.mutable_status()->add_conditions();
      c->set_type(PickStr({"PodScheduled", "example.com/ready-gate"}));
      c->set_status(PickStr({"False", "True"}));
      c->set_reason(PickStr({"Unschedulable", "Testing"}));
      c->set_last_transition_time(StartTime(st.t));
    }
  }
  EmitPod(st, trace::MODIFIED, pod);
}

// An update of a pod created bound: labels, start time, terminating, terminal.
void StepBoundPodUpdate(State& st) {
  std::vector<size_t> idx = PodIndexes(st, true);
  if (idx.empty()) return StepPodAdd(st, true);
  GenPod& g = st.pods[Pick(idx)];
  k8s::Pod& pod = g.pod;
  switch (Between(0, 4)) {
    case 0:
    case 1:
      SetLabels(pod.mutable_metadata());
      break;
    case 2:
      pod.mutable_status()->set_phase("Running");
      pod.mutable_status()->set_start_time(StartTime(st.t));
      break;
    case 3:
      pod.mutable_metadata()->set_deletion_timestamp(StartTime(st.t + 30));
      AddDisruptionCondition(&pod);
      g.finished = true;
      break;
    default:
      pod.mutable_status()->set_phase(PickStr({"Succeeded", "Failed"}));
      g.finished = true;
  }
  EmitPod(st, trace::MODIFIED, pod);
}

void StepPodDelete(State& st) {
  if (st.pods.empty()) return StepPodAdd(st, false);
  const size_t i = Index(st.pods.size());
  EmitPod(st, trace::DELETED, st.pods[i].pod);
  st.pods.erase(st.pods.begin() + static_cast<long>(i));
}

void StepNodeAdd(State& st) {
  std::string name;
  if (!st.deleted_nodes.empty() && Chance(30)) {
    // A node re-registers under its old name; pods bound there may still exist.
    const size_t i = Index(st.deleted_nodes.size());
    name = st.deleted_nodes[i];
    st.deleted_nodes.erase(st.deleted_nodes.begin() + static_cast<long>(i));
  } else {
    name = "n" + std::to_string(st.next_node++);
  }
  k8s::Node node = NewNode(st, name);
  EmitNode(st, trace::ADDED, node);
  st.nodes.push_back(std::move(node));
}

void StepNodeUpdate(State& st) {
  if (st.nodes.empty()) return StepNodeAdd(st);
  k8s::Node& node = st.nodes[Index(st.nodes.size())];
  switch (Between(0, 7)) {
    case 0:
      if (node.spec().taints_size() > 0 && Chance(60)) {
        node.mutable_spec()->mutable_taints()->RemoveLast();
      } else {
        k8s::Taint t;
        t.set_key(PickStr({"dedicated", "gpu", "node.kubernetes.io/not-ready"}));
        t.set_value(t.key() == "dedicated" ? "a" : "");
        t.set_effect(PickStr({"NoSchedule", "NoExecute", "PreferNoSchedule"}));
        bool dup = false;
        for (const k8s::Taint& x : node.spec().taints())
          dup = dup || (x.key() == t.key() && x.effect() == t.effect());
        if (!dup) *node.mutable_spec()->add_taints() = t;
      }
      break;
    case 1:
      node.mutable_spec()->set_unschedulable(!node.spec().unschedulable());
      break;
    case 2: {
      auto& labels = *node.mutable_metadata()->mutable_labels();
      const int what = Between(0, 3);
      if (what == 0) labels["disk"] = PickStr({"ssd", "hdd", ""});
      if (what == 1) labels[kZone] = PickStr(kZones);
      if (what == 2) labels["rank"] = PickStr(kRanks);
      if (what == 3) labels.erase(PickStr({"disk", kZone, "rank"}));
      break;
    }
    case 3: {
      auto& alloc = *node.mutable_status()->mutable_allocatable();
      if (alloc.empty()) alloc = node.status().capacity();
      const int what = Between(0, 3);
      if (what == 0) alloc["cpu"] = PickStr({"1", "2", "4", "2500m", "0.5"});
      if (what == 1) alloc["memory"] = PickStr({"1Gi", "2Gi", "8Gi", "3.5Gi", "1e9"});
      if (what == 2) alloc["pods"] = PickStr({"1", "3", "110"});
      if (what == 3) alloc[kFoo] = PickStr({"0", "2"});
      break;
    }
    case 4: {
      node.mutable_status()->clear_conditions();
      k8s::NodeCondition* c = node.mutable_status()->add_conditions();
      c->set_type("Ready");
      c->set_status(PickStr({"True", "False", "Unknown"}));
      if (Chance(40)) {
        k8s::NodeCondition* m = node.mutable_status()->add_conditions();
        m->set_type("MemoryPressure");
        m->set_status(PickStr({"True", "False"}));
      }
      break;
    }
    case 5: {
      // A heartbeat: only the condition's times change.
      for (k8s::NodeCondition& c : *node.mutable_status()->mutable_conditions()) {
        c.set_last_heartbeat_time(StartTime(st.t));
      }
      break;
    }
    case 6: {
      k8s::ContainerImage* img = node.mutable_status()->add_images();
      img->add_names(PickStr({"img-c:1", "img-c:2"}));
      img->set_size_bytes(500LL << 20);
      break;
    }
    default:
      (*node.mutable_metadata()->mutable_annotations())["note"] = PickStr({"x", "y"});
  }
  EmitNode(st, trace::MODIFIED, node);
}

void StepNodeDelete(State& st) {
  if (st.nodes.size() <= 1) return StepNodeAdd(st);
  const size_t i = Index(st.nodes.size());
  EmitNode(st, trace::DELETED, st.nodes[i]);
  st.deleted_nodes.push_back(st.nodes[i].metadata().name());
  st.nodes.erase(st.nodes.begin() + static_cast<long>(i));
}

void StepNamespaceUpdate(State& st) {
  k8s::Namespace& ns = st.namespaces[PickStr(kNamespaceNames)];
  auto& labels = *ns.mutable_metadata()->mutable_labels();
  if (Chance(50)) {
    labels["env"] = PickStr({"prod", "dev"});
  } else if (labels.contains("team")) {
    labels.erase("team");
  } else {
    labels["team"] = PickStr({"x", "y", ""});
  }
  EmitNamespace(st, trace::MODIFIED, ns);
}

void StepPdb(State& st) {
  const int what = Between(0, 2);
  if (st.pdbs.empty() || what == 0) {
    k8s::PodDisruptionBudget pdb = NewPdb(st);
    EmitPdb(st, trace::ADDED, pdb);
    st.pdbs.push_back(std::move(pdb));
  } else if (what == 1) {
    k8s::PodDisruptionBudget& pdb = st.pdbs[Index(st.pdbs.size())];
    pdb.mutable_status()->set_disruptions_allowed(Between(0, 2));
    if (Chance(30)) pdb.mutable_status()->clear_disrupted_pods();
    EmitPdb(st, trace::MODIFIED, pdb);
  } else {
    const size_t i = Index(st.pdbs.size());
    EmitPdb(st, trace::DELETED, st.pdbs[i]);
    st.pdbs.erase(st.pdbs.begin() + static_cast<long>(i));
  }
}

// Whether a class change could reach a live pod that the replays admit themselves (a pod without
// spec.priority): the kube adapter admits such a pod again at each of its writes, from the
// classes of that moment, where the API server (and the reference's replay) keep what the pod's
// create admitted. Such changes are not generated while such a pod lives (see the report; an
// adapter gap). `global_default`: the class is, or would be, the global default.
bool ClassChangeReachesReplayAdmittedPods(const State& st, const std::string& name,
                                          bool global_default) {
  for (const GenPod& g : st.pods) {
    if (g.finished || g.pod.spec().has_priority()) continue;
    const std::string& named = g.pod.spec().priority_class_name();
    if (named == name || (named.empty() && global_default)) return true;
  }
  return false;
}

void StepPriorityClass(State& st) {
  std::vector<ClassDef> missing;
  for (const ClassDef& c : kClasses) {
    bool live = false;
    for (const ClassDef& l : st.classes) live = live || l.name == c.name;
    if (!live && !c.builtin && !ClassChangeReachesReplayAdmittedPods(st, c.name, c.global_default))
      missing.push_back(c);
  }
  std::vector<size_t> deletable;
  for (size_t i = 0; i < st.classes.size(); ++i) {
    const ClassDef& c = st.classes[i];
    if (!c.builtin && !ClassChangeReachesReplayAdmittedPods(st, c.name, c.global_default))
      deletable.push_back(i);
  }
  if (!missing.empty() && (deletable.empty() || Chance(50))) {
    ClassDef c = Pick(missing);
    EmitClass(st, trace::ADDED, c);
    st.classes.push_back(c);
  } else if (!deletable.empty()) {
    const size_t i = Pick(deletable);
    EmitClass(st, trace::DELETED, st.classes[i]);
    st.classes.erase(st.classes.begin() + static_cast<long>(i));
  }
}

void StepWide(State& st) {
  const int kind = Between(0, 99);
  if (kind < 30) return StepPodAdd(st, false);
  if (kind < 36) return StepPodAdd(st, true);
  if (kind < 50) return StepPendingPodUpdate(st);
  if (kind < 56) return StepBoundPodUpdate(st);
  if (kind < 64) return StepPodDelete(st);
  if (kind < 70) return StepNodeAdd(st);
  if (kind < 82) return StepNodeUpdate(st);
  if (kind < 85) return StepNodeDelete(st);
  if (kind < 89) return StepNamespaceUpdate(st);
  if (kind < 95) return StepPdb(st);
  return StepPriorityClass(st);
}

void Begin(State& st, const std::vector<std::string>& class_names) {
  for (const std::string& name : kNamespaceNames) {
    k8s::Namespace ns = NewNamespace(name);
    EmitNamespace(st, trace::ADDED, ns);
    st.namespaces[name] = ns;
  }
  for (const ClassDef& c : kClasses) {
    if (c.builtin) {
      st.classes.push_back(c);
      continue;
    }
    if (std::find(class_names.begin(), class_names.end(), c.name) == class_names.end() ||
        Chance(20))
      continue;
    EmitClass(st, trace::ADDED, c);
    st.classes.push_back(c);
  }
}

void AdvanceTime(State& st) { st.t += Pick<int64_t>({0, 0, 1, 2, 5, 30, 200}); }

// A burst of replicas for OpportunisticBatching: copies of one new pending pod, added 0 to 501
// ms apart (around the batch's 500 ms age), some copies changed in one field the signature
// covers (a label, a toleration, an image, a request) or in one it does not (the namespace).
void StepReplicas(State& st) {
  const k8s::Pod pattern = NewPod(st, false);
  const int n = Between(2, 6);
  const int64_t spacing_ms = Pick<int64_t>({0, 0, 0, 100, 499, 500, 501});
  for (int i = 0; i < n; ++i) {
    k8s::Pod pod = pattern;
    const std::string name = "r" + std::to_string(st.next_pod++);
    pod.mutable_metadata()->set_name(name);
    pod.mutable_metadata()->set_uid("uid-" + name);
    if (i > 0 && Chance(25)) {
      k8s::PodSpec* spec = pod.mutable_spec();
      switch (Between(0, 4)) {
        case 0:
          (*pod.mutable_metadata()->mutable_labels())["tier"] = "other";
          break;
        case 1: {
          k8s::Toleration* t = spec->add_tolerations();
          t->set_key("dedicated");
          t->set_operator_("Exists");
          break;
        }
        case 2:
          spec->mutable_containers(0)->set_image("img-b:2");
          break;
        case 3:
          (*spec->mutable_containers(0)->mutable_resources()->mutable_requests())["cpu"] = "50m";
          (*spec->mutable_containers(0)->mutable_resources()->mutable_limits()).erase("cpu");
          break;
        default:
          pod.mutable_metadata()->set_namespace_(
              pod.metadata().namespace_() == "default" ? "other" : "default");
      }
    }
    GenPod g{pod, false, false};
    EmitPod(st, trace::ADDED, g.pod);
    st.out.back().set_time_ns(st.t * kNanos + i * spacing_ms * 1000 * 1000);
    st.pods.push_back(std::move(g));
  }
  // The next event comes after the burst.
  st.t += 1 + (n - 1) * spacing_ms / 1000;
}

}  // namespace

rc::Gen<WideScenario> BatchScenarioGen() {
  return rc::gen::exec([] {
    State st;
    st.newer_fields = true;
    Begin(st, {"low", "high", "high-never", "critical", "default-prio"});
    const int nodes = Between(2, 6);
    for (int i = 0; i < nodes; ++i) StepNodeAdd(st);
    const int steps = Between(1, 10);
    for (int i = 0; i < steps; ++i) {
      AdvanceTime(st);
      if (Chance(45)) {
        StepReplicas(st);
      } else {
        StepWide(st);
      }
    }
    return WideScenario{std::move(st.out)};
  });
}

rc::Gen<WideScenario> WideScenarioGen(bool newer_fields) {
  return rc::gen::exec([newer_fields] {
    State st;
    st.newer_fields = newer_fields;
    Begin(st, {"low", "high", "high-never", "critical", "default-prio"});
    const int nodes = Between(1, 4);
    for (int i = 0; i < nodes; ++i) StepNodeAdd(st);
    const int steps = Between(1, 20);
    for (int i = 0; i < steps; ++i) {
      AdvanceTime(st);
      StepWide(st);
    }
    return WideScenario{std::move(st.out)};
  });
}

namespace {

// A bound pod for the preemption scenarios: small requests, a low or middle priority, a start
// time set (often equal to another's) or unset, sometimes terminating.
void AddVictimCandidate(State& st) {
  k8s::Pod pod;
  const std::string name = "b" + std::to_string(st.next_pod++);
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_namespace_(Chance(75) ? "default" : "other");
  pod.mutable_metadata()->set_uid("uid-" + name);
  SetLabels(pod.mutable_metadata());
  k8s::Container* c = pod.mutable_spec()->add_containers();
  c->set_name("c");
  c->set_image("img-a:1");
  (*c->mutable_resources()->mutable_requests())["cpu"] = PickStr({"200m", "300m", "500m", "0.25"});
  (*c->mutable_resources()->mutable_requests())["memory"] = PickStr({"256Mi", "512Mi", "0.5Gi"});
  if (Chance(15)) AddPodConstraints(pod.mutable_spec());
  SetPriority(st, pod.mutable_spec(), {"low", "default-prio"});
  if (Chance(30)) {
    // Priorities straight from admission with no class: 0.
    pod.mutable_spec()->clear_priority_class_name();
    pod.mutable_spec()->set_priority(0);
    pod.mutable_spec()->set_preemption_policy("PreemptLowerPriority");
  }
  GenPod g{pod, true, false};
  MarkBound(st, &g.pod);
  if (Chance(70)) {
    g.pod.mutable_status()->set_phase("Running");
    // Often equal start times; a few slightly in the future (kubelet clock skew).
    g.pod.mutable_status()->set_start_time(StartTime(st.t - Between(0, 3) + (Chance(5) ? 30 : 0)));
  } else {
    g.pod.mutable_status()->clear_start_time();
  }
  if (Chance(8)) {
    g.pod.mutable_metadata()->set_deletion_timestamp(StartTime(st.t + 30));
    AddDisruptionCondition(&g.pod);
    g.finished = true;
  }
  EmitPod(st, trace::ADDED, g.pod);
  st.pods.push_back(std::move(g));
}

void AddPreemptor(State& st) {
  k8s::Pod pod = NewPod(st, false);
  pod.mutable_spec()->clear_priority();
  pod.mutable_spec()->clear_priority_class_name();
  pod.mutable_spec()->clear_preemption_policy();
  SetPriority(st, pod.mutable_spec(), {"high", "high-never", "critical", "system-node-critical"},
              false);
  // Enough to need room on the small nodes.
  auto& req = *pod.mutable_spec()->mutable_containers(0)->mutable_resources()->mutable_requests();
  req["cpu"] = PickStr({"500m", "800m", "1", "1500m"});
  req["memory"] = PickStr({"512Mi", "1Gi", "1.5Gi"});
  pod.mutable_spec()->mutable_containers(0)->mutable_resources()->clear_limits();
  if (Chance(60)) {
    // Mostly a plain preemptor, so that preemption is the question.
    pod.mutable_spec()->clear_affinity();
    pod.mutable_spec()->clear_topology_spread_constraints();
    pod.mutable_spec()->clear_node_selector();
  }
  GenPod g{pod, false, false};
  EmitPod(st, trace::ADDED, g.pod);
  st.pods.push_back(std::move(g));
}

void StepPreemption(State& st) {
  const int kind = Between(0, 99);
  if (kind < 40) return AddPreemptor(st);
  if (kind < 50) return StepPodAdd(st, false);
  if (kind < 58) return AddVictimCandidate(st);
  if (kind < 68) return StepPodDelete(st);
  if (kind < 80) return StepPdb(st);
  if (kind < 86) return StepBoundPodUpdate(st);
  if (kind < 90) return StepPendingPodUpdate(st);
  if (kind < 95) return StepNodeAdd(st);
  return StepNodeUpdate(st);
}

}  // namespace

rc::Gen<WideScenario> PreemptionScenarioGen() {
  return rc::gen::exec([] {
    State st;
    st.preemption_heavy = true;
    Begin(st, {"low", "high", "high-never", "critical"});
    const int nodes = Between(1, 3);
    for (int i = 0; i < nodes; ++i) StepNodeAdd(st);
    const int bound = Between(2, 8);
    for (int i = 0; i < bound; ++i) AddVictimCandidate(st);
    const int pdbs = Between(0, 2);
    for (int i = 0; i < pdbs; ++i) StepPdb(st);
    const int steps = Between(1, 12);
    for (int i = 0; i < steps; ++i) {
      AdvanceTime(st);
      StepPreemption(st);
    }
    return WideScenario{std::move(st.out)};
  });
}

// --- RealizeTrace ----------------------------------------------------------------------------

namespace {

std::vector<trace::Record> ReferenceLog(const std::vector<trace::Record>& records,
                                        const replay::ReplayOptions& options) {
  auto replayer = replay::Replayer::Create(options);
  if (!replayer.ok()) RC_FAIL("replayer: " + replayer.message());
  if (Outcome ok = (*replayer)->Run(records); !ok)
    RC_FAIL("reference replay failed: " + ok.message());
  return (*replayer)->log().records();
}

std::string PodKey(const k8s::Pod& p) {
  return (p.metadata().namespace_().empty() ? "default" : p.metadata().namespace_()) + "/" +
         p.metadata().name();
}

struct PodFate {
  int64_t bound_at = -1;
  std::string node;
  int64_t deleted_at = -1;    // a preemption victim
  int64_t nominated_at = -1;  // first nomination
};

}  // namespace

std::vector<trace::Record> RealizeTrace(std::vector<trace::Record> records, uint64_t seed,
                                        const std::string& compat) {
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration(compat);
  options.compat = compat;
  options.seed = seed;
  return RealizeTraceAs(std::move(records), options);
}

std::vector<trace::Record> RealizeTraceAs(std::vector<trace::Record> records,
                                          const replay::ReplayOptions& options) {
  size_t from = 0;
  for (size_t round = 0; round <= records.size() + 1; ++round) {
    std::map<std::string, PodFate> fate;
    std::map<int64_t, std::string> first_attempt;  // instant -> the pod of its first cycle
    for (const trace::Record& d : ReferenceLog(records, options)) {
      if (d.has_attempt()) first_attempt.emplace(d.time_ns(), d.attempt().pod());
      if (d.has_binding()) {
        PodFate& f = fate[d.binding().pod()];
        if (f.bound_at < 0) f.bound_at = d.time_ns(), f.node = d.binding().node();
      } else if (d.has_attempt()) {
        if (!d.attempt().nominated_node().empty()) {
          PodFate& f = fate[d.attempt().pod()];
          if (f.nominated_at < 0) f.nominated_at = d.time_ns();
        }
        for (const std::string& v : d.attempt().victims()) {
          PodFate& f = fate[v];
          if (f.deleted_at < 0) f.deleted_at = d.time_ns();
        }
      }
    }
    bool changed = false;
    for (size_t i = from; i < records.size() && !changed; ++i) {
      trace::ApiEvent* e = records[i].mutable_api();
      if (!e->has_pod() || e->type() == trace::ADDED) continue;
      const int64_t t = records[i].time_ns();
      k8s::Pod* pod = e->mutable_pod();
      // Not generated: a write of the very pod whose attempt the event overlaps. Upstream then
      // drops the popped pod (deleted: handleSchedulingFailure skips it) or finds it back in
      // activeQ (updated: AddUnschedulableIfNotPresent refuses it), and the kube adapter reports
      // those steps differently from the decision log's conventions (no inflight->none "Done"
      // for the drop; an inflight->active "ScheduleAttemptFailure" where upstream moved nothing):
      // adapter gaps, reported to its owner. The write arrives before the cycle instead.
      if (e->during_attempt()) {
        auto first = first_attempt.find(t);
        if (first != first_attempt.end() && first->second == PodKey(*pod)) {
          e->set_during_attempt(false);
          changed = true;
          from = i;
          break;
        }
      }
      auto it = fate.find(PodKey(*pod));
      if (it == fate.end()) continue;
      const PodFate& f = it->second;
      // Decisions at an instant come after its events: "before t" is strictly earlier.
      if (f.deleted_at >= 0 && f.deleted_at < t) {
        records.erase(records.begin() + static_cast<long>(i));
        changed = true;
      } else if (f.bound_at >= 0 && f.bound_at < t) {
        if (pod->spec().node_name().empty()) {
          pod->mutable_spec()->set_node_name(f.node);
          pod->mutable_spec()->clear_scheduling_gates();
          pod->mutable_status()->clear_nominated_node_name();
          changed = true;
        }
      } else if (f.nominated_at >= 0 && f.nominated_at < t && e->type() == trace::MODIFIED) {
        records.erase(records.begin() + static_cast<long>(i));
        changed = true;
      }
      if (changed) from = i;
    }
    if (!changed) return records;
  }
  RC_FAIL("RealizeTrace did not settle");
}

void showValue(const WideScenario& s, std::ostream& os) {
  os << "WideScenario (" << s.records.size() << " events):\n";
  for (const trace::Record& r : s.records) {
    const trace::ApiEvent& e = r.api();
    os << "  t=" << r.time_ns() / kNanos << "s " << trace::EventType_Name(e.type())
       << (e.during_attempt() ? " (during attempt)" : "") << " ";
    if (e.has_pod()) {
      os << "pod " << k8s::ToJson(e.pod());
    } else if (e.has_node()) {
      os << "node " << k8s::ToJson(e.node());
    } else if (e.has_namespace_()) {
      os << "namespace " << e.namespace_().metadata().name();
    } else if (e.has_priority_class()) {
      os << "priorityclass " << e.priority_class().metadata().name();
    } else if (e.has_pod_disruption_budget()) {
      os << "pdb " << e.pod_disruption_budget().metadata().name();
    } else if (e.has_persistent_volume()) {
      os << "pv " << k8s::ToJson(e.persistent_volume());
    } else if (e.has_persistent_volume_claim()) {
      os << "pvc " << k8s::ToJson(e.persistent_volume_claim());
    } else if (e.has_storage_class()) {
      os << "storageclass " << k8s::ToJson(e.storage_class());
    } else if (e.has_csi_node()) {
      os << "csinode " << k8s::ToJson(e.csi_node());
    } else if (e.has_csi_driver()) {
      os << "csidriver " << k8s::ToJson(e.csi_driver());
    } else if (e.has_csi_storage_capacity()) {
      os << "csistoragecapacity " << k8s::ToJson(e.csi_storage_capacity());
    }
    os << "\n";
  }
}

}  // namespace schedcheck::generators
