#include "harness/minimize/trace_units.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedcheck::minimize {
namespace {

trace::Record NodeEvent(int64_t t, trace::EventType type, const std::string& name) {
  trace::Record r;
  r.set_time_ns(t);
  r.mutable_api()->set_type(type);
  k8s::Node* n = r.mutable_api()->mutable_node();
  n->mutable_metadata()->set_name(name);
  (*n->mutable_metadata()->mutable_labels())["zone"] = "a";
  (*n->mutable_metadata()->mutable_labels())["disk"] = "ssd";
  k8s::Taint* t1 = n->mutable_spec()->add_taints();
  t1->set_key("gpu");
  t1->set_effect("NoSchedule");
  return r;
}

trace::Record PodEvent(int64_t t, trace::EventType type, const std::string& name) {
  trace::Record r;
  r.set_time_ns(t);
  r.mutable_api()->set_type(type);
  k8s::Pod* p = r.mutable_api()->mutable_pod();
  p->mutable_metadata()->set_name(name);
  (*p->mutable_metadata()->mutable_labels())["app"] = "web";
  (*p->mutable_spec()->mutable_node_selector())["zone"] = "a";
  k8s::Toleration* tol = p->mutable_spec()->add_tolerations();
  tol->set_key("gpu");
  tol->set_operator_("Exists");
  k8s::Container* c = p->mutable_spec()->add_containers();
  c->set_name("c");
  (*c->mutable_resources()->mutable_requests())["cpu"] = "1";
  (*c->mutable_resources()->mutable_limits())["memory"] = "1Gi";  // a limit alone is the request
  p->mutable_spec()->mutable_affinity()->mutable_pod_anti_affinity();
  return r;
}

// 0 ADDED n1, 1 ADDED p, 2 MODIFIED n1, 3 DELETED p, 4 ADDED p, plus a decision record (dropped).
std::vector<trace::Record> Sample() {
  std::vector<trace::Record> v = {NodeEvent(0, trace::ADDED, "n1"), PodEvent(1, trace::ADDED, "p"),
                                  NodeEvent(2, trace::MODIFIED, "n1")};
  trace::Record decision;
  decision.mutable_binding()->set_pod("default/p");
  v.push_back(decision);
  v.push_back(PodEvent(3, trace::DELETED, "p"));
  v.push_back(PodEvent(4, trace::ADDED, "p"));
  return v;
}

TEST(TraceUnits, KeepsOnlyApiEventsAndKeysObjects) {
  TraceUnits u(Sample());
  ASSERT_EQ(u.event_count(), 5u);
  EXPECT_EQ(u.object_of(0), "Node/n1");
  EXPECT_EQ(u.object_of(1), "Pod/default/p");
  EXPECT_EQ(u.Objects({0, 1, 2, 3, 4}), (std::vector<std::string>{"Node/n1", "Pod/default/p"}));
}

TEST(TraceUnits, RejectsReductionsThatBreakALifecycle) {
  TraceUnits u(Sample());
  struct Case {
    std::vector<size_t> kept;
    bool valid;
  };
  for (const Case& c : {Case{{0, 1, 2, 3, 4}, true}, Case{{0, 2}, true}, Case{{0}, true},
                        Case{{2}, false},        // MODIFIED of a node never added
                        Case{{0, 1, 4}, false},  // ADDED twice without the DELETE between
                        Case{{0, 3}, false},     // DELETE of a pod never added
                        Case{{0, 4}, true}, Case{{1, 3}, true}}) {
    EXPECT_EQ(u.Valid(c.kept), c.valid) << testing::PrintToString(c.kept);
  }
}

TEST(TraceUnits, AViolationTheInputHadIsAllowed) {
  // A capture that starts mid-life: its first event on the node is a MODIFIED.
  TraceUnits u({NodeEvent(0, trace::MODIFIED, "n1"), PodEvent(1, trace::ADDED, "p")});
  EXPECT_TRUE(u.Valid({0, 1}));
  EXPECT_TRUE(u.Valid({0}));
}

TEST(TraceUnits, ListsFieldsOnceAndRemovesThemFromEveryEventOfTheObject) {
  TraceUnits u(Sample());
  std::vector<std::string> listed;
  for (const FieldUnit& f : u.Fields({0, 1, 2, 3, 4}, {})) listed.push_back(Describe(f));
  EXPECT_EQ(listed, (std::vector<std::string>{
                        "label Node/n1 disk", "label Node/n1 zone", "taint Node/n1 gpu:NoSchedule",
                        "label Pod/default/p app", "nodeSelector Pod/default/p zone",
                        "toleration Pod/default/p gpu Exists  ", "request Pod/default/p c/cpu",
                        "request Pod/default/p c/memory", "podAntiAffinity Pod/default/p"}));
  const std::set<FieldUnit> removed = {{"Node/n1", "taint", "gpu:NoSchedule"},
                                       {"Pod/default/p", "request", "c/memory"},
                                       {"Pod/default/p", "label", "app"},
                                       {"Pod/default/p", "podAntiAffinity", ""}};
  std::vector<trace::Record> built = u.Build({0, 1, 2, 3, 4}, removed);
  ASSERT_EQ(built.size(), 5u);
  for (size_t i : {0, 2}) {
    EXPECT_EQ(built[i].api().node().spec().taints_size(), 0);
    EXPECT_EQ(built[i].api().node().metadata().labels().size(), 2u);
  }
  for (size_t i : {1, 3, 4}) {
    const k8s::Pod& p = built[i].api().pod();
    EXPECT_TRUE(p.metadata().labels().empty());
    EXPECT_EQ(p.spec().containers(0).resources().requests().count("cpu"), 1u);
    EXPECT_TRUE(p.spec().containers(0).resources().limits().empty());
    EXPECT_FALSE(p.spec().affinity().has_pod_anti_affinity());
    EXPECT_EQ(p.spec().tolerations_size(), 1);
  }
  EXPECT_EQ(built[4].time_ns(), 4);  // times kept
  EXPECT_EQ(u.Fields({0, 1, 2, 3, 4}, removed).size(), 5u);
}

TEST(TraceUnits, TheNamespaceNameLabelStays) {
  trace::Record r;
  r.mutable_api()->set_type(trace::ADDED);
  k8s::Namespace* ns = r.mutable_api()->mutable_namespace_();
  ns->mutable_metadata()->set_name("team-a");
  (*ns->mutable_metadata()->mutable_labels())["kubernetes.io/metadata.name"] = "team-a";
  (*ns->mutable_metadata()->mutable_labels())["tier"] = "gold";
  TraceUnits u({r});
  ASSERT_EQ(u.Fields({0}, {}).size(), 1u);
  EXPECT_EQ(Describe(u.Fields({0}, {})[0]), "label Namespace/team-a tier");
}

}  // namespace
}  // namespace schedcheck::minimize
