#include "reference/plugins/volume_placeholders/volume_placeholders.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

const CompatLevel kV1_37 = CompatLevel::kV1_37;

std::vector<std::unique_ptr<Plugin>> Placeholders() {
  Handle h;
  std::vector<std::unique_ptr<Plugin>> out;
  out.push_back(std::move(VolumeBindingV1_37Placeholder::New(nullptr, h).value()));
  out.push_back(std::move(NodeVolumeLimitsV1_37Placeholder::New(nullptr, h).value()));
  return out;
}

Code PreFilterCode(Plugin& p, const Pod& pod) {
  CycleState state;
  PreFilterResult r;
  return dynamic_cast<PreFilterPlugin&>(p).PreFilter(state, pod, &r).code();
}

TEST(VolumePlaceholders, PodWithoutVolumesIsSkippedAndFits) {
  auto pod = testing::ParsePod("metadata: {name: p}\nspec: {volumes: [{name: scratch}]}", kV1_37);
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  for (auto& p : Placeholders()) {
    CycleState state;
    PreFilterResult r;
    EXPECT_EQ(dynamic_cast<PreFilterPlugin*>(p.get())->PreFilter(state, *pod, &r).code(),
              Code::kSkip)
        << p->Name();
    EXPECT_TRUE(r.all_nodes);
    EXPECT_TRUE(dynamic_cast<FilterPlugin*>(p.get())->Filter(state, *pod, *ni).IsSuccess());
  }
}

TEST(VolumePlaceholders, PodsWithTheVolumesEachPluginReadsAreRejected) {
  auto claim = testing::ParsePod(
      "metadata: {name: p}\nspec: {volumes: [{name: d, persistentVolumeClaim: {claimName: c}}]}",
      kV1_37);
  auto ephemeral = testing::ParsePod(
      "metadata: {name: p}\nspec: {volumes: [{name: d, ephemeral: {volumeClaimTemplate: {}}}]}",
      kV1_37);
  auto disk = testing::ParsePod(
      "metadata: {name: p}\nspec: {volumes: [{name: d, gcePersistentDisk: {pdName: x}}]}", kV1_37);
  auto binding = Placeholders();
  EXPECT_EQ(PreFilterCode(*binding[0], *claim), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(PreFilterCode(*binding[0], *ephemeral), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(PreFilterCode(*binding[0], *disk), Code::kSkip);  // VolumeBinding ignores inline disks
  EXPECT_EQ(PreFilterCode(*binding[1], *claim), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(PreFilterCode(*binding[1], *disk), Code::kUnschedulableAndUnresolvable);
  CycleState state;
  PreFilterResult r;
  Status s = dynamic_cast<PreFilterPlugin&>(*binding[0]).PreFilter(state, *claim, &r);
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"volume plugins are not modelled by schedcheck"});
}

TEST(VolumePlaceholders, VolumeBindingStateIsRequired) {
  VolumeBindingV1_37Placeholder pl;
  auto pod = testing::ParsePod("metadata: {name: p}", kV1_37);
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  CycleState state;
  PreFilterResult r;
  ASSERT_TRUE(pl.PreFilter(state, *pod, &r).IsSkip());
  int64_t score = -1;
  EXPECT_TRUE(pl.Score(state, *pod, *ni, &score).IsSuccess());
  EXPECT_EQ(score, 0);
  EXPECT_TRUE(pl.Reserve(state, *pod, "n").IsSuccess());
  EXPECT_TRUE(pl.PreBind(state, *pod, "n").IsSuccess());
  CycleState empty;
  EXPECT_EQ(pl.Filter(empty, *pod, *ni).code(), Code::kError);
  EXPECT_EQ(pl.Reserve(empty, *pod, "n").code(), Code::kError);
}

}  // namespace
}  // namespace schedcheck::reference
