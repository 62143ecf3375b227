#include "reference/k8s/k8s_json.h"

#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/selector_kinds_testing.h"

namespace schedcheck::k8s {
namespace {

TEST(K8sJsonTest, YamlPodWithBareNumbersDecodes) {
  auto docs = ParseYamlDocuments(R"(
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {tier: 1, app: web}
  managedFields: [{manager: kubectl}]
spec:
  priority: 10
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 2, memory: "1Gi"}
    ports: [{containerPort: 80, hostPort: 8080, hostIP: "127.0.0.1"}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {}
        topologyKey: zone
---
kind: Node
metadata: {name: n1}
spec:
  unschedulable: true
status:
  allocatable: {cpu: "4", pods: 110}
)",
                                 "test.yaml");
  ASSERT_TRUE(docs.ok()) << docs.message();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[1].line, 22);  // "kind: Node" after the separator
  Result<k8s::Pod> pod = PodFromJson((*docs)[0].json, "doc0");
  ASSERT_TRUE(pod.ok()) << pod.message();
  EXPECT_EQ(pod->metadata().labels().at("tier"), "1");
  EXPECT_EQ(pod->spec().priority(), 10);
  EXPECT_EQ(pod->spec().containers(0).resources().requests().at("cpu"), "2");
  EXPECT_EQ(pod->spec().containers(0).ports(0).host_ip(), "127.0.0.1");
  const auto& term = pod->spec()
                         .affinity()
                         .pod_anti_affinity()
                         .required_during_scheduling_ignored_during_execution(0);
  EXPECT_TRUE(term.has_label_selector());  // empty selector is present, not nil
  EXPECT_FALSE(term.has_namespace_selector());
  Result<k8s::Node> node = NodeFromJson((*docs)[1].json, "doc1");
  ASSERT_TRUE(node.ok()) << node.message();
  EXPECT_TRUE(node->spec().unschedulable());
  EXPECT_EQ(node->status().allocatable().at("pods"), "110");
}

TEST(K8sJsonTest, TypeErrorsNameTheField) {
  auto json = nlohmann::json::parse(R"({"metadata":{"name":"p"},"spec":{"priority":"high"}})");
  Result<k8s::Pod> pod = PodFromJson(json, "cases.json: pods[2]");
  ASSERT_FALSE(pod.ok());
  EXPECT_NE(pod.message().find("cases.json: pods[2]"), std::string::npos) << pod.message();
  EXPECT_NE(pod.message().find("priority"), std::string::npos) << pod.message();
}

TEST(K8sJsonTest, YamlSyntaxErrorHasLine) {
  auto docs = ParseYamlDocuments("a: 1\nb: [1, 2\n", "bad.yaml");
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.message().find("bad.yaml: line"), std::string::npos) << docs.message();
}

// A YAML document with `levels` nested flow sequences ([[[...]]]).
std::string NestedYaml(int levels) {
  return "a: " + std::string(levels, '[') + std::string(levels, ']') + "\n";
}

TEST(K8sJsonTest, YamlDepthLimitNamesTheOptionAndCanBeRaised) {
  // The mapping is the first level: 100 levels in all pass by default, 101 do not.
  EXPECT_TRUE(ParseYamlDocuments(NestedYaml(99), "deep.yaml").ok());
  auto deep = ParseYamlDocuments(NestedYaml(100), "deep.yaml");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.message().find("deep.yaml: line 1, column "), std::string::npos) << deep.message();
  EXPECT_NE(deep.message().find("YAML nesting deeper than 100 levels, the limit yaml-depth=100 "
                                "(raise it with --limit yaml-depth=N)"),
            std::string::npos)
      << deep.message();
  EXPECT_TRUE(ParseYamlDocuments(NestedYaml(100), "deep.yaml", {.depth = 101}).ok());
  EXPECT_FALSE(ParseYamlDocuments(NestedYaml(10), "deep.yaml", {.depth = 10}).ok());
}

// Far beyond the limit, yaml-cpp's own recursion guard (about 500 levels) would throw "bad file"
// before the document ends: the limit's message must win, and past yaml-cpp's guard with a raised
// limit the message still says nesting, not "bad file".
TEST(K8sJsonTest, YamlFarTooDeepStillNamesTheDepthLimit) {
  for (int levels : {499, 500, 1000, 5000}) {
    auto deep = ParseYamlDocuments("k: 1\n" + NestedYaml(levels), "deep.yaml");
    ASSERT_FALSE(deep.ok()) << levels;
    EXPECT_EQ(deep.message(),
              "deep.yaml: line 2, column 103: YAML nesting deeper than 100 levels, the limit "
              "yaml-depth=100 (raise it with --limit yaml-depth=N)")
        << levels;
  }
  auto beyond = ParseYamlDocuments(NestedYaml(1000), "deep.yaml", {.depth = 100000});
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.message().find("deep.yaml: line 1, column "), 0u) << beyond.message();
  EXPECT_NE(beyond.message().find("YAML nesting deeper than"), std::string::npos)
      << beyond.message();
  EXPECT_EQ(beyond.message().find("bad file"), std::string::npos) << beyond.message();
}

