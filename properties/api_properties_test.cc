// Properties of the API layer the plugins stand on: quantity parsing, label / node selector
// algebra, tolerations, and the pod's effective requests.
#include <string>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/accel/base/compiled_node_selector.h"
#include "reference/api/quantity.h"
#include "reference/api/selectors.h"

namespace schedcheck::properties {
namespace {

using reference::ParseResourceQuantity;

int64_t Parse(const std::string& resource, const std::string& text) {
  auto v = ParseResourceQuantity(resource, text);
  if (!v.ok()) RC_FAIL(text + ": " + v.message());
  return *v;
}

// Suffixes scale exactly: binary (Ki Mi Gi), decimal SI (k M G) and exponents (e3, E6).
RC_GTEST_PROP(ApiProperties, QuantitySuffixesScaleExactly, ()) {
  const int64_t n = *rc::gen::inRange<int64_t>(0, 1000000);
  const std::string s = std::to_string(n);
  RC_ASSERT(Parse("memory", s) == n);
  RC_ASSERT(Parse("memory", s + "Ki") == n << 10);
  RC_ASSERT(Parse("memory", s + "Mi") == n << 20);
  RC_ASSERT(Parse("memory", s + "Gi") == n << 30);
  RC_ASSERT(Parse("memory", s + "k") == n * 1000);
  RC_ASSERT(Parse("memory", s + "M") == n * 1000000);
  RC_ASSERT(Parse("memory", s + "G") == n * 1000000000);
  RC_ASSERT(Parse("memory", s + "e3") == n * 1000);
  RC_ASSERT(Parse("memory", s + "E6") == n * 1000000);
}

// cpu is kept in millicores: "N" = 1000N, "Nm" = N, "N.d" = N*1000 + d*100; other resources
// round a fractional value up ("1500m" memory = 2).
RC_GTEST_PROP(ApiProperties, QuantityMillisAndRounding, ()) {
  const int64_t n = *rc::gen::inRange<int64_t>(0, 100000);
  const int d = *rc::gen::inRange(0, 10);
  RC_ASSERT(Parse("cpu", std::to_string(n)) == n * 1000);
  RC_ASSERT(Parse("cpu", std::to_string(n) + "m") == n);
  RC_ASSERT(Parse("cpu", std::to_string(n) + "." + std::to_string(d)) == n * 1000 + d * 100);
  RC_ASSERT(Parse("memory", std::to_string(n) + "m") == (n + 999) / 1000);
  RC_ASSERT(Parse("memory", std::to_string(n) + "." + std::to_string(d)) == n + (d > 0 ? 1 : 0));
}

google::protobuf::Map<std::string, std::string> SomeLabels() {
  google::protobuf::Map<std::string, std::string> labels;
  for (const char* k : {"a", "b"}) {
    if (*rc::gen::arbitrary<bool>()) labels[k] = *rc::gen::element<std::string>("x", "y", "z");
  }
  return labels;
}

k8s::LabelSelector Expr(const std::string& key, const std::string& op,
                        const std::vector<std::string>& values) {
  k8s::LabelSelector sel;
  auto* r = sel.add_match_expressions();
  r->set_key(key);
  r->set_operator_(op);
  for (const auto& v : values) r->add_values(v);
  return sel;
}

// NotIn = not In when the key is present, and true when it is absent; Exists = not
// DoesNotExist; matchLabels {k: v} = In [v]; two requirements = both (AND); the reference agrees
// with the oracle's matcher.
RC_GTEST_PROP(ApiProperties, LabelSelectorAlgebra, ()) {
  const auto labels = SomeLabels();
  const std::string key = *rc::gen::element<std::string>("a", "b");
  const std::vector<std::string> values = {*rc::gen::element<std::string>("x", "y"),
                                           *rc::gen::element<std::string>("y", "z")};
  const bool present = labels.count(key) > 0;
  const bool in = reference::LabelSelectorMatches(Expr(key, "In", values), labels);
  const bool not_in = reference::LabelSelectorMatches(Expr(key, "NotIn", values), labels);
  RC_ASSERT(not_in == (!present || !in));
  RC_ASSERT(!in || present);
  RC_ASSERT(reference::LabelSelectorMatches(Expr(key, "Exists", {}), labels) == present);
  RC_ASSERT(reference::LabelSelectorMatches(Expr(key, "DoesNotExist", {}), labels) == !present);
  k8s::LabelSelector ml;
  (*ml.mutable_match_labels())[key] = values[0];
  RC_ASSERT(reference::LabelSelectorMatches(ml, labels) ==
            reference::LabelSelectorMatches(Expr(key, "In", {values[0]}), labels));
  k8s::LabelSelector both = Expr(key, "In", values);
  *both.add_match_expressions() = Expr("b", "Exists", {}).match_expressions(0);
  RC_ASSERT(reference::LabelSelectorMatches(both, labels) == (in && labels.count("b") > 0));
  for (const auto& sel : {Expr(key, "In", values), Expr(key, "NotIn", values), both, ml}) {
    RC_ASSERT(reference::LabelSelectorMatches(sel, labels) == OracleSelectorMatches(sel, labels));
  }
}

// Node selector Gt / Lt compare integer label values; a missing or non-integer label matches
// neither; In/NotIn behave as for label selectors. A negative operand ("-5") is an integer but
// not a label value, which labels.NewRequirement also requires of every value: upstream's
// requirement does not parse and matches no node, whatever the operator.
RC_GTEST_PROP(ApiProperties, NodeSelectorGtLt, ()) {
  const int64_t have = *rc::gen::inRange<int64_t>(-50, 50);
  const int64_t want = *rc::gen::inRange<int64_t>(-50, 50);
  google::protobuf::Map<std::string, std::string> labels;
  const bool present = *rc::gen::arbitrary<bool>();
  if (present) labels["n"] = std::to_string(have);
  k8s::NodeSelectorRequirement r;
  r.set_key("n");
  r.add_values(std::to_string(want));
  const bool parses = want >= 0;
  r.set_operator_("Gt");
  RC_ASSERT(reference::NodeSelectorRequirementMatches(r, labels) ==
            (parses && present && have > want));
  r.set_operator_("Lt");
  RC_ASSERT(reference::NodeSelectorRequirementMatches(r, labels) ==
            (parses && present && have < want));
  r.set_operator_("NotIn");
  RC_ASSERT(reference::NodeSelectorRequirementMatches(r, labels) ==
            (parses && (!present || have != want)));
}

// The compiled node selector (interned labels) decides exactly as the proto walk, for random
// terms over a small label alphabet (every operator, bad operand counts, unknown operators,
// metadata.name fields and empty terms included).
RC_GTEST_PROP(ApiProperties, CompiledNodeSelectorAgreesWithProtoWalk, ()) {
  const std::vector<std::string> keys = {"a", "b", "n"};
  const std::vector<std::string> values = {"", "x", "y", "7", "-3", "+2", "z9", "a b"};
  const std::vector<std::string> ops = {"In", "NotIn", "Exists", "DoesNotExist",
                                        "Gt", "Lt",    "Bogus"};
  k8s::Node node;
  node.mutable_metadata()->set_name(*rc::gen::elementOf(std::vector<std::string>{"n1", "n2"}));
  for (const std::string& k : keys) {
    if (*rc::gen::arbitrary<bool>())
      (*node.mutable_metadata()->mutable_labels())[k] = *rc::gen::elementOf(values);
  }
  auto built = reference::BuildNode(node);
  RC_ASSERT(built.ok());
  k8s::NodeSelector selector;
  const int terms = *rc::gen::inRange(0, 3);
  for (int t = 0; t < terms; ++t) {
    k8s::NodeSelectorTerm* term = selector.add_node_selector_terms();
    const int exprs = *rc::gen::inRange(0, 3);
    for (int e = 0; e < exprs; ++e) {
      k8s::NodeSelectorRequirement* r = term->add_match_expressions();
      r->set_key(*rc::gen::elementOf(keys));
      r->set_operator_(*rc::gen::elementOf(ops));
      const int n = *rc::gen::inRange(0, 3);
      for (int v = 0; v < n; ++v) r->add_values(*rc::gen::elementOf(values));
    }
    if (*rc::gen::inRange(0, 4) == 0) {
      k8s::NodeSelectorRequirement* f = term->add_match_fields();
      f->set_key(*rc::gen::elementOf(std::vector<std::string>{"metadata.name", "metadata.uid"}));
      f->set_operator_(*rc::gen::elementOf(std::vector<std::string>{"In", "NotIn", "Exists"}));
      f->add_values(*rc::gen::elementOf(std::vector<std::string>{"n1", "n2"}));
    }
  }
  const reference::CompiledNodeSelector compiled(selector);
  RC_ASSERT(compiled.Matches(**built) == reference::NodeSelectorMatches(selector, (*built)->obj));
  for (const auto& term : selector.node_selector_terms()) {
    RC_ASSERT(reference::CompiledNodeSelectorTerm(term).Matches(**built) ==
              reference::NodeSelectorTermMatches(term, (*built)->obj));
  }
}

// Tolerations: an empty-key Exists toleration with no effect tolerates every taint; an effect
// restricts it; Equal needs the same key and value.
RC_GTEST_PROP(ApiProperties, TolerationMatching, ()) {
  k8s::Taint taint;
  taint.set_key(*rc::gen::element<std::string>("k1", "k2"));
  taint.set_value(*rc::gen::element<std::string>("", "v1", "v2"));
  taint.set_effect(*rc::gen::element<std::string>("NoSchedule", "PreferNoSchedule", "NoExecute"));
  k8s::Toleration all;
  all.set_operator_("Exists");
  RC_ASSERT(reference::TolerationToleratesTaint(all, taint));
  k8s::Toleration t;
  t.set_key(*rc::gen::element<std::string>("k1", "k2"));
  t.set_operator_(*rc::gen::element<std::string>("Equal", "Exists", ""));
  t.set_value(*rc::gen::element<std::string>("", "v1", "v2"));
  t.set_effect(*rc::gen::element<std::string>("", "NoSchedule", "NoExecute"));
  bool effect = t.effect().empty() || t.effect() == taint.effect();
  bool match = t.operator_() == "Exists" ? t.key() == taint.key()
                                         : t.key() == taint.key() && t.value() == taint.value();
  RC_ASSERT(reference::TolerationToleratesTaint(t, taint) == (effect && match));
}

// BuildPod's effective requests are max(sum of containers, max of init containers) + overhead,
// computed independently by the oracle.
RC_GTEST_PROP(ApiProperties, EffectiveRequestsUseInitMaxAndOverhead, ()) {
  const k8s::Pod obj = *PodGen("p");
  auto pod = reference::BuildPod(obj, reference::FeaturesFor(reference::CompatLevel::kV1_27));
  RC_ASSERT(pod.ok());
  RC_ASSERT((*pod)->requests.milli_cpu == OracleRequest(obj, "cpu"));
  RC_ASSERT((*pod)->requests.memory == OracleRequest(obj, "memory"));
}

}  // namespace
}  // namespace schedcheck::properties
