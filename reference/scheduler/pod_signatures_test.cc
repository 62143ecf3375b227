#include "reference/scheduler/pod_signatures.h"

#include <gtest/gtest.h>

#include "reference/plugins/registry.h"
#include "reference/runtime/profile.h"

namespace schedcheck::reference {
namespace {

std::string Why(const std::string& yaml) {
  auto config = ParseSchedulerConfigurationYaml(yaml, "test", "1.37");
  EXPECT_TRUE(config.ok()) << config.message();
  Snapshot snapshot;
  ClusterObjects objects;
  Handle handle;
  handle.snapshot = &snapshot;
  handle.objects = &objects;
  handle.compat = "1.37";
  auto fw = Framework::Create(config->profiles[0], PluginRegistry(), &handle);
  EXPECT_TRUE(fw.ok()) << fw.message();
  return PodSignaturesPossibleV1_37(**fw);
}

// kubernetes v1.37.2 framework/runtime/framework.go setBatchablePlugins and
// podtopologyspread/plugin.go SignPod.
TEST(PodSignaturesTest, DefaultProfileNeverSigns) {
  // PodTopologySpread's System defaulting gives it default constraints: every pod unsignable.
  EXPECT_EQ(Why("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"),
            "");
}

TEST(PodSignaturesTest, SpreadWithoutDefaultConstraintsSigns) {
  std::string why = Why(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
)");
  EXPECT_NE(why.find("PodTopologySpread has no default constraints"), std::string::npos) << why;
  why = Why(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: PodTopologySpread}]
)");
  EXPECT_NE(why.find("PodTopologySpread is not enabled"), std::string::npos) << why;
}

TEST(PodSignaturesTest, APluginWithoutSignPodDisablesSignatures) {
  // CreationDelay (the project's example plugin) does not sign pods.
  EXPECT_EQ(Why(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: CreationDelay}]
      disabled: [{name: PodTopologySpread}]
)"),
            "");
}

}  // namespace
}  // namespace schedcheck::reference
