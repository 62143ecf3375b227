#include "reference/api/label_ids.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(LabelIdsTest, InterningIsStableAndEmptyStringIsAValue) {
  LabelId zone = InternLabel("zone");
  EXPECT_EQ(InternLabel(std::string("zo") + "ne"), zone);
  EXPECT_NE(InternLabel("region"), zone);
  EXPECT_NE(InternLabel(""), kNoLabel);
  EXPECT_EQ(LabelText(zone), "zone");
}

TEST(LabelIdsTest, GetFindsValuesAndReportsAbsentKeys) {
  google::protobuf::Map<std::string, std::string> labels;
  labels["zone"] = "z1";
  labels["empty"] = "";
  LabelIds ids(labels);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids.Get(InternLabel("zone")), InternLabel("z1"));
  EXPECT_EQ(ids.Get(InternLabel("empty")), InternLabel(""));
  EXPECT_TRUE(ids.Has(InternLabel("empty")));
  EXPECT_EQ(ids.Get(InternLabel("missing")), kNoLabel);
  EXPECT_FALSE(LabelIds().Has(InternLabel("zone")));
}

TEST(LabelIdsTest, ManyLabelsAreAllFound) {
  google::protobuf::Map<std::string, std::string> labels;
  for (int i = 0; i < 9; ++i) labels["k" + std::to_string(i)] = "v" + std::to_string(i);
  LabelIds ids(labels);
  EXPECT_EQ(ids.size(), 9u);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(ids.Get(InternLabel("k" + std::to_string(i))), InternLabel("v" + std::to_string(i)));
  }
  EXPECT_EQ(ids.end() - ids.begin(), 9);
}

}  // namespace
}  // namespace schedcheck::reference
