#include "reference/plugins/volume_helper/volume_helper.h"

#include <gtest/gtest.h>

#include "reference/k8s/k8s_json.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

k8s::PersistentVolumeClaim Claim(const std::string& json) {
  return k8s::PersistentVolumeClaimFromJson(nlohmann::json::parse(json), "test").value();
}

TEST(VolumeHelper, ClaimStorageClassPrefersTheBetaAnnotation) {
  EXPECT_EQ(ClaimStorageClass(Claim(R"({"spec":{"storageClassName":"fast"}})")), "fast");
  EXPECT_EQ(ClaimStorageClass(Claim(R"({"spec":{}})")), "");
  EXPECT_EQ(ClaimStorageClass(Claim(
                R"({"metadata":{"annotations":{"volume.beta.kubernetes.io/storage-class":""}},
                    "spec":{"storageClassName":"fast"}})")),
            "");
}

TEST(VolumeHelper, LabelZonesToSetSplitsAndTrims) {
  EXPECT_EQ(LabelZonesToSet("a__ b __c"), (std::set<std::string>{"a", "b", "c"}));
  EXPECT_EQ(LabelZonesToSet("zone"), (std::set<std::string>{"zone"}));
  EXPECT_EQ(LabelZonesToSet("a____b"), std::nullopt);
  EXPECT_EQ(LabelZonesToSet(""), std::nullopt);
  EXPECT_EQ(LabelZonesToSet("a__"), std::nullopt);
}

TEST(VolumeHelper, EphemeralClaimMustBeControlledByThePod) {
  auto pod = testing::ParsePod("metadata: {name: p, namespace: ns, uid: u1}", CompatLevel::kV1_27);
  auto owned = Claim(R"({"metadata":{"name":"p-v","namespace":"ns",
      "ownerReferences":[{"kind":"Pod","name":"p","uid":"u1","controller":true}]}})");
  EXPECT_EQ(EphemeralClaimNotForPod(*pod, owned), "");
  auto other = Claim(R"({"metadata":{"name":"p-v","namespace":"ns",
      "ownerReferences":[{"kind":"Pod","name":"p","uid":"u2","controller":true}]}})");
  EXPECT_EQ(EphemeralClaimNotForPod(*pod, other),
            "PVC ns/p-v was not created for pod ns/p (pod is not owner)");
  auto not_controller = Claim(R"({"metadata":{"name":"p-v","namespace":"ns",
      "ownerReferences":[{"kind":"Pod","name":"p","uid":"u1"}]}})");
  EXPECT_NE(EphemeralClaimNotForPod(*pod, not_controller), "");
}

TEST(VolumeHelper, ListerNotFoundText) {
  EXPECT_EQ(ListerNotFound(lister_resource::kStorageClass, "gold"),
            "storageclass.storage.k8s.io \"gold\" not found");
}

}  // namespace
}  // namespace schedcheck::reference
