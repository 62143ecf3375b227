// The fast engine's compiled selectors give the plain matching rules' answers
// (reference/api/selectors.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reference/accel/base/compiled_label_selector.h"
#include "reference/accel/base/compiled_node_selector.h"
#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

k8s::Node NodeWithLabels(std::map<std::string, std::string> labels, std::string name = "n1") {
  k8s::Node n;
  n.mutable_metadata()->set_name(name);
  for (auto& [k, v] : labels) (*n.mutable_metadata()->mutable_labels())[k] = v;
  return n;
}

// A requirement that does not parse makes the compiled term match nothing, as the plain one.
TEST(CompiledNodeSelectorTermTest, RequirementsThatDoNotParseMatchNothing) {
  k8s::Node n = NodeWithLabels({{"zone", "a"}, {"rank", "5"}});
  auto term = [](const std::string& key, const std::string& op, std::vector<std::string> values) {
    k8s::NodeSelectorTerm t;
    auto* r = t.add_match_expressions();
    r->set_key(key);
    r->set_operator_(op);
    for (auto& v : values) r->add_values(v);
    return t;
  };
  for (const auto& t : {term("zone", "In", {"a", "has space"}), term("rank", "Gt", {"-1"}),
                        term("zone", "In", {"a"})}) {
    EXPECT_EQ(CompiledNodeSelectorTerm(t).Matches(**BuildNode(n)), NodeSelectorTermMatches(t, n));
  }
}

// CompiledLabelSelector gives LabelSelectorMatches' answer for every operator.
TEST(CompiledLabelSelectorTest, AgreesWithLabelSelectorMatches) {
  std::vector<google::protobuf::Map<std::string, std::string>> label_sets(4);
  label_sets[1]["app"] = "web";
  label_sets[2]["app"] = "db";
  label_sets[2]["tier"] = "";
  label_sets[3]["tier"] = "1";
  std::vector<k8s::LabelSelector> selectors(8);
  (*selectors[1].mutable_match_labels())["app"] = "web";
  auto add = [](k8s::LabelSelector& s, const std::string& key, const std::string& op,
                std::vector<std::string> values) {
    auto* r = s.add_match_expressions();
    r->set_key(key);
    r->set_operator_(op);
    for (auto& v : values) r->add_values(v);
  };
  add(selectors[2], "app", "In", {"db", "web"});
  add(selectors[3], "app", "NotIn", {"web"});
  add(selectors[4], "tier", "Exists", {});
  add(selectors[5], "tier", "DoesNotExist", {});
  add(selectors[6], "app", "Bogus", {"web"});  // malformed: matches nothing
  add(selectors[7], "tier", "In", {""});
  for (size_t i = 0; i < selectors.size(); ++i) {
    CompiledLabelSelector compiled(selectors[i]);
    for (size_t j = 0; j < label_sets.size(); ++j) {
      SCOPED_TRACE("selector " + std::to_string(i) + ", labels " + std::to_string(j));
      EXPECT_EQ(compiled.Matches(LabelIds(label_sets[j])),
                LabelSelectorMatches(selectors[i], label_sets[j]));
    }
  }
  EXPECT_FALSE(CompiledLabelSelector().Matches(LabelIds(label_sets[1])));  // nil: nothing
}

// RequiredNodeAffinity gives PodMatchesRequiredNodeAffinity's answer.
TEST(RequiredNodeAffinityTest, AgreesWithPodMatchesRequiredNodeAffinity) {
  std::vector<NodePtr> nodes;
  for (const auto& labels : std::vector<std::map<std::string, std::string>>{
           {}, {{"zone", "a"}}, {{"zone", "b"}, {"disk", "ssd"}}, {{"zone", "a"}, {"disk", ""}}}) {
    k8s::Node n = NodeWithLabels(labels);
    nodes.push_back(*BuildNode(n));
  }
  std::vector<k8s::Pod> pods(4);
  (*pods[1].mutable_spec()->mutable_node_selector())["zone"] = "a";
  (*pods[2].mutable_spec()->mutable_node_selector())["disk"] = "";
  auto* req = pods[3]
                  .mutable_spec()
                  ->mutable_affinity()
                  ->mutable_node_affinity()
                  ->mutable_required_during_scheduling_ignored_during_execution()
                  ->add_node_selector_terms()
                  ->add_match_expressions();
  req->set_key("disk");
  req->set_operator_("Exists");
  for (size_t i = 0; i < pods.size(); ++i) {
    pods[i].mutable_metadata()->set_name("p");
    PodPtr pod = *BuildPod(pods[i], FeaturesFor(CompatLevel::kV1_27));
    RequiredNodeAffinity affinity(*pod);
    for (size_t j = 0; j < nodes.size(); ++j) {
      SCOPED_TRACE("pod " + std::to_string(i) + ", node " + std::to_string(j));
      EXPECT_EQ(affinity.Matches(*nodes[j]),
                PodMatchesRequiredNodeAffinity(pod->obj, nodes[j]->obj));
    }
  }
}

}  // namespace
}  // namespace schedcheck::reference
