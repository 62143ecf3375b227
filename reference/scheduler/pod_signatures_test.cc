#include "reference/scheduler/pod_signatures.h"

#include <gtest/gtest.h>

#include "reference/plugins/registry.h"
#include "reference/runtime/profile.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

constexpr const char* kHeader =
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
constexpr const char* kWithoutSpread = R"(profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: PodTopologySpread}]
)";

// A signer for the first profile of `yaml` (after the header), at compat 1.37.
class Signer {
 public:
  explicit Signer(const std::string& yaml) {
    auto config = ParseSchedulerConfigurationYaml(kHeader + yaml, "test", "1.37");
    EXPECT_TRUE(config.ok()) << config.message();
    profile_ = config->profiles[0];
    handle_.snapshot = &snapshot_;
    handle_.objects = &objects_;
    handle_.features = FeaturesFor(CompatLevel::kV1_37);
    auto fw = Framework::Create(profile_, PluginRegistry(), &handle_);
    EXPECT_TRUE(fw.ok()) << fw.message();
    fw_ = std::move(*fw);
  }
  PodSigner Get() const { return PodSigner::ForProfile(*fw_, profile_, {}); }
  PodSignature Sign(const std::string& pod_yaml) const {
    return Get().Sign(*testing::ParsePod(pod_yaml, CompatLevel::kV1_37));
  }
  bool Same(const std::string& a, const std::string& b) const {
    PodSignature x = Sign(a), y = Sign(b);
    EXPECT_NE(x, nullptr) << a;
    EXPECT_NE(y, nullptr) << b;
    return x != nullptr && y != nullptr && *x == *y;
  }

