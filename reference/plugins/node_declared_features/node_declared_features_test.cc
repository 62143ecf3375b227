#include "reference/plugins/node_declared_features/node_declared_features.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

using Names = std::vector<std::string_view>;

TEST(NodeDeclaredFeaturesTest, InfersTheThreeSchedulingFeatures) {
  k8s::PodSpec spec;
  EXPECT_EQ(InferForPodScheduling(spec), Names{});
  spec.set_host_network(true);
  EXPECT_EQ(InferForPodScheduling(spec), Names{}) << "hostUsers unset does not count";
  spec.set_host_users(true);
  EXPECT_EQ(InferForPodScheduling(spec), Names{});
  spec.set_host_users(false);
  EXPECT_EQ(InferForPodScheduling(spec), Names{"UserNamespacesHostNetworkSupport"});
  k8s::Container* init = spec.add_init_containers();
  init->add_restart_policy_rules()->set_action("Restart");
  EXPECT_EQ(InferForPodScheduling(spec), Names{"UserNamespacesHostNetworkSupport"});
  init->add_restart_policy_rules()->set_action("RestartAllContainers");
  k8s::VolumeMount* mount = spec.add_containers()->add_volume_mounts();
  mount->set_name("v");
  EXPECT_EQ(InferForPodScheduling(spec),
            (Names{"RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport"}));
  mount->add_bind_mount_options("rbind");
  EXPECT_EQ(InferForPodScheduling(spec),
            (Names{"RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport",
                   "VolumeBindMountOptions"}));
}

TEST(NodeDeclaredFeaturesTest, TryMapDropsUnknownNamesAndWalksInOrder) {
  google::protobuf::RepeatedPtrField<std::string> declared;
  for (const char* n :
       {"AUnknown", "RestartAllContainersOnContainerExits", "Zzz", "VolumeBindMountOptions"}) {
    *declared.Add() = n;
  }
  // "Zzz" sorts after every registered name: the walk ends there, as upstream's does, so the
  // (unsorted) VolumeBindMountOptions after it is never reached.
  EXPECT_EQ(TryMapDeclaredFeatures(declared), Names{"RestartAllContainersOnContainerExits"});
  declared.Clear();
  for (const char* n : {"RestartAllContainersOnContainerExits", "VolumeBindMountOptions"}) {
    *declared.Add() = n;
  }
  EXPECT_EQ(TryMapDeclaredFeatures(declared),
            (Names{"RestartAllContainersOnContainerExits", "VolumeBindMountOptions"}));
}

TEST(NodeDeclaredFeaturesTest, RegistryIsSorted) {
  const Names& r = DeclaredFeatureRegistry();
  EXPECT_EQ(r.size(), 9u);
  EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
}

}  // namespace
}  // namespace schedcheck::reference
