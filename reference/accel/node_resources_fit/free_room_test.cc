#include "reference/accel/node_resources_fit/free_room.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/plugins/node_resources_fit/fit_test_objects.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using fit_testing::EnoughNode;
using fit_testing::Pod;
using testing::MakeNodeInfo;
using testing::ParseNode;

TEST(FreeRoomTest, MatchesTheNodeAndGivesUpBeyondItsScalarSlots) {
  auto node = MakeNodeInfo(EnoughNode(),
                           {Pod("e", {"{cpu: 4m, example.com/aaa: '2', example.com/zzz: '1'}"})});
  const FreeRoom room(*node);
  const NodeRoom live(*node);
  ASSERT_TRUE(room.complete());
  EXPECT_EQ(room.Pods(), live.Pods());
  EXPECT_EQ(room.MilliCpu(), 6);
  EXPECT_EQ(room.Memory(), live.Memory());
  EXPECT_EQ(room.EphemeralStorage(), live.EphemeralStorage());
  for (std::string_view name :
       {"example.com/aaa", "example.com/zzz", "hugepages-2Mi", "example.com/none"}) {
    EXPECT_EQ(room.Scalar(ResourceName(name)), live.Scalar(ResourceName(name))) << name;
  }
  EXPECT_EQ(room.Scalar(ResourceName("example.com/aaa")), 3);
  EXPECT_EQ(room.Scalar(ResourceName("example.com/zzz")), -1);  // requested, never allocatable
  auto crowded =
      MakeNodeInfo(ParseNode("metadata: {name: c}\nstatus: {allocatable: {a.io/r1: '1', a.io/r2: "
                             "'1', a.io/r3: '1', a.io/r4: '1', a.io/r5: '1'}}"));
  EXPECT_FALSE(FreeRoom(*crowded).complete());
}

}  // namespace
}  // namespace schedcheck::reference
