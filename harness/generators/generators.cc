#include "harness/generators/generators.h"

#include <ostream>
#include <set>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::generators {
namespace {

template <typename T>
T Pick(const std::vector<T>& values) {
  return *rc::gen::elementOf(values);
}

bool Chance(int percent) { return *rc::gen::inRange(0, 100) < percent; }

std::string PickStr(const std::vector<std::string>& values) { return Pick(values); }

const std::vector<std::string> kApps = {"web", "db", "cache"};
const std::vector<std::string> kZones = {"zone-a", "zone-b"};
constexpr int64_t kNanosPerSecondForGen = 1000LL * 1000 * 1000;

k8s::LabelSelector AppSelector() {
  k8s::LabelSelector sel;
  if (Chance(80)) {
    (*sel.mutable_match_labels())[kAppKey] = PickStr(kApps);
  } else {
    k8s::LabelSelectorRequirement* r = sel.add_match_expressions();
    r->set_key(kAppKey);
    r->set_operator_(PickStr({"In", "NotIn", "Exists"}));
    if (r->operator_() != "Exists") r->add_values(PickStr(kApps));
  }
  return sel;
}

k8s::PodAffinityTerm AffinityTerm() {
  k8s::PodAffinityTerm t;
  *t.mutable_label_selector() = AppSelector();
  t.set_topology_key(Chance(50) ? kHostnameKey : kZoneKey);
  if (Chance(25)) {
    t.add_namespaces("default");
    t.add_namespaces("other");
  }
  return t;
}

void AddContainers(k8s::PodSpec* spec) {
  const int n = *rc::gen::inRange(1, 3);
  for (int i = 0; i < n; ++i) {
    k8s::Container* c = spec->add_containers();
    c->set_name("c" + std::to_string(i));
    c->set_image(PickStr({"img-a:1", "img-b:1", "img-c:1"}));
    auto& req = *c->mutable_resources()->mutable_requests();
    std::string cpu = PickStr({"", "100m", "300m", "500m", "1"});
    if (!cpu.empty()) req["cpu"] = cpu;
    std::string mem = PickStr({"", "128Mi", "512Mi", "1Gi"});
    if (!mem.empty()) req["memory"] = mem;
    if (Chance(15)) {
      k8s::ContainerPort* p = c->add_ports();
      p->set_container_port(80);
      p->set_host_port(Pick<int32_t>({8080, 9090}));
      if (Chance(30)) p->set_protocol("UDP");
    }
  }
  if (Chance(20)) {
    k8s::Container* init = spec->add_init_containers();
    init->set_name("init");
    init->set_image("img-a:1");
    (*init->mutable_resources()->mutable_requests())["cpu"] = PickStr({"200m", "1500m"});
  }
  if (Chance(15)) (*spec->mutable_overhead())["cpu"] = "100m";
}

void AddNodeConstraints(k8s::PodSpec* spec) {
  if (Chance(10)) (*spec->mutable_node_selector())[kDiskKey] = PickStr({"ssd", "hdd"});
  if (Chance(15)) {
    k8s::NodeSelectorTerm* term =
        spec->mutable_affinity()
            ->mutable_node_affinity()
            ->mutable_required_during_scheduling_ignored_during_execution()
            ->add_node_selector_terms();
    k8s::NodeSelectorRequirement* r = term->add_match_expressions();
    r->set_key(Chance(50) ? kZoneKey : kDiskKey);
    r->set_operator_(PickStr({"In", "NotIn", "Exists", "DoesNotExist"}));
    if (r->operator_() == "In" || r->operator_() == "NotIn") {
      r->add_values(r->key() == kZoneKey ? PickStr(kZones) : PickStr({"ssd", "hdd"}));
    }
  }
  if (Chance(20)) {
    k8s::PreferredSchedulingTerm* p =
        spec->mutable_affinity()
            ->mutable_node_affinity()
            ->add_preferred_during_scheduling_ignored_during_execution();
    p->set_weight(*rc::gen::inRange(1, 101));
    k8s::NodeSelectorRequirement* r = p->mutable_preference()->add_match_expressions();
    r->set_key(kZoneKey);
    r->set_operator_("In");
    r->add_values(PickStr(kZones));
  }
  if (Chance(30)) {
    k8s::Toleration* t = spec->add_tolerations();
    t->set_key("dedicated");
    t->set_operator_(PickStr({"Equal", "Exists"}));
    if (t->operator_() == "Equal") t->set_value(PickStr({"a", "b"}));
    t->set_effect(PickStr({"", "NoSchedule", "NoExecute", "PreferNoSchedule"}));
  }
}

void AddPodConstraints(k8s::PodSpec* spec) {
  if (Chance(20)) {
    *spec->mutable_affinity()
         ->mutable_pod_anti_affinity()
         ->add_required_during_scheduling_ignored_during_execution() = AffinityTerm();
  }
  if (Chance(10)) {
    *spec->mutable_affinity()
         ->mutable_pod_affinity()
         ->add_required_during_scheduling_ignored_during_execution() = AffinityTerm();
  }
  if (Chance(15)) {
    k8s::WeightedPodAffinityTerm* w =
        Chance(50) ? spec->mutable_affinity()
                         ->mutable_pod_affinity()
                         ->add_preferred_during_scheduling_ignored_during_execution()
                   : spec->mutable_affinity()
                         ->mutable_pod_anti_affinity()
                         ->add_preferred_during_scheduling_ignored_during_execution();
    w->set_weight(*rc::gen::inRange(1, 101));
    *w->mutable_pod_affinity_term() = AffinityTerm();
  }
  if (Chance(20)) {
    k8s::TopologySpreadConstraint* c = spec->add_topology_spread_constraints();
    c->set_max_skew(*rc::gen::inRange(1, 3));
    c->set_topology_key(Chance(50) ? kZoneKey : kHostnameKey);
    c->set_when_unsatisfiable(Chance(70) ? "DoNotSchedule" : "ScheduleAnyway");
    (*c->mutable_label_selector()->mutable_match_labels())[kAppKey] = PickStr(kApps);
  }
}

}  // namespace

