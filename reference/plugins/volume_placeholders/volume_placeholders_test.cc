#include "reference/plugins/volume_placeholders/volume_placeholders.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

std::vector<std::unique_ptr<Plugin>> AllPlaceholders() {
  Handle h;
  std::vector<std::unique_ptr<Plugin>> out;
  out.push_back(std::move(VolumeRestrictions::New(nullptr, h).value()));
  out.push_back(std::move(EBSLimits::New(nullptr, h).value()));
  out.push_back(std::move(GCEPDLimits::New(nullptr, h).value()));
  out.push_back(std::move(NodeVolumeLimits::New(nullptr, h).value()));
  out.push_back(std::move(AzureDiskLimits::New(nullptr, h).value()));
  out.push_back(std::move(VolumeBinding::New(nullptr, h).value()));
  out.push_back(std::move(VolumeZone::New(nullptr, h).value()));
  return out;
}

TEST(VolumePlaceholders, NamesAndPoints) {
  auto plugins = AllPlaceholders();
  const std::vector<std::string> names = {"VolumeRestrictions", "EBSLimits",       "GCEPDLimits",
                                          "NodeVolumeLimits",   "AzureDiskLimits", "VolumeBinding",
                                          "VolumeZone"};
  for (size_t i = 0; i < plugins.size(); ++i) {
    EXPECT_EQ(plugins[i]->Name(), names[i]);
    EXPECT_NE(dynamic_cast<PreFilterPlugin*>(plugins[i].get()), nullptr) << names[i];
    EXPECT_NE(dynamic_cast<FilterPlugin*>(plugins[i].get()), nullptr) << names[i];
    EXPECT_NE(dynamic_cast<EnqueueExtensions*>(plugins[i].get()), nullptr) << names[i];
    const bool binding = names[i] == "VolumeBinding";
    EXPECT_EQ(dynamic_cast<ScorePlugin*>(plugins[i].get()) != nullptr, binding) << names[i];
    EXPECT_EQ(dynamic_cast<ReservePlugin*>(plugins[i].get()) != nullptr, binding) << names[i];
    EXPECT_EQ(dynamic_cast<PreBindPlugin*>(plugins[i].get()) != nullptr, binding) << names[i];
  }
  EXPECT_TRUE(dynamic_cast<PreFilterPlugin*>(plugins[0].get())->HasPreFilterExtensions());
}

TEST(VolumePlaceholders, PodWithoutClaimsIsSkippedAndFits) {
  auto pod = testing::ParsePod("metadata: {name: p}\nspec: {volumes: [{name: scratch}]}");
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  for (auto& p : AllPlaceholders()) {
    CycleState state;
    PreFilterResult r;
    EXPECT_EQ(dynamic_cast<PreFilterPlugin*>(p.get())->PreFilter(state, *pod, &r).code(),
              Code::kSkip)
        << p->Name();
    EXPECT_TRUE(r.all_nodes);
    EXPECT_TRUE(dynamic_cast<FilterPlugin*>(p.get())->Filter(state, *pod, *ni).IsSuccess())
        << p->Name();
  }
}

TEST(VolumePlaceholders, PodWithClaimIsRejected) {
  auto pod = testing::ParsePod(
      "metadata: {name: p}\nspec: {volumes: [{name: data, persistentVolumeClaim: {claimName: "
      "c}}]}");
  for (auto& p : AllPlaceholders()) {
    CycleState state;
    PreFilterResult r;
    Status s = dynamic_cast<PreFilterPlugin*>(p.get())->PreFilter(state, *pod, &r);
    EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable) << p->Name();
    EXPECT_EQ(s.reasons(),
              std::vector<std::string>{"volume plugins are not modelled by schedcheck"});
  }
}

TEST(VolumeBinding, ScoreReserveAndPreBind) {
  VolumeBinding pl;
  auto pod = testing::ParsePod("metadata: {name: p}");
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  CycleState state;
  PreFilterResult r;
  ASSERT_TRUE(pl.PreFilter(state, *pod, &r).IsSkip());
  int64_t score = -1;
  EXPECT_TRUE(pl.Score(state, *pod, *ni, &score).IsSuccess());
  EXPECT_EQ(score, 0);
  EXPECT_FALSE(pl.HasNormalizeScore());
  EXPECT_TRUE(pl.Reserve(state, *pod, "n").IsSuccess());
  EXPECT_TRUE(pl.PreBind(state, *pod, "n").IsSuccess());
  pl.Unreserve(state, *pod, "n");

  CycleState empty;
  EXPECT_EQ(pl.Filter(empty, *pod, *ni).code(), Code::kError);
  EXPECT_EQ(pl.Reserve(empty, *pod, "n").code(), Code::kError);
}

TEST(VolumeBinding, Args) {
  Handle h;
  EXPECT_TRUE(VolumeBinding::New(nlohmann::json{{"bindTimeoutSeconds", 600}}, h).ok());
  EXPECT_FALSE(VolumeBinding::New(nlohmann::json{{"bindTimeoutSeconds", -1}}, h).ok());
  EXPECT_FALSE(VolumeBinding::New(nlohmann::json{{"nope", 1}}, h).ok());
  EXPECT_FALSE(
      VolumeBinding::New(nlohmann::json::parse(R"({"shape":[{"utilization":0,"score":0}]})"), h)
          .ok());
  EXPECT_FALSE(VolumeZone::New(nlohmann::json{{"x", 1}}, h).ok());
}

TEST(VolumePlaceholders, Events) {
  EXPECT_EQ(VolumeRestrictions().EventsToRegister().size(), 3u);
  EXPECT_EQ(EBSLimits().EventsToRegister().size(), 2u);
  auto csi = NodeVolumeLimits().EventsToRegister();
  ASSERT_EQ(csi.size(), 2u);
  EXPECT_EQ(csi[0].resource, "storage.k8s.io/CSINode");
  EXPECT_EQ(VolumeBinding().EventsToRegister().size(), 7u);
  auto zone = VolumeZone().EventsToRegister();
  ASSERT_EQ(zone.size(), 4u);
  EXPECT_EQ(zone[1].action, action::kAdd | action::kUpdateNodeLabel);
}

}  // namespace
}  // namespace schedcheck::reference
