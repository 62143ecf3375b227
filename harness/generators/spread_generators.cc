#include "harness/generators/spread_generators.h"

#include <algorithm>
#include <string>
#include <vector>

namespace schedcheck::generators {
namespace {

// Draws at a fixed size, so that small sizes do not make every draw its first value (inRange
// scales with the size); shrinking still moves each draw towards its first value.
template <typename T>
T Uniform(T lo, T hi_exclusive) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi_exclusive));
}
template <typename T>
T Pick(const std::vector<T>& values) {
  return values[Uniform<size_t>(0, values.size())];
}
bool Chance(int percent) { return Uniform(0, 100) < percent; }

const std::vector<std::string> kApps = {"a", "b", "c"};
const std::vector<std::string> kNamespaces = {"default", "default", "default", "other"};

trace::Record Event(int64_t t_s, trace::EventType type) {
  trace::Record r;
  r.set_time_ns(t_s * 1'000'000'000);
  r.mutable_api()->set_type(type);
  return r;
}

void Meta(k8s::ObjectMeta* meta, const std::string& ns, const std::string& name) {
  meta->set_namespace_(ns);
  meta->set_name(name);
}

k8s::Node NewNode(int i) {
  k8s::Node n;
  const std::string name = "n" + std::to_string(i);
  n.mutable_metadata()->set_name(name);
  auto& labels = *n.mutable_metadata()->mutable_labels();
  labels["kubernetes.io/hostname"] = name;
  if (!Chance(20)) labels["topology.kubernetes.io/zone"] = Pick<std::string>({"z1", "z2", "z3"});
  auto& alloc = *n.mutable_status()->mutable_allocatable();
  alloc["cpu"] = Pick<std::string>({"4", "8", "32"});
  alloc["memory"] = "64Gi";
  alloc["pods"] = "110";
  return n;
}

k8s::LabelSelector AppSelector() {
  k8s::LabelSelector s;
  if (Chance(70)) {
    (*s.mutable_match_labels())["app"] = Pick(kApps);
  } else {
    auto* r = s.add_match_expressions();
    r->set_key(Pick<std::string>({"app", "tier"}));
    r->set_operator_(Pick<std::string>({"In", "Exists", "NotIn"}));
    if (r->operator_() != "Exists")
      r->add_values(r->key() == "app" ? Pick(kApps) : Pick<std::string>({"front", "back"}));
  }
  return s;
}

// One selector object of a random kind, named after its kind and an app (so pods can own it).
void SelectorObject(trace::Record* r) {
  const std::string ns = Pick(kNamespaces);
  const std::string app = Pick(kApps);
  switch (Uniform(0, 4)) {
    case 0: {
      k8s::Service* s = r->mutable_api()->mutable_service();
      Meta(s->mutable_metadata(), ns, "svc-" + app);
      if (!Chance(10)) (*s->mutable_spec()->mutable_selector())["app"] = app;
      if (Chance(30))
        (*s->mutable_spec()->mutable_selector())["tier"] = Pick<std::string>({"front", "back"});
      break;
    }
    case 1: {
      k8s::ReplicationController* rc = r->mutable_api()->mutable_replication_controller();
      Meta(rc->mutable_metadata(), ns, "rc-" + app);
      (*rc->mutable_spec()->mutable_selector())["app"] = app;
      break;
    }
    case 2: {
      k8s::ReplicaSet* rs = r->mutable_api()->mutable_replica_set();
      Meta(rs->mutable_metadata(), ns, "rs-" + app);
      if (!Chance(5)) *rs->mutable_spec()->mutable_selector() = AppSelector();
      break;
    }
    default: {
      k8s::StatefulSet* ss = r->mutable_api()->mutable_stateful_set();
      Meta(ss->mutable_metadata(), ns, "ss-" + app);
      *ss->mutable_spec()->mutable_selector() = AppSelector();
    }
  }
}

k8s::Pod NewPod(int i) {
  k8s::Pod p;
  const std::string app = Pick(kApps);
  Meta(p.mutable_metadata(), Pick(kNamespaces), "p" + std::to_string(i));
  p.mutable_metadata()->set_uid("uid-p" + std::to_string(i));
  auto& labels = *p.mutable_metadata()->mutable_labels();
  if (!Chance(10)) labels["app"] = app;
  if (Chance(40)) labels["tier"] = Pick<std::string>({"front", "back"});
  if (Chance(70)) {
    k8s::OwnerReference* ref = p.mutable_metadata()->add_owner_references();
    const int kind = Uniform(0, 4);
    ref->set_api_version(
        kind == 0 ? "v1"
                  : Pick<std::string>({"apps/v1", "apps/v1", "apps/v1", "extensions/v1beta1"}));
    ref->set_kind(kind == 0 ? "ReplicationController" : kind == 1 ? "StatefulSet" : "ReplicaSet");
    ref->set_name((kind == 0 ? "rc-" : kind == 1 ? "ss-" : "rs-") + Pick(kApps));
    ref->set_uid("owner-uid");
    if (!Chance(10)) ref->set_controller(true);
  }
  k8s::Container* c = p.mutable_spec()->add_containers();
  c->set_name("c");
  c->set_image("pause");
  (*c->mutable_resources()->mutable_requests())["cpu"] =
      Pick<std::string>({"100m", "250m", "500m", "1"});
  (*c->mutable_resources()->mutable_requests())["memory"] = "256Mi";
  if (Chance(10)) {
    k8s::TopologySpreadConstraint* t = p.mutable_spec()->add_topology_spread_constraints();
    t->set_max_skew(1);
    t->set_topology_key("kubernetes.io/hostname");
    t->set_when_unsatisfiable("ScheduleAnyway");
    (*t->mutable_label_selector()->mutable_match_labels())["app"] = app;
  }
  return p;
}

}  // namespace

