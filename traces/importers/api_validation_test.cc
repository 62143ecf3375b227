#include "traces/importers/api_validation.h"

#include <string>

#include <gtest/gtest.h>

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;

// The error ValidateTraceObject / ValidateWorkload give for `object` ("" when accepted).
std::string ErrorOf(const std::string& kind, const std::string& object_text) {
  const Json object = Json::parse(object_text);
  Outcome ok = kind == "Pod" || kind == "Node" || kind == "CSINode"
                   ? ValidateTraceObject(object, kind, "f.yaml: line 3")
                   : ValidateWorkload(object, kind, "f.yaml: line 3");
  return ok ? "" : ok.error().message;
}

TEST(ApiValidationTest, AcceptsWhatAnApiServerAccepts) {
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"hostNetwork": true, "restartPolicy": "Never",
      "preemptionPolicy": "Never",
      "initContainers": [{"name": "s", "restartPolicy": "Always"}],
      "containers": [{"name": "c"}],
      "volumes": [{"name": "a"}, {"name": "b"}],
      "tolerations": [{"operator": "Exists"}, {"key": "k", "value": "v", "effect": "NoSchedule"},
                      {"key": "k", "operator": "Exists", "effect": "NoExecute",
                       "tolerationSeconds": 30}]}})"),
            "");
  EXPECT_EQ(ErrorOf("Node", R"({"spec": {"taints": [{"key": "a", "effect": "NoSchedule"},
      {"key": "a", "effect": "NoExecute"}]}})"),
            "");
  EXPECT_EQ(ErrorOf("CSINode", R"({"spec": {"drivers": [{"name": "a", "allocatable":
      {"count": 0}}, {"name": "b"}]}})"),
            "");
  EXPECT_EQ(ErrorOf("Job", R"({"spec": {"suspend": true, "completionMode": "Indexed",
      "template": {"spec": {"restartPolicy": "Never"}}}})"),
            "");
  EXPECT_EQ(ErrorOf("StatefulSet", R"({"spec": {"ordinals": {"start": 5},
      "podManagementPolicy": "Parallel", "volumeClaimTemplates": [{"metadata": {"name": "a"}},
      {"metadata": {"name": "b"}}], "template": {"spec": {"restartPolicy": "Always"}}}})"),
            "");
  EXPECT_EQ(ErrorOf("PodTemplate", R"({"template": {"spec": {"restartPolicy": "Never"}}})"), "");
}

TEST(ApiValidationTest, RefusesWrongTypes) {
  EXPECT_EQ(ErrorOf("DaemonSet", R"({"spec": {"template": {"spec": {"hostNetwork": "yes"}}}})"),
            "f.yaml: line 3: field spec.template.spec.hostNetwork: expected a boolean, got string");
  EXPECT_EQ(ErrorOf("DaemonSet", R"({"spec": {"template": {"spec": {"tolerations": "all"}}}})"),
            "f.yaml: line 3: field spec.template.spec.tolerations: expected a list, got string");
  EXPECT_EQ(ErrorOf("Job", R"({"spec": {"suspend": "true"}})"),
            "f.yaml: line 3: field spec.suspend: expected a boolean, got string");
  EXPECT_EQ(ErrorOf("StatefulSet", R"({"spec": {"ordinals": 7}})"),
            "f.yaml: line 3: field spec.ordinals: expected an object, got number");
  EXPECT_EQ(ErrorOf("StatefulSet", R"({"spec": {"ordinals": {"start": -1}}})"),
            "f.yaml: line 3: field spec.ordinals.start: must be an integer greater than or equal "
            "to 0, got -1");
  EXPECT_EQ(ErrorOf("Deployment", R"({"spec": []})"),
            "f.yaml: line 3: field spec: expected an object, got array");
}