k8s::Node GenNodeObject(const std::string& name) {
  k8s::Node node;
  node.mutable_metadata()->set_name(name);
  auto& labels = *node.mutable_metadata()->mutable_labels();
  labels[kHostnameKey] = name;
  if (Chance(90)) labels[kZoneKey] = PickStr(kZones);
  if (Chance(60)) labels[kDiskKey] = PickStr({"ssd", "hdd"});
  auto& alloc = *node.mutable_status()->mutable_allocatable();
  alloc["cpu"] = PickStr({"1", "2", "4", "4"});
  alloc["memory"] = PickStr({"1Gi", "4Gi", "8Gi"});
  alloc["pods"] = PickStr({"2", "5", "110", "110"});
  node.mutable_status()->mutable_capacity()->insert(alloc.begin(), alloc.end());
  if (Chance(20)) {
    k8s::Taint* t = node.mutable_spec()->add_taints();
    t->set_key("dedicated");
    t->set_value(PickStr({"a", "b"}));
    t->set_effect(PickStr({"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
  if (Chance(8)) node.mutable_spec()->set_unschedulable(true);
  for (const char* image : {"img-a:1", "img-b:1"}) {
    if (!Chance(40)) continue;
    k8s::ContainerImage* img = node.mutable_status()->add_images();
    img->add_names(image);
    img->set_size_bytes(Pick<int64_t>({100LL << 20, 800LL << 20}));
  }
  return node;
}

k8s::Pod GenPodObject(const std::string& name, bool allow_gates) {
  k8s::Pod pod;
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_namespace_(Chance(80) ? "default" : "other");
  pod.mutable_metadata()->set_uid(pod.metadata().namespace_() + "/" + name);
  if (Chance(85)) (*pod.mutable_metadata()->mutable_labels())[kAppKey] = PickStr(kApps);
  k8s::PodSpec* spec = pod.mutable_spec();
  AddContainers(spec);
  AddNodeConstraints(spec);
  AddPodConstraints(spec);
  spec->set_priority(Pick<int32_t>({0, 0, 10, 100}));
  if (allow_gates && Chance(12)) spec->add_scheduling_gates()->set_name(kGateName);
  return pod;
}

rc::Gen<k8s::Node> NodeGen(const std::string& name) {
  return rc::gen::exec([name] { return GenNodeObject(name); });
}

rc::Gen<k8s::Pod> PodGen(const std::string& name, bool allow_gates) {
  return rc::gen::exec([name, allow_gates] { return GenPodObject(name, allow_gates); });
}

rc::Gen<ClusterCase> ClusterCaseGen() {
  return rc::gen::exec([] {
    ClusterCase c;
    const int nodes = *rc::gen::inRange(1, 6);
    for (int i = 0; i < nodes; ++i) c.nodes.push_back(GenNodeObject("n" + std::to_string(i)));
    const int bound = *rc::gen::inRange(0, 7);
    for (int i = 0; i < bound; ++i) {
      k8s::Pod p = GenPodObject("b" + std::to_string(i), false);
      p.mutable_spec()->set_node_name(c.nodes[*rc::gen::inRange(0, nodes)].metadata().name());
      c.bound.push_back(std::move(p));
    }
    c.pod = GenPodObject("p", false);
    return c;
  });
}

namespace {

trace::Record ApiRecord(int64_t t_s, trace::EventType type, int* rv) {
  trace::Record r;
  r.set_time_ns(t_s * kNanosPerSecondForGen);
  r.mutable_api()->set_type(type);
  ++*rv;
  return r;
}

// Live objects while a scenario is generated: latest versions by name.
struct ScenarioState {
  std::vector<k8s::Pod> pods;
  std::vector<k8s::Node> nodes;
  int next_pod = 0;
  int next_node = 0;
  int rv = 0;
};

void StepPodAdd(ScenarioState& st, trace::Record& r) {
  k8s::Pod pod = GenPodObject("p" + std::to_string(st.next_pod++), true);
  pod.mutable_metadata()->set_resource_version(std::to_string(st.rv));
  *r.mutable_api()->mutable_pod() = pod;
  st.pods.push_back(std::move(pod));
}

void StepPodUpdate(ScenarioState& st, trace::Record& r) {
  size_t i = *rc::gen::inRange<size_t>(0, st.pods.size());
  k8s::Pod& pod = st.pods[i];
  if (pod.spec().scheduling_gates_size() > 0) {
    pod.mutable_spec()->clear_scheduling_gates();
  } else {
    (*pod.mutable_metadata()->mutable_labels())[kAppKey] = PickStr(kApps);
  }
  pod.mutable_metadata()->set_resource_version(std::to_string(st.rv));
  *r.mutable_api()->mutable_pod() = pod;
}

void StepNodeUpdate(ScenarioState& st, trace::Record& r) {
  size_t i = *rc::gen::inRange<size_t>(0, st.nodes.size());
  k8s::Node& node = st.nodes[i];
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      if (node.spec().taints_size() > 0) {
        node.mutable_spec()->clear_taints();
      } else {
        k8s::Taint* t = node.mutable_spec()->add_taints();
        t->set_key("dedicated");
        t->set_value("a");
        t->set_effect("NoSchedule");
      }
      break;
    case 1:
      node.mutable_spec()->set_unschedulable(!node.spec().unschedulable());
      break;
    default:
      (*node.mutable_metadata()->mutable_labels())[kDiskKey] = PickStr({"ssd", "hdd"});
  }
  node.mutable_metadata()->set_resource_version(std::to_string(st.rv));
  *r.mutable_api()->mutable_node() = node;
}

void Step(ScenarioState& st, int64_t t, std::vector<trace::Record>* out) {
  int kind = *rc::gen::inRange(0, 100);
  if (st.pods.empty()) kind = 0;
  if (kind < 50) {
    trace::Record r = ApiRecord(t, trace::ADDED, &st.rv);
    StepPodAdd(st, r);
    out->push_back(std::move(r));
  } else if (kind < 62) {
    trace::Record r = ApiRecord(t, trace::MODIFIED, &st.rv);
    StepPodUpdate(st, r);
    out->push_back(std::move(r));
  } else if (kind < 72) {
    trace::Record r = ApiRecord(t, trace::DELETED, &st.rv);
    size_t i = *rc::gen::inRange<size_t>(0, st.pods.size());
    *r.mutable_api()->mutable_pod() = st.pods[i];
    st.pods.erase(st.pods.begin() + static_cast<long>(i));
    out->push_back(std::move(r));
  } else if (kind < 80 || st.nodes.size() <= 1) {
    trace::Record r = ApiRecord(t, trace::ADDED, &st.rv);
    k8s::Node node = GenNodeObject("n" + std::to_string(st.next_node++));
    *r.mutable_api()->mutable_node() = node;
    st.nodes.push_back(std::move(node));
    out->push_back(std::move(r));
  } else if (kind < 94) {
    trace::Record r = ApiRecord(t, trace::MODIFIED, &st.rv);
    StepNodeUpdate(st, r);
    out->push_back(std::move(r));
  } else {
    trace::Record r = ApiRecord(t, trace::DELETED, &st.rv);
    size_t i = *rc::gen::inRange<size_t>(0, st.nodes.size());
    *r.mutable_api()->mutable_node() = st.nodes[i];
    st.nodes.erase(st.nodes.begin() + static_cast<long>(i));
    out->push_back(std::move(r));
  }
}

}  // namespace

rc::Gen<Scenario> ScenarioGen() {
  return rc::gen::exec([] {
    Scenario s;
    ScenarioState st;
    const int nodes = *rc::gen::inRange(1, 5);
    for (int i = 0; i < nodes; ++i) {
      trace::Record r = ApiRecord(0, trace::ADDED, &st.rv);
      k8s::Node node = GenNodeObject("n" + std::to_string(st.next_node++));
      *r.mutable_api()->mutable_node() = node;
      st.nodes.push_back(std::move(node));
      s.records.push_back(std::move(r));
    }
    const int steps = *rc::gen::inRange(1, 16);
    int64_t t = 0;
    for (int i = 0; i < steps; ++i) {
      t += Pick<int64_t>({0, 0, 1, 2, 5, 30, 200});
      Step(st, t, &s.records);
    }
    return s;
  });
}

std::vector<std::string> NodeNames(const std::vector<k8s::Node>& nodes) {
  std::vector<std::string> out;
  for (const k8s::Node& n : nodes) out.push_back(n.metadata().name());
  return out;
}

void showValue(const ClusterCase& c, std::ostream& os) {
  os << "ClusterCase:\n";
  for (const k8s::Node& n : c.nodes) os << "  node " << k8s::ToJson(n) << "\n";
  for (const k8s::Pod& p : c.bound) os << "  bound " << k8s::ToJson(p) << "\n";
  os << "  pod " << k8s::ToJson(c.pod) << "\n";
}

void showValue(const Scenario& s, std::ostream& os) {
  os << "Scenario (" << s.records.size() << " events):\n";
  for (const trace::Record& r : s.records) {
    const trace::ApiEvent& e = r.api();
    os << "  t=" << r.time_ns() << " " << trace::EventType_Name(e.type()) << " "
       << (e.has_pod() ? "pod " + e.pod().metadata().name() : "node " + e.node().metadata().name())
       << "\n";
  }
}

}  // namespace schedcheck::generators
