#include "harness/generators/gang_generators.h"

#include <algorithm>
#include <string>
#include <vector>

namespace schedcheck::generators {
namespace {

// Draws at a fixed size, so that small sizes do not make every draw its first value; shrinking
// still moves each draw towards its first value.
template <typename T>
T Uniform(T lo, T hi_exclusive) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi_exclusive));
}
bool Chance(int percent) { return Uniform(0, 100) < percent; }

constexpr int64_t kSecond = 1'000'000'000;

trace::Record Event(int64_t t_s, trace::EventType type) {
  trace::Record r;
  r.set_time_ns(t_s * kSecond);
  r.mutable_api()->set_type(type);
  return r;
}

trace::Record NodeAdd(int i, const std::string& cpu) {
  trace::Record r = Event(0, trace::ADDED);
  k8s::Node* n = r.mutable_api()->mutable_node();
  const std::string name = "n" + std::to_string(i);
  n->mutable_metadata()->set_name(name);
  (*n->mutable_metadata()->mutable_labels())["kubernetes.io/hostname"] = name;
  auto& alloc = *n->mutable_status()->mutable_allocatable();
  alloc["cpu"] = cpu;
  alloc["memory"] = "16Gi";
  alloc["pods"] = "110";
  return r;
}

// A pod of `cpu` cpus; `group` empty: a lone pod. The UID is fixed by the name, so that a
// deletion names the pod it deletes.
trace::Record PodEvent(int64_t t_s, trace::EventType type, const std::string& name,
                       const std::string& group, const std::string& cpu, int priority) {
  trace::Record r = Event(t_s, type);
  k8s::Pod* p = r.mutable_api()->mutable_pod();
  p->mutable_metadata()->set_namespace_("default");
  p->mutable_metadata()->set_name(name);
  p->mutable_metadata()->set_uid("uid-" + name);
  if (!group.empty()) p->mutable_spec()->mutable_scheduling_group()->set_pod_group_name(group);
  if (priority != 0) p->mutable_spec()->set_priority(priority);
  k8s::Container* c = p->mutable_spec()->add_containers();
  c->set_name("c");
  c->set_image("app");
  (*c->mutable_resources()->mutable_requests())["cpu"] = cpu;
  return r;
}

// The PodGroup `name` with a gang policy; its priority equals its pods' (upstream's
// validatePodGroup refuses a group whose pods' priorities differ from its own).
trace::Record PodGroupEvent(int64_t t_s, trace::EventType type, const std::string& name,
                            int min_count, int priority) {
  trace::Record r = Event(t_s, type);
  k8s::PodGroup* g = r.mutable_api()->mutable_pod_group();
  g->mutable_metadata()->set_namespace_("default");
  g->mutable_metadata()->set_name(name);
  g->mutable_spec()->mutable_scheduling_policy()->mutable_gang()->set_min_count(min_count);
  if (priority != 0) g->mutable_spec()->set_priority(priority);
  return r;
}

struct Gang {
  std::string name;
  int pods = 0;
  int min_count = 0;
  std::string cpu;
  int priority = 0;
};

}  // namespace

rc::Gen<std::vector<trace::Record>> GangTraceGen() {
  return rc::gen::exec([] {
    std::vector<trace::Record> records;
    const int nodes = Uniform(1, 4);
    for (int i = 1; i <= nodes; ++i) records.push_back(NodeAdd(i, Chance(50) ? "2" : "4"));
    // Lone low-priority fillers: room a gang may lack, or victims a high-priority gang preempts.
    const int fillers = Uniform(0, 4);
    for (int i = 1; i <= fillers; ++i)
      records.push_back(
          PodEvent(0, trace::ADDED, "filler-" + std::to_string(i), "", Chance(50) ? "1" : "2", 0));
    // Later events, as (time, record), sorted by time at the end (stable: same-time events keep
    // the order they were drawn in).
    std::vector<trace::Record> later;
    const int gangs = Uniform(1, 4);
    for (int g = 1; g <= gangs; ++g) {
      Gang gang;
      gang.name = "g" + std::to_string(g);
      gang.pods = Uniform(1, 6);
      // minCount below (the gang fits with pods to spare), at, or above the pods present (held
      // at PreEnqueue until a late member or a lowered minCount).
      switch (Uniform(0, 3)) {
        case 0:
          gang.min_count = Uniform(1, gang.pods + 1);
          break;
        case 1:
          gang.min_count = gang.pods;
          break;
        default:
          gang.min_count = gang.pods + Uniform(1, 3);
          break;
      }
      gang.cpu = Chance(60) ? "1" : "2";
      gang.priority = Chance(30) ? 1000 : 0;
      const int64_t arrive = Uniform<int64_t>(0, 6);
      const bool group_late = Chance(20);  // pods before their PodGroup
      later.push_back(PodGroupEvent(group_late ? arrive + Uniform<int64_t>(1, 4) : arrive,
                                    trace::ADDED, gang.name, gang.min_count, gang.priority));
      for (int p = 1; p <= gang.pods; ++p) {
        const std::string name = gang.name + "-" + std::to_string(p);
        // A member arriving late now and then.
        const int64_t t = Chance(15) ? arrive + Uniform<int64_t>(3, 10) : arrive;
        later.push_back(PodEvent(t, trace::ADDED, name, gang.name, gang.cpu, gang.priority));
        if (Chance(10)) {
          // Deleted while held or pending, or while its gang's cycle is in flight (the others
          // then wait at Permit for a quorum that may never come).
          trace::Record del = PodEvent(Chance(50) ? t : t + Uniform<int64_t>(1, 5), trace::DELETED,
                                       name, gang.name, gang.cpu, gang.priority);
          if (del.time_ns() == t * kSecond) del.mutable_api()->set_during_attempt(true);
          later.push_back(del);
        }
      }
      // Late members beyond the pods drawn: they may complete a gang held below minCount.
      if (gang.min_count > gang.pods && Chance(50)) {
        for (int p = gang.pods + 1; p <= gang.min_count; ++p)
          later.push_back(PodEvent(arrive + Uniform<int64_t>(2, 12), trace::ADDED,
                                   gang.name + "-" + std::to_string(p), gang.name, gang.cpu,
                                   gang.priority));
      }
      // minCount lowered (a PodGroup update releases a held gang).
      if (gang.min_count > 1 && Chance(20))
        later.push_back(PodGroupEvent(arrive + Uniform<int64_t>(4, 15), trace::MODIFIED, gang.name,
                                      Uniform(1, gang.min_count), gang.priority));
    }
    std::stable_sort(
        later.begin(), later.end(),
        [](const trace::Record& a, const trace::Record& b) { return a.time_ns() < b.time_ns(); });
    records.insert(records.end(), later.begin(), later.end());
    return records;
  });
}

}  // namespace schedcheck::generators