TEST(ApiValidationTest, RefusesUnknownEnumValues) {
  EXPECT_EQ(ErrorOf("Job", R"({"spec": {"completionMode": "Sometimes"}})"),
            "f.yaml: line 3: field spec.completionMode: unsupported value \"Sometimes\" "
            "(supported: \"NonIndexed\", \"Indexed\")");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"initContainers": [{"name": "i"},
      {"name": "j", "restartPolicy": "Never"}]}})"),
            "f.yaml: line 3: field spec.initContainers[1].restartPolicy: unsupported value "
            "\"Never\" (supported: \"Always\")");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"restartPolicy": "Sometimes"}})"),
            "f.yaml: line 3: field spec.restartPolicy: unsupported value \"Sometimes\" "
            "(supported: \"Always\", \"OnFailure\", \"Never\")");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"preemptionPolicy": "Always"}})"),
            "f.yaml: line 3: field spec.preemptionPolicy: unsupported value \"Always\" "
            "(supported: \"PreemptLowerPriority\", \"Never\")");
  EXPECT_EQ(ErrorOf("StatefulSet", R"({"spec": {"podManagementPolicy": "Random"}})"),
            "f.yaml: line 3: field spec.podManagementPolicy: unsupported value \"Random\" "
            "(supported: \"OrderedReady\", \"Parallel\")");
  // The restart policies a controller's template may have.
  EXPECT_EQ(ErrorOf("Deployment", R"({"spec": {"template": {"spec": {"restartPolicy":
      "Never"}}}})"),
            "f.yaml: line 3: field spec.template.spec.restartPolicy: unsupported value \"Never\" "
            "(supported: \"Always\")");
  EXPECT_EQ(ErrorOf("Job", R"({"spec": {"template": {"spec": {"restartPolicy": "Always"}}}})"),
            "f.yaml: line 3: field spec.template.spec.restartPolicy: unsupported value \"Always\" "
            "(supported: \"OnFailure\", \"Never\")");
}

TEST(ApiValidationTest, RefusesTolerationsUpstreamRefuses) {
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [{"key": "k", "operator": "Maybe"}]}})"),
            "f.yaml: line 3: field spec.tolerations[0].operator: unsupported value \"Maybe\" "
            "(supported: \"Exists\", \"Equal\")");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [{"key": "k", "effect": "Soon"}]}})"),
            "f.yaml: line 3: field spec.tolerations[0].effect: unsupported value \"Soon\" "
            "(supported: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\")");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [{"value": "v"}]}})"),
            "f.yaml: line 3: field spec.tolerations[0].operator: value must be Exists when `key` "
            "is empty, which means \"match all values and all keys\"");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [{"key": "k", "operator": "Exists",
      "value": "v"}]}})"),
            "f.yaml: line 3: field spec.tolerations[0].operator: value must be empty when "
            "`operator` is Exists");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [{"operator": "Exists"},
      {"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}]}})"),
            "f.yaml: line 3: field spec.tolerations[1].effect: effect must be NoExecute when "
            "`tolerationSeconds` is set");
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"tolerations": [7]}})"),
            "f.yaml: line 3: field spec.tolerations[0]: expected an object, got number");
}

TEST(ApiValidationTest, RefusesDuplicateNames) {
  EXPECT_EQ(ErrorOf("Pod", R"({"spec": {"volumes": [{"name": "a"}, {"name": "a"}]}})"),
            "f.yaml: line 3: field spec.volumes[1].name: duplicate value \"a\"");
  EXPECT_EQ(ErrorOf("StatefulSet", R"({"spec": {"volumeClaimTemplates": [
      {"metadata": {"name": "data"}}, {"metadata": {"name": "data"}}]}})"),
            "f.yaml: line 3: field spec.volumeClaimTemplates[1].metadata.name: duplicate value "
            "\"data\"");
  EXPECT_EQ(ErrorOf("CSINode", R"({"spec": {"drivers": [{"name": "d"}, {"name": "d"}]}})"),
            "f.yaml: line 3: field spec.drivers[1].name: duplicate value \"d\"");
  EXPECT_EQ(ErrorOf("Node", R"({"spec": {"taints": [{"key": "a", "effect": "NoSchedule"},
      {"key": "a", "effect": "NoSchedule"}]}})"),
            "f.yaml: line 3: field spec.taints[1]: duplicate taint key \"a\" and effect "
            "\"NoSchedule\"");
}

TEST(ApiValidationTest, RefusesIncompleteTaintsAndNegativeCounts) {
  EXPECT_EQ(ErrorOf("Node", R"({"spec": {"taints": [{"effect": "NoSchedule"}]}})"),
            "f.yaml: line 3: field spec.taints[0].key: required value");
  EXPECT_EQ(ErrorOf("Node", R"({"spec": {"taints": [{"key": "a"}]}})"),
            "f.yaml: line 3: field spec.taints[0].effect: required value");
  EXPECT_EQ(ErrorOf("Node", R"({"spec": {"taints": [{"key": "a", "effect": "Never"}]}})"),
            "f.yaml: line 3: field spec.taints[0].effect: unsupported value \"Never\" "
            "(supported: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\")");
  EXPECT_EQ(ErrorOf("CSINode", R"({"spec": {"drivers": [{"name": "d", "allocatable":
      {"count": -1}}]}})"),
            "f.yaml: line 3: field spec.drivers[0].allocatable.count: must be greater than or "
            "equal to 0, got -1");
}

}  // namespace
}  // namespace schedcheck::trace