 private:
  Profile profile_;
  Snapshot snapshot_;
  ClusterObjects objects_;
  Handle handle_{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw_;
};

const char* kWeb =
    "metadata: {name: a, labels: {app: web}}\n"
    "spec: {containers: [{name: c, image: web, resources: {requests: {cpu: 1}}}]}";

// kubernetes v1.37.2 framework/runtime/framework.go computeBatchablePlugins and SignPod;
// podtopologyspread/plugin.go SignPod.
TEST(PodSignaturesTest, DefaultProfileSignsNoPod) {
  // Every default plugin signs, but PodTopologySpread's System default constraints refuse all.
  Signer signer("");
  EXPECT_FALSE(signer.Get().enabled());
  EXPECT_EQ(signer.Sign(kWeb), nullptr);
}

TEST(PodSignaturesTest, SpreadWithoutDefaultConstraintsSignsPodsWithoutConstraints) {
  Signer signer(R"(profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
)");
  EXPECT_NE(signer.Sign(kWeb), nullptr);
  EXPECT_EQ(signer.Sign("metadata: {name: a}\nspec: {topologySpreadConstraints: [{maxSkew: 1, "
                        "topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}"),
            nullptr);
  // interpodaffinity/plugin.go SignPod: any pod (anti-)affinity, even empty, refuses.
  EXPECT_EQ(signer.Sign("metadata: {name: a}\nspec: {affinity: {podAntiAffinity: {}}}"), nullptr);
  EXPECT_NE(signer.Sign("metadata: {name: a}\nspec: {affinity: {nodeAffinity: {}}}"), nullptr);
}

TEST(PodSignaturesTest, APluginWithoutSignPodDisablesSignatures) {
  // CreationDelay (the project's example plugin) does not sign pods.
  Signer signer(R"(profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: CreationDelay}]
      disabled: [{name: PodTopologySpread}]
)");
  EXPECT_FALSE(signer.Get().enabled());
  EXPECT_EQ(signer.Sign(kWeb), nullptr);
}

// kube-scheduler v0.37.2 framework/signers.go: what the fragments hold.
TEST(PodSignaturesTest, ReplicasShareASignature) {
  Signer signer(kWithoutSpread);
  // Name, namespace and uid are not signed.
  EXPECT_TRUE(signer.Same(kWeb,
                          "metadata: {name: b, namespace: other, uid: x, labels: {app: web}}\n"
                          "spec: {containers: [{name: c, image: web, resources: "
                          "{requests: {cpu: 1}}}]}"));
  // Labels are (InterPodAffinity's fragment).
  EXPECT_FALSE(signer.Same(kWeb,
                           "metadata: {name: a, labels: {app: db}}\n"
                           "spec: {containers: [{name: c, image: web, resources: "
                           "{requests: {cpu: 1}}}]}"));
  // Requests as framework.Resource: 1 cpu is 1000m; limits default the requests.
  EXPECT_TRUE(signer.Same(kWeb,
                          "metadata: {name: a, labels: {app: web}}\n"
                          "spec: {containers: [{name: c, image: 'web:latest', resources: "
                          "{limits: {cpu: 1000m}}}]}"));
  EXPECT_FALSE(signer.Same(kWeb,
                           "metadata: {name: a, labels: {app: web}}\n"
                           "spec: {containers: [{name: c, image: web, resources: "
                           "{requests: {cpu: 2}}}]}"));
}

TEST(PodSignaturesTest, ListsAreSignedInUpstreamsOrder) {
  Signer signer(kWithoutSpread);
  // Tolerations sorted by key then value; images and host ports as sorted sets.
  EXPECT_TRUE(signer.Same(
      "metadata: {name: a}\nspec: {tolerations: [{key: b, operator: Exists}, {key: a, value: "
      "x}], containers: [{name: c, image: x}, {name: d, image: y, ports: [{containerPort: 80, "
      "hostPort: 80}]}]}",
      "metadata: {name: a}\nspec: {tolerations: [{key: a, value: x}, {key: b, operator: "
      "Exists}], containers: [{name: d, image: 'y:latest', ports: [{containerPort: 80, hostPort: "
      "80}]}, {name: c, image: x}, {name: e, image: x}]}"));
  // With hostNetwork the API defaults each hostPort to its containerPort.
  EXPECT_TRUE(signer.Same(
      "metadata: {name: a}\nspec: {hostNetwork: true, containers: [{name: c, ports: "
      "[{containerPort: 80}]}]}",
      "metadata: {name: a}\nspec: {containers: [{name: c, ports: [{containerPort: 80, hostPort: "
      "80}]}]}"));
  // Node selector requirements with their values sorted.
  EXPECT_TRUE(signer.Same(
      "metadata: {name: a}\nspec: {affinity: {nodeAffinity: {requiredDuringScheduling"
      "IgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: z, operator: In, "
      "values: [b, a]}]}]}}}}",
      "metadata: {name: a}\nspec: {affinity: {nodeAffinity: {requiredDuringScheduling"
      "IgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: z, operator: In, "
      "values: [a, b]}]}]}}}}"));
  // A volume's source is signed, not its name.
  EXPECT_TRUE(signer.Same(
      "metadata: {name: a}\nspec: {volumes: [{name: v, persistentVolumeClaim: {claimName: c}}]}",
      "metadata: {name: a}\nspec: {volumes: [{name: w, persistentVolumeClaim: {claimName: c}}]}"));
  EXPECT_FALSE(signer.Same(
      "metadata: {name: a}\nspec: {volumes: [{name: v, persistentVolumeClaim: {claimName: c}}]}",
      "metadata: {name: a}\nspec: {volumes: [{name: v, persistentVolumeClaim: {claimName: d}}]}"));
}

TEST(PodSignaturesTest, IgnoringExistingPodsPreferredTermsLeavesLabelsOut) {
  Signer signer(R"(profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: PodTopologySpread}]
  pluginConfig:
  - name: InterPodAffinity
    args: {ignorePreferredTermsOfExistingPods: true}
)");
  EXPECT_TRUE(signer.Same("metadata: {name: a, labels: {app: web}}",
                          "metadata: {name: a, labels: {app: db}}"));
}

}  // namespace
}  // namespace schedcheck::reference
