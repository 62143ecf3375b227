#include "reference/plugins/node_volume_limits/csi_translation.h"

#include <gtest/gtest.h>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference::csi_translation {
namespace {

const Features v1_27 = FeaturesFor(CompatLevel::kV1_27);

k8s::PersistentVolume Pv(const std::string& json) {
  return k8s::PersistentVolumeFromJson(nlohmann::json::parse(json), "test").value();
}
k8s::Volume Inline(const std::string& json) {
  k8s::Pod pod =
      k8s::PodFromJson(nlohmann::json::parse(R"({"spec":{"volumes":[)" + json + "]}}"), "test")
          .value();
  return pod.spec().volumes(0);
}

TEST(CsiTranslation, DriversOfMigratedPlugins) {
  EXPECT_EQ(CsiDriverForPlugin("kubernetes.io/aws-ebs", v1_27), "ebs.csi.aws.com");
  EXPECT_EQ(CsiDriverForPlugin("kubernetes.io/gce-pd", v1_27), "pd.csi.storage.gke.io");
  EXPECT_EQ(CsiDriverForPlugin("kubernetes.io/azure-disk", v1_27), "disk.csi.azure.com");
  EXPECT_EQ(CsiDriverForPlugin("example.com/csi", v1_27), std::nullopt);
}

TEST(CsiTranslation, MigrationSwitchesAtV1_27) {
  k8s::CSINode plain;
  k8s::CSINode annotated;
  (*annotated.mutable_metadata()
        ->mutable_annotations())["storage.alpha.kubernetes.io/migrated-plugins"] =
      "kubernetes.io/rbd,kubernetes.io/gce-pd";
  EXPECT_FALSE(IsCsiMigrationOn(nullptr, kAwsEbsPlugin, v1_27));
  EXPECT_TRUE(IsCsiMigrationOn(&plain, kAwsEbsPlugin, v1_27));
  EXPECT_TRUE(IsCsiMigrationOn(&plain, kAzureDiskPlugin, v1_27));
  EXPECT_FALSE(IsCsiMigrationOn(&plain, kGcePdPlugin, v1_27));
  EXPECT_TRUE(IsCsiMigrationOn(&annotated, kGcePdPlugin, v1_27));
  EXPECT_FALSE(IsCsiMigrationOn(&annotated, "kubernetes.io/rbd", v1_27));  // its gate is off
}

TEST(CsiTranslation, VolumeHandles) {
  EXPECT_EQ(InlineVolumeHandle(Inline(
                R"({"name":"v","awsElasticBlockStore":{"volumeID":"aws://us-east-1a/vol-1"}})")),
            "vol-1");
  EXPECT_EQ(
      InlineVolumeHandle(Inline(R"({"name":"v","awsElasticBlockStore":{"volumeID":"vol-2"}})")),
      "vol-2");
  EXPECT_EQ(InlineVolumeHandle(
                Inline(R"({"name":"v","awsElasticBlockStore":{"volumeID":"aws://z/disk"}})")),
            std::nullopt);
  EXPECT_EQ(InlineVolumeHandle(Inline(R"({"name":"v","gcePersistentDisk":{"pdName":"d"}})")),
            "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/d");
  EXPECT_EQ(
      PersistentVolumeHandle(Pv(R"({"metadata":{"labels":{"topology.kubernetes.io/zone":"us-c1-a"}},
                                          "spec":{"gcePersistentDisk":{"pdName":"d"}}})")),
      "projects/UNSPECIFIED/zones/us-c1-a/disks/d");
  EXPECT_EQ(PersistentVolumeHandle(
                Pv(R"({"metadata":{"labels":{"topology.kubernetes.io/zone":"us-c1-a__us-c1-b"}},
                                          "spec":{"gcePersistentDisk":{"pdName":"d"}}})")),
            "projects/UNSPECIFIED/regions/us-c1/disks/d");
  EXPECT_EQ(PersistentVolumeHandle(
                Pv(R"({"spec":{"azureDisk":{"diskName":"a","diskURI":"uri","kind":"Shared"}}})")),
            std::nullopt);
  EXPECT_EQ(
      PersistentVolumeHandle(Pv(R"({"spec":{"azureDisk":{"diskName":"a","diskURI":"uri"}}})")),
      "uri");
}

}  // namespace
}  // namespace schedcheck::reference::csi_translation
