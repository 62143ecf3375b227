#include "reference/api/selectors.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace schedcheck::reference {
namespace {

k8s::Node NodeWithLabels(std::map<std::string, std::string> labels, std::string name = "n1") {
  k8s::Node n;
  n.mutable_metadata()->set_name(name);
  for (auto& [k, v] : labels) (*n.mutable_metadata()->mutable_labels())[k] = v;
  return n;
}

TEST(LabelSelectorTest, EmptyMatchesEverythingAndOperatorsBehave) {
  k8s::Node n = NodeWithLabels({{"app", "web"}, {"tier", "1"}});
  const auto& labels = n.metadata().labels();
  k8s::LabelSelector empty;
  EXPECT_TRUE(LabelSelectorMatches(empty, labels));

  k8s::LabelSelector s;
  (*s.mutable_match_labels())["app"] = "web";
  EXPECT_TRUE(LabelSelectorMatches(s, labels));
  auto* req = s.add_match_expressions();
  req->set_key("zone");
  req->set_operator_("NotIn");
  req->add_values("a");
  EXPECT_TRUE(LabelSelectorMatches(s, labels));  // NotIn matches an absent key
  req->set_operator_("In");
  EXPECT_FALSE(LabelSelectorMatches(s, labels));
  req->set_operator_("Bogus");
  EXPECT_FALSE(LabelSelectorValid(s));
  EXPECT_FALSE(LabelSelectorMatches(s, labels));
}

TEST(NodeSelectorTest, EmptyTermMatchesNothingAndGtLtParseIntegers) {
  k8s::Node n = NodeWithLabels({{"cores", "8"}});
  k8s::NodeSelectorTerm empty;
  EXPECT_FALSE(NodeSelectorTermMatches(empty, n));

  k8s::NodeSelectorTerm t;
  auto* r = t.add_match_expressions();
  r->set_key("cores");
  r->set_operator_("Gt");
  r->add_values("4");
  EXPECT_TRUE(NodeSelectorTermMatches(t, n));
  r->set_operator_("Lt");
  EXPECT_FALSE(NodeSelectorTermMatches(t, n));
  r->set_values(0, "x");
  EXPECT_FALSE(NodeSelectorTermMatches(t, n));
}

// labels.NewRequirement (v0.27.8) validates every value as a label value, Gt/Lt operands as
// int64 too; the API server validates only a node selector requirement's key, so such terms
// exist, and component-helpers' nodeaffinity makes a term with a parse error match nothing.
TEST(NodeSelectorTest, RequirementsThatDoNotParseMatchNothing) {
  k8s::Node n = NodeWithLabels({{"zone", "a"}, {"rank", "5"}});
  auto term = [](const std::string& key, const std::string& op, std::vector<std::string> values) {
    k8s::NodeSelectorTerm t;
    auto* r = t.add_match_expressions();
    r->set_key(key);
    r->set_operator_(op);
    for (auto& v : values) r->add_values(v);
    return t;
  };
  EXPECT_TRUE(NodeSelectorTermMatches(term("zone", "In", {"a", "b"}), n));
  EXPECT_FALSE(NodeSelectorTermMatches(term("zone", "In", {"a", "has space"}), n));
  EXPECT_FALSE(NodeSelectorTermMatches(term("zone", "NotIn", {"b", std::string(64, 'x')}), n));
  EXPECT_TRUE(NodeSelectorTermMatches(term("zone", "NotIn", {"b", std::string(63, 'x')}), n));
  EXPECT_FALSE(
      NodeSelectorTermMatches(term("rank", "Gt", {"-1"}), n));  // an integer, not a label value
  EXPECT_FALSE(NodeSelectorTermMatches(term("rank", "Lt", {"+9"}), n));
  EXPECT_TRUE(NodeSelectorTermMatches(term("rank", "Lt", {"009"}), n));
}

// The messages as v0.27.8 prints them (captured from component-helpers'
// nodeaffinity.NewPreferredSchedulingTerms on the same requirements).
TEST(NodeSelectorTest, RequirementErrorsAsUpstreamPrintsThem) {
  const std::string kLabelMsg =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and "
      "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
      "'12345', "
      "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  k8s::NodeSelectorRequirement r;
  r.set_key("kubernetes.io/hostname");
  r.set_operator_("In");
  r.add_values("n1");
  r.add_values("has space");
  EXPECT_EQ(NodeSelectorRequirementErrors(r, "[0].matchExpressions[0]", false),
            std::vector<std::string>{
                "[0].matchExpressions[0].values[1][kubernetes.io/hostname]: Invalid value: "
                "\"has space\": " +
                kLabelMsg});
  k8s::NodeSelectorRequirement gt;
  gt.set_key("rank");
  gt.set_operator_("Lt");
  gt.add_values("1.5");
  EXPECT_EQ(NodeSelectorRequirementErrors(gt, "[1].matchExpressions[0]", false),
            std::vector<std::string>{
                "[1].matchExpressions[0].values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' "
                "operators, the value must be an integer"});
  k8s::NodeSelectorRequirement longer;
  longer.set_key("k");
  longer.set_operator_("NotIn");
  longer.add_values(std::string(64, 'x'));
  EXPECT_EQ(NodeSelectorRequirementErrors(longer, "p", false),
            std::vector<std::string>{"p.values[0][k]: Invalid value: \"" + std::string(64, 'x') +
                                     "\": must be no more than 63 characters"});
  EXPECT_EQ(AggregateError({"a", "b", "a"}), "[a, b]");
  EXPECT_EQ(AggregateError({"a"}), "a");
  EXPECT_EQ(GoQuote("caf\xc3\xa9 \"q\"\n\x01"), "\"caf\xc3\xa9 \\\"q\\\"\\n\\x01\"");
  int64_t v = 0;
  EXPECT_TRUE(GoParseInt64("+5", &v) && v == 5);
  EXPECT_TRUE(GoParseInt64("-9223372036854775808", &v) && v == INT64_MIN);
  EXPECT_FALSE(GoParseInt64("9223372036854775808", &v));
  EXPECT_FALSE(GoParseInt64("+-5", &v));
  EXPECT_FALSE(GoParseInt64("", &v));
  EXPECT_FALSE(GoParseInt64(" 5", &v));
}

TEST(NodeSelectorTest, MatchFieldsOnlyByName) {
  k8s::NodeSelectorTerm t;
  auto* f = t.add_match_fields();
  f->set_key("metadata.name");
  f->set_operator_("In");
  f->add_values("n1");
  EXPECT_TRUE(NodeSelectorTermMatches(t, NodeWithLabels({}, "n1")));
  EXPECT_FALSE(NodeSelectorTermMatches(t, NodeWithLabels({}, "n2")));
  f->set_key("metadata.uid");
  EXPECT_FALSE(NodeSelectorTermMatches(t, NodeWithLabels({}, "n1")));
}

TEST(TolerationTest, UpstreamRules) {
  k8s::Taint taint;
  taint.set_key("k");
  taint.set_value("v");
  taint.set_effect("NoSchedule");
  k8s::Toleration t;
  t.set_key("k");
  t.set_value("v");
  EXPECT_TRUE(TolerationToleratesTaint(t, taint));  // empty operator = Equal, empty effect = all
  t.set_value("w");
  EXPECT_FALSE(TolerationToleratesTaint(t, taint));
  t.set_operator_("Exists");
  EXPECT_TRUE(TolerationToleratesTaint(t, taint));
  t.set_effect("NoExecute");
  EXPECT_FALSE(TolerationToleratesTaint(t, taint));
  k8s::Toleration all;
  all.set_operator_("Exists");
  EXPECT_TRUE(TolerationToleratesTaint(all, taint));
}

}  // namespace
}  // namespace schedcheck::reference