rc::Gen<std::vector<trace::Record>> DefaultSpreadTraceGen() {
  return rc::gen::exec([] {
    std::vector<trace::Record> out;
    const int nodes = Uniform(2, 7);
    for (int i = 0; i < nodes; ++i) {
      trace::Record r = Event(0, trace::ADDED);
      *r.mutable_api()->mutable_node() = NewNode(i);
      out.push_back(std::move(r));
    }
    const int objects = Uniform(1, 5);
    for (int i = 0; i < objects; ++i) {
      out.push_back(Event(0, trace::ADDED));
      SelectorObject(&out.back());
    }
    const int steps = Uniform(3, 25);
    int64_t t = 0;
    for (int i = 0; i < steps; ++i) {
      if (Chance(30)) t += Uniform(1, 3);
      if (Chance(15)) {
        // A selector object appears, changes or goes (same names recur, so these hit earlier ones).
        out.push_back(
            Event(t, Pick<trace::EventType>({trace::ADDED, trace::MODIFIED, trace::DELETED})));
        SelectorObject(&out.back());
        continue;
      }
      trace::Record r = Event(t, trace::ADDED);
      *r.mutable_api()->mutable_pod() = NewPod(i);
      out.push_back(std::move(r));
    }
    return out;
  });
}

rc::Gen<std::vector<trace::Record>> MatchLabelKeysTraceGen() {
  return rc::gen::exec([] {
    std::vector<trace::Record> out;
    const int nodes = Uniform(3, 7);
    const int zones = Uniform(2, 4);
    for (int i = 0; i < nodes; ++i) {
      trace::Record r = Event(0, trace::ADDED);
      k8s::Node* n = r.mutable_api()->mutable_node();
      const std::string name = "n" + std::to_string(i);
      n->mutable_metadata()->set_name(name);
      auto& labels = *n->mutable_metadata()->mutable_labels();
      labels["kubernetes.io/hostname"] = name;
      labels["topology.kubernetes.io/zone"] = "z" + std::to_string(i % zones);
      auto& alloc = *n->mutable_status()->mutable_allocatable();
      alloc["cpu"] = "8";
      alloc["memory"] = "16Gi";
      alloc["pods"] = std::to_string(Uniform(3, 8));
      out.push_back(std::move(r));
    }
    const int pods = Uniform(4, 21);
    const std::string key = Chance(50) ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname";
    const std::string when = Chance(70) ? "DoNotSchedule" : "ScheduleAnyway";
    std::vector<int> v1_pods;
    int64_t t = 0;
    for (int i = 0; i < pods; ++i) {
      if (Chance(50)) t += 1;
      if (!v1_pods.empty() && Chance(15)) {
        const int victim = v1_pods[Uniform<size_t>(0, v1_pods.size())];
        trace::Record r = Event(t, trace::DELETED);
        k8s::Pod* p = r.mutable_api()->mutable_pod();
        Meta(p->mutable_metadata(), "default", "web-" + std::to_string(victim));
        p->mutable_metadata()->set_uid("uid-web-" + std::to_string(victim));
        out.push_back(std::move(r));
        std::erase(v1_pods, victim);
        continue;
      }
      // Later pods are mostly the new version.
      const bool v2 = Uniform(0, pods) < i + (Chance(20) ? pods / 2 : 0);
      trace::Record r = Event(t, trace::ADDED);
      k8s::Pod* p = r.mutable_api()->mutable_pod();
      Meta(p->mutable_metadata(), "default", "web-" + std::to_string(i));
      p->mutable_metadata()->set_uid("uid-web-" + std::to_string(i));
      auto& labels = *p->mutable_metadata()->mutable_labels();
      labels["app"] = "web";
      labels["version"] = v2 ? "v2" : "v1";
      k8s::Container* c = p->mutable_spec()->add_containers();
      c->set_name("c");
      c->set_image("web:" + labels["version"]);
      (*c->mutable_resources()->mutable_requests())["cpu"] = "100m";
      k8s::TopologySpreadConstraint* tsc = p->mutable_spec()->add_topology_spread_constraints();
      tsc->set_max_skew(1);
      tsc->set_topology_key(key);
      tsc->set_when_unsatisfiable(when);
      (*tsc->mutable_label_selector()->mutable_match_labels())["app"] = "web";
      tsc->add_match_label_keys("version");
      if (!v2) v1_pods.push_back(i);
      out.push_back(std::move(r));
    }
    return out;
  });
}

}  // namespace schedcheck::generators