TEST(K8sJsonTest, YamlFieldLineFindsKeysAndItems) {
  const std::string text =
      "---\n"                                            // 1
      "apiVersion: v1\n"                                 // 2
      "profiles:\n"                                      // 3
      "  - schedulerName: a\n"                           // 4
      "  - schedulerName: b\n"                           // 5
      "    plugins:\n"                                   // 6
      "      score: {enabled: [{name: X, weight: 2},\n"  // 7
      "                        {name: Y}]}\n"            // 8
      "a.b: 1\n";                                        // 9
  EXPECT_EQ(YamlFieldLine(text, "apiVersion"), 2);
  EXPECT_EQ(YamlFieldLine(text, "profiles"), 3);
  EXPECT_EQ(YamlFieldLine(text, "profiles[1]"), 5);
  EXPECT_EQ(YamlFieldLine(text, "profiles[1].schedulerName"), 5);
  EXPECT_EQ(YamlFieldLine(text, "profiles[1].plugins.score.enabled[1].name"), 8);
  EXPECT_EQ(YamlFieldLine(text, "a.b"), 9);
  // Absent: the deepest part that is there; nothing at all: 0.
  EXPECT_EQ(YamlFieldLine(text, "profiles[1].percentageOfNodesToScore"), 5);
  EXPECT_EQ(YamlFieldLine(text, "profiles[7].schedulerName"), 3);
  EXPECT_EQ(YamlFieldLine(text, "kind"), 0);
  EXPECT_EQ(YamlFieldLine("a: [1, 2\n", "a"), 0);  // not YAML
}

TEST(K8sJsonTest, YamlAliasLimitNamesTheOptionAndCanBeRaised) {
  // *a stands for 3 nodes (the sequence and its two items): three aliases expand to 9.
  const std::string text = "a: &a [1, 1]\nb: [*a, *a, *a]\n";
  EXPECT_TRUE(ParseYamlDocuments(text, "alias.yaml").ok());
  EXPECT_TRUE(ParseYamlDocuments(text, "alias.yaml", {.alias_nodes = 9}).ok());
  auto tight = ParseYamlDocuments(text, "alias.yaml", {.alias_nodes = 8});
  ASSERT_FALSE(tight.ok());
  EXPECT_NE(tight.message().find("alias.yaml: line 2, column "), std::string::npos)
      << tight.message();
  EXPECT_NE(tight.message().find("aliases expand to more than 8 YAML nodes, the limit "
                                 "yaml-alias-nodes=8 (raise it with --limit yaml-alias-nodes=N)"),
            std::string::npos)
      << tight.message();
}

TEST(K8sJsonTest, RoundTripKeepsKubernetesNames) {
  k8s::Pod pod;
  pod.mutable_metadata()->set_name("p");
  pod.mutable_spec()->set_node_name("n1");
  std::string json = ToJson(pod);
  EXPECT_NE(json.find("\"nodeName\":\"n1\""), std::string::npos) << json;
  Result<k8s::Pod> back = PodFromJson(nlohmann::json::parse(json), "rt");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->spec().node_name(), "n1");
}

// The selector kinds: namespace, name and selector survive (bare YAML numbers become label
// values), replicas and templates are dropped, and Kubernetes JSON round-trips (inside a trace
// Record: traces/record_json_test.cc).
TEST(K8sJsonTest, SelectorKindsRoundTrip) {
  auto kinds = testing::ParseSelectorKinds();
  ASSERT_TRUE(kinds.ok()) << kinds.message();
  const Service& service = kinds->service;
  const ReplicationController& rc = kinds->replication_controller;
  const ReplicaSet& rs = kinds->replica_set;
  const StatefulSet& ss = kinds->stateful_set;
  EXPECT_EQ(service.metadata().namespace_(), "shop");
  EXPECT_EQ(service.spec().selector().at("tier"), "1");
  EXPECT_EQ(rc.spec().selector().at("app"), "old");
  EXPECT_EQ(rs.spec().selector().match_labels().at("version"), "2");
  EXPECT_EQ(rs.spec().selector().match_expressions(0).operator_(), "NotIn");
  EXPECT_TRUE(rs.metadata().owner_references(0).controller());
  EXPECT_EQ(ss.spec().selector().match_labels().at("app"), "db");
  const std::string rs_json = ToJson(rs);
  EXPECT_EQ(rs_json.find("replicas"), std::string::npos) << rs_json;
  EXPECT_EQ(rs_json.find("template"), std::string::npos) << rs_json;
  auto rs_back = ReplicaSetFromJson(nlohmann::json::parse(rs_json), "rt");
  ASSERT_TRUE(rs_back.ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(rs, *rs_back));
  auto service_back = ServiceFromJson(nlohmann::json::parse(ToJson(service)), "rt");
  ASSERT_TRUE(service_back.ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(service, *service_back));
}

}  // namespace
}  // namespace schedcheck::k8s

namespace schedcheck::k8s {
namespace {

TEST(JsonDepthTest, NestingBeyondTheLimitIsRefusedWhereItStarts) {
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(JsonTooDeepAt(at_limit), std::string_view::npos);
  EXPECT_TRUE(ParseJson(at_limit, "a.json").ok());
  // Brackets inside strings (escaped quotes included) do not nest.
  const std::string in_string = "{\"k\": \"\\\"" + std::string(2 * kMaxJsonDepth, '[') + "\"}";
  EXPECT_EQ(JsonTooDeepAt(in_string), std::string_view::npos);
  const std::string deeper =
      "{\"a\": " + std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']') + "}";
  EXPECT_EQ(JsonTooDeepAt(deeper), 6u + kMaxJsonDepth - 1);
  auto parsed = ParseJson(deeper, "a.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.message(), "a.json: byte " + std::to_string(6 + kMaxJsonDepth) +
                                  ": JSON: nested deeper than 1000 levels (kMaxJsonDepth)");
}

}  // namespace
}  // namespace schedcheck::k8s
