#include "reference/accel/node_resources_fit/free_room.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

// A pod whose containers request `requests` (inline YAML maps such as "{cpu: 1m, memory: '1'}")
// and whose init containers request `init`.
PodPtr Pod(const std::string& name, const std::vector<std::string>& requests,
           const std::vector<std::string>& init = {}, const std::string& overhead = "") {
  std::string y = "metadata: {name: " + name + "}\nspec:\n  containers:\n";
  if (requests.empty()) y += "  []\n";  // like upstream's st.MakePod(): no containers at all
  for (const std::string& r : requests) y += "  - {name: c, resources: {requests: " + r + "}}\n";
  if (!init.empty()) y += "  initContainers:\n";
  for (const std::string& r : init) y += "  - {name: i, resources: {requests: " + r + "}}\n";
  if (!overhead.empty()) y += "  overhead: " + overhead + "\n";
  return ParsePod(y);
}

// Upstream's makeResources(10, 20, 32, 5, 20, 5) node, or one with another pod count.
NodePtr EnoughNode(const std::string& pods = "32") {
  return ParseNode("metadata: {name: n}\nstatus: {allocatable: {cpu: 10m, memory: '20', pods: '" +
                   pods + "', example.com/aaa: '5', ephemeral-storage: '20', hugepages-2Mi: '5'}}");
}

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
