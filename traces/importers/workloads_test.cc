#include "traces/importers/workloads.h"

#include <gtest/gtest.h>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::trace {
namespace {

using Json = nlohmann::json;

Json Template(Json labels = {{"app", "web"}}) {
  return {{"metadata", {{"labels", labels}}},
          {"spec", {{"containers", Json::array({{{"name", "c"}, {"image", "nginx"}}})}}}};
}

Json Workload(const std::string& kind, const std::string& name, Json spec) {
  return {{"apiVersion", "apps/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}, {"namespace", "prod"}}},
          {"spec", spec}};
}

k8s::Node MakeNode(const std::string& name, Json labels = Json::object(),
                   Json taints = Json::array()) {
  Json n = {{"kind", "Node"},
            {"metadata", {{"name", name}, {"labels", labels}}},
            {"spec", {{"taints", taints}}}};
  return *k8s::NodeFromJson(n, "test");
}

k8s::Pod AsPod(const Json& j) {
  auto pod = k8s::PodFromJson(j, "test");
  EXPECT_TRUE(pod.ok()) << pod.message();
  return pod.ok() ? *pod : k8s::Pod();
}

std::vector<Json> Expand(const Json& w, const std::vector<k8s::Node>& nodes = {}) {
  auto out = ExpandWorkload(w, "w.yaml: line 1", nodes);
  EXPECT_TRUE(out.ok()) << out.message();
  return out.ok() ? *out : std::vector<Json>{};
}

TEST(GeneratedSuffixTest, CountsInTheSafeAlphabet) {
  EXPECT_EQ(GeneratedSuffix(0), "bbbbb");
  EXPECT_EQ(GeneratedSuffix(1), "bbbbc");
  EXPECT_EQ(GeneratedSuffix(27), "bbbcb");
  EXPECT_EQ(GeneratedSuffix(27 * 27 * 27 * 27 * 27 - 1), "99999");
}

TEST(WorkloadsTest, ReplicaSetMakesReplicasPodsOwnedByIt) {
  Json rs = Workload("ReplicaSet", "front", {{"replicas", 3}, {"template", Template()}});
  rs["metadata"]["uid"] = "u-1";
  std::vector<Json> out = Expand(rs);
  ASSERT_EQ(out.size(), 3u);
  for (size_t i = 0; i < out.size(); ++i) {
    k8s::Pod pod = AsPod(out[i]);
    EXPECT_EQ(pod.metadata().name(), "front-" + GeneratedSuffix(static_cast<int64_t>(i)));
    EXPECT_EQ(pod.metadata().namespace_(), "prod");
    EXPECT_EQ(pod.metadata().labels().at("app"), "web");
    ASSERT_EQ(pod.metadata().owner_references_size(), 1);
    const k8s::OwnerReference& ref = pod.metadata().owner_references(0);
    EXPECT_EQ(ref.api_version(), "apps/v1");
    EXPECT_EQ(ref.kind(), "ReplicaSet");
    EXPECT_EQ(ref.name(), "front");
    EXPECT_EQ(ref.uid(), "u-1");
    EXPECT_TRUE(ref.controller());
    EXPECT_TRUE(pod.spec().node_name().empty());
  }
}

TEST(WorkloadsTest, ReplicasDefaultToOneAndZeroMakesNone) {
  EXPECT_EQ(Expand(Workload("ReplicaSet", "a", {{"template", Template()}})).size(), 1u);
  EXPECT_EQ(Expand(Workload("ReplicaSet", "a", {{"replicas", 0}, {"template", Template()}})).size(),
            0u);
}

TEST(WorkloadsTest, DeploymentMakesItsReplicaSetThenPodsOwnedByTheReplicaSet) {
  Json d = Workload("Deployment", "web",
                    {{"replicas", 2},
                     {"selector", {{"matchLabels", {{"app", "web"}}}}},
                     {"template", Template()}});
  std::vector<Json> out = Expand(d);
  ASSERT_EQ(out.size(), 3u);
  const Json& rs = out[0];
  EXPECT_EQ(rs["kind"], "ReplicaSet");
  const std::string rs_name = rs["metadata"]["name"];
  ASSERT_EQ(rs_name.rfind("web-", 0), 0u);
  const std::string hash = rs_name.substr(4);
  EXPECT_FALSE(hash.empty());
  EXPECT_EQ(hash.find('-'), std::string::npos);
  EXPECT_EQ(rs["spec"]["selector"]["matchLabels"]["pod-template-hash"], hash);
  EXPECT_EQ(rs["spec"]["selector"]["matchLabels"]["app"], "web");
  EXPECT_EQ(rs["metadata"]["ownerReferences"][0]["kind"], "Deployment");
  for (size_t i = 1; i < out.size(); ++i) {
    k8s::Pod pod = AsPod(out[i]);
    EXPECT_EQ(pod.metadata().name(), rs_name + "-" + GeneratedSuffix(static_cast<int64_t>(i - 1)));
    EXPECT_EQ(pod.metadata().labels().at("pod-template-hash"), hash);
    EXPECT_EQ(pod.metadata().owner_references(0).kind(), "ReplicaSet");
    EXPECT_EQ(pod.metadata().owner_references(0).name(), rs_name);
  }
  // Same template, same name; another template, another hash.
  EXPECT_EQ(Expand(d)[0]["metadata"]["name"], rs_name);
  Json other = d;
  other["spec"]["template"] = Template({{"app", "web"}, {"v", "2"}});
  EXPECT_NE(Expand(other)[0]["metadata"]["name"], rs_name);
}

// Per ordinal the claims of every claim template (getPersistentVolumeClaims), then the pod with a
// volume per template named as the template (updateStorage).
TEST(WorkloadsTest, StatefulSetMakesClaimsThenPodsWithClaimVolumes) {
  Json tmpl = Template({{"app", "db"}});
  // A template volume named as a claim template is replaced by the claim; others stay.
  tmpl["spec"]["volumes"] = Json::array({{{"name", "data"}, {"emptyDir", Json::object()}},
                                         {{"name", "config"}, {"emptyDir", Json::object()}}});
  Json data = {{"metadata",
                {{"name", "data"},
                 {"labels", {{"app", "other"}, {"tier", "storage"}}},
                 {"resourceVersion", "3"}}},
               {"spec",
                {{"accessModes", {"ReadWriteOnce"}},
                 {"storageClassName", "fast"},
                 {"resources", {{"requests", {{"storage", "1Gi"}}}}}}},
               {"status", {{"phase", "Bound"}}}};
  Json logs = {{"metadata", {{"name", "logs"}}},
               {"spec", {{"resources", {{"requests", {{"storage", "5Gi"}}}}}}}};
  Json ss = Workload("StatefulSet", "db",
                     {{"replicas", 3},
                      {"selector", {{"matchLabels", {{"app", "db"}}}}},
                      {"template", tmpl},
                      {"volumeClaimTemplates", Json::array({data, logs})}});
  std::vector<Json> out = Expand(ss);
  ASSERT_EQ(out.size(), 9u);
  int claims = 0;
  for (int i = 0; i < 3; ++i) {
    const std::string ordinal = std::to_string(i);
    for (int t = 0; t < 2; ++t) {
      const Json& json = out[3 * i + t];
      ASSERT_EQ(json["kind"], "PersistentVolumeClaim");
      auto claim = k8s::PersistentVolumeClaimFromJson(json, "test");
      ASSERT_TRUE(claim.ok()) << claim.message();
      ++claims;
      EXPECT_EQ(claim->metadata().name(), (t == 0 ? "data-db-" : "logs-db-") + ordinal);
      EXPECT_EQ(claim->metadata().namespace_(), "prod");
      EXPECT_EQ(claim->metadata().labels().at("app"), "db");  // the selector wins
      EXPECT_EQ(claim->metadata().resource_version(), "");    // the API server's own
      EXPECT_TRUE(claim->metadata().owner_references().empty());
      EXPECT_EQ(claim->spec().resources().requests().at("storage"), t == 0 ? "1Gi" : "5Gi");
      EXPECT_EQ(claim->spec().volume_name(), "");
      EXPECT_EQ(claim->status().phase(), "");  // created unbound
    }
    k8s::Pod pod = AsPod(out[3 * i + 2]);
    EXPECT_EQ(pod.metadata().name(), "db-" + ordinal);
    EXPECT_EQ(pod.metadata().labels().at("statefulset.kubernetes.io/pod-name"), "db-" + ordinal);
    EXPECT_EQ(pod.metadata().owner_references(0).kind(), "StatefulSet");
    ASSERT_EQ(pod.spec().volumes_size(), 3);
    EXPECT_EQ(pod.spec().volumes(0).name(), "data");
    EXPECT_EQ(pod.spec().volumes(0).persistent_volume_claim().claim_name(), "data-db-" + ordinal);
    EXPECT_EQ(pod.spec().volumes(1).name(), "logs");
    EXPECT_EQ(pod.spec().volumes(1).persistent_volume_claim().claim_name(), "logs-db-" + ordinal);
    EXPECT_EQ(pod.spec().volumes(2).name(), "config");
  }
  EXPECT_EQ(claims, 6);
  EXPECT_EQ(out[0]["metadata"]["labels"]["tier"], "storage");  // the template's other labels stay
  ss["spec"]["ordinals"] = {{"start", 5}};
  EXPECT_EQ(Expand(ss)[0]["metadata"]["name"], "data-db-5");
  EXPECT_EQ(Expand(ss)[2]["metadata"]["name"], "db-5");
  ss["spec"]["volumeClaimTemplates"][1]["metadata"].erase("name");
  auto bad = ExpandWorkload(ss, "w.yaml: line 1", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "w.yaml: line 1: field spec.volumeClaimTemplates[1].metadata.name: missing");
}

TEST(WorkloadsTest, GivenClaimsAreNotMadeAgain) {
  GivenOwners owners;
  k8s::ObjectMeta meta;
  meta.set_name("data-db-1");
  meta.set_namespace_("prod");
  owners.AddClaim(meta);
  Json ss = Workload("StatefulSet", "db",
                     {{"replicas", 2},
                      {"template", Template()},
                      {"volumeClaimTemplates", Json::array({{{"metadata", {{"name", "data"}}}}})}});
  std::vector<std::string> made;
  for (const Json& obj : Expand(ss)) {
    if (!owners.HasClaim(obj)) made.push_back(obj["metadata"]["name"].get<std::string>());
  }
  EXPECT_EQ(made, (std::vector<std::string>{"data-db-0", "db-0", "db-1"}));
}

TEST(WorkloadsTest, DaemonSetRunsOnEligibleNodesPinnedWithDefaultTolerations) {
  Json ds = Workload("DaemonSet", "agent", {{"template", Template({{"app", "agent"}})}});
  ds["spec"]["template"]["spec"]["nodeSelector"] = {{"os", "linux"}};
  std::vector<k8s::Node> nodes = {
      MakeNode("n3", {{"os", "linux"}}),
      MakeNode(
          "n1", {{"os", "linux"}},
          Json::array({{{"key", "node.kubernetes.io/unschedulable"}, {"effect", "NoSchedule"}}})),
      MakeNode("n2", {{"os", "windows"}}),
      MakeNode("n4", {{"os", "linux"}},
               Json::array({{{"key", "dedicated"}, {"value", "gpu"}, {"effect", "NoSchedule"}}})),
      MakeNode("n5", {{"os", "linux"}},
               Json::array({{{"key", "dedicated"}, {"effect", "PreferNoSchedule"}}})),
  };
  std::vector<Json> out = Expand(ds, nodes);
  // n1: the unschedulable taint is tolerated by default; n2: selector; n4: untolerated taint.
  ASSERT_EQ(out.size(), 3u);
  std::vector<std::string> pinned;
  for (const Json& j : out) {
    k8s::Pod pod = AsPod(j);
    const auto& terms = pod.spec()
                            .affinity()
                            .node_affinity()
                            .required_during_scheduling_ignored_during_execution()
                            .node_selector_terms();
    ASSERT_EQ(terms.size(), 1);
    ASSERT_EQ(terms[0].match_fields_size(), 1);
    EXPECT_EQ(terms[0].match_fields(0).key(), "metadata.name");
    EXPECT_EQ(terms[0].match_fields(0).operator_(), "In");
    pinned.push_back(terms[0].match_fields(0).values(0));
    EXPECT_EQ(pod.spec().tolerations_size(), 6);  // no hostNetwork: no network-unavailable
    EXPECT_EQ(pod.metadata().owner_references(0).kind(), "DaemonSet");
    EXPECT_EQ(pod.spec().node_selector().at("os"), "linux");
  }
  EXPECT_EQ(pinned, (std::vector<std::string>{"n1", "n3", "n5"}));
  EXPECT_EQ(out[0]["metadata"]["name"], "agent-bbbbb");
  // Tolerating the dedicated taint adds n4; hostNetwork adds the network-unavailable toleration.
  ds["spec"]["template"]["spec"]["tolerations"] =
      Json::array({{{"key", "dedicated"}, {"operator", "Exists"}}});
  ds["spec"]["template"]["spec"]["hostNetwork"] = true;
  out = Expand(ds, nodes);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(AsPod(out[0]).spec().tolerations_size(), 8);
}

TEST(WorkloadsTest, DaemonSetRespectsRequiredNodeAffinityOfTheTemplate) {
  Json ds = Workload("DaemonSet", "agent", {{"template", Template()}});
  ds["spec"]["template"]["spec"]["affinity"] = {
      {"nodeAffinity",
       {{"requiredDuringSchedulingIgnoredDuringExecution",
         {{"nodeSelectorTerms",
           Json::array(
               {{{"matchExpressions",
                  Json::array({{{"key", "zone"}, {"operator", "In"}, {"values", {"a"}}}})}}})}}}}}};
  std::vector<Json> out =
      Expand(ds, {MakeNode("x", {{"zone", "b"}}), MakeNode("y", {{"zone", "a"}})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(
      out[0]["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
         ["nodeSelectorTerms"][0]["matchFields"][0]["values"][0],
      "y");
}

TEST(WorkloadsTest, JobMakesParallelismPodsBoundedByCompletions) {
  Json job =
      Workload("Job", "batch", {{"parallelism", 4}, {"completions", 2}, {"template", Template()}});
  job["apiVersion"] = "batch/v1";
  job["metadata"]["uid"] = "j-1";
  std::vector<Json> out = Expand(job);
  ASSERT_EQ(out.size(), 2u);
  k8s::Pod pod = AsPod(out[1]);
  EXPECT_EQ(pod.metadata().name(), "batch-bbbbc");
  EXPECT_EQ(pod.metadata().labels().at("job-name"), "batch");
  EXPECT_EQ(pod.metadata().labels().at("batch.kubernetes.io/controller-uid"), "j-1");
  EXPECT_EQ(pod.metadata().owner_references(0).api_version(), "batch/v1");
  job["spec"]["completions"] = 10;
  job["spec"]["completionMode"] = "Indexed";
  out = Expand(job);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[3]["metadata"]["name"], "batch-3-bbbbf");
  job["spec"]["suspend"] = true;
  EXPECT_EQ(Expand(job).size(), 0u);
}

TEST(WorkloadsTest, PodTemplateAndReplicationController) {
  Json pt = {{"apiVersion", "v1"},
             {"kind", "PodTemplate"},
             {"metadata", {{"name", "solo"}}},
             {"template", Template()}};
  std::vector<Json> out = Expand(pt);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["metadata"]["name"], "solo");
  EXPECT_FALSE(out[0]["metadata"].contains("ownerReferences"));
  Json rc = Workload("ReplicationController", "old", {{"replicas", 2}, {"template", Template()}});
  rc["apiVersion"] = "v1";
  out = Expand(rc);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["metadata"]["ownerReferences"][0]["apiVersion"], "v1");
  EXPECT_EQ(out[0]["metadata"]["ownerReferences"][0]["kind"], "ReplicationController");
}

TEST(WorkloadsTest, BadCountsNameTheField) {
  for (const Json& replicas : {Json(1e9), Json(-1), Json("3"), Json(2.5)}) {
    auto out = ExpandWorkload(
        Workload("ReplicaSet", "a", {{"replicas", replicas}, {"template", Template()}}),
        "w.yaml: line 4", {});
    ASSERT_FALSE(out.ok()) << replicas;
    EXPECT_NE(out.message().find("w.yaml: line 4: field spec.replicas"), std::string::npos)
        << out.message();
  }
  auto big = ExpandWorkload(
      Workload("Deployment", "a", {{"replicas", kMaxWorkloadPods + 1}, {"template", Template()}}),
      "d", {});
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.message().find("kMaxWorkloadPods"), std::string::npos);
  EXPECT_FALSE(
      ExpandWorkload(Workload("ReplicaSet", "a", {{"replicas", 1}}), "w", {}).ok());  // no template
  EXPECT_FALSE(
      ExpandWorkload(Workload("ReplicaSet", "", {{"template", Template()}}), "w", {}).ok());
}

// Each kind gives exactly as many objects as the records limit leaves room for, and one more is
// refused before any is built, naming the field and the limit.
TEST(WorkloadsTest, ExpansionsStopAtTheRoomTheRecordsLimitLeaves) {
  const std::vector<k8s::Node> nodes = {MakeNode("n1"), MakeNode("n2"), MakeNode("n3")};
  struct Case {
    Json workload;
    size_t objects;
    std::string field;
  } cases[] = {
      {Workload("ReplicaSet", "rs", {{"replicas", 3}, {"template", Template()}}), 3,
       "field spec.replicas"},
      {Workload("Deployment", "d", {{"replicas", 3}, {"template", Template()}}), 4,
       "field spec.replicas"},
      {Workload("StatefulSet", "s", {{"replicas", 3}, {"template", Template()}}), 3,
       "field spec.replicas"},
      // Each pod with its claim.
      {Workload("StatefulSet", "s",
                {{"replicas", 3},
                 {"template", Template()},
                 {"volumeClaimTemplates", Json::array({{{"metadata", {{"name", "d"}}}}})}}),
       6, "field spec.replicas"},
      {Workload("Job", "j", {{"parallelism", 3}, {"completions", 5}, {"template", Template()}}), 3,
       "field spec.parallelism"},
      {Workload("DaemonSet", "ds", {{"template", Template()}}), 3, "nodes the DaemonSet runs on"},
      {Json{{"kind", "PodTemplate"}, {"metadata", {{"name", "pt"}}}, {"template", Template()}}, 1,
       "field template"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.workload.dump());
    const int64_t objects = static_cast<int64_t>(c.objects);
    auto fits = ExpandWorkload(c.workload, "w.yaml: line 2", nodes, RecordRoom{objects, 10});
    ASSERT_TRUE(fits.ok()) << fits.message();
    EXPECT_EQ(fits->size(), c.objects);
    auto refused = ExpandWorkload(c.workload, "w.yaml: line 2", nodes, RecordRoom{objects - 1, 10});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.message(), "w.yaml: line 2: " + c.field + ": expands to " +
                                     std::to_string(objects) + " objects, more than the " +
                                     std::to_string(objects - 1) +
                                     " records left under the limit records=10 (raise it with "
                                     "--limit records=N)");
  }
}

TEST(WorkloadsTest, ControllerKeysMatchOwnerReferences) {
  k8s::ObjectMeta meta;
  meta.set_namespace_("prod");
  auto* ref = meta.add_owner_references();
  ref->set_kind("ReplicaSet");
  ref->set_name("web-5d59d67564");
  ref->set_controller(true);
  std::string deployment;
  EXPECT_EQ(ControllerKey(meta, &deployment), "ReplicaSet/prod/web-5d59d67564");
  EXPECT_EQ(deployment, "Deployment/prod/web");
  EXPECT_EQ(WorkloadKeyOf(Workload("Deployment", "web", Json::object())), "Deployment/prod/web");
  ref->set_controller(false);
  EXPECT_EQ(ControllerKey(meta), "");
}

}  // namespace
}  // namespace schedcheck::trace
