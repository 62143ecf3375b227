#include "reference/plugins/default_binder/default_binder.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

TEST(DefaultBinder, BindSucceedsAndLeavesBindingToTheRuntime) {
  DefaultBinder pl;
  CycleState state;
  auto pod = testing::ParsePod("metadata: {name: p, namespace: ns}", CompatLevel::kV1_27);
  Status s = pl.Bind(state, *pod, "n1");
  EXPECT_TRUE(s.IsSuccess());
  EXPECT_TRUE(pod->node_name().empty());  // the pod object is not touched
  EXPECT_EQ(pl.Name(), "DefaultBinder");
}

TEST(DefaultBinder, New) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  EXPECT_TRUE(DefaultBinder::New(nullptr, h).ok());
  EXPECT_TRUE(DefaultBinder::New(nlohmann::json::object(), h).ok());
  EXPECT_FALSE(DefaultBinder::New(nlohmann::json{{"x", 1}}, h).ok());
}

}  // namespace
}  // namespace schedcheck::reference
