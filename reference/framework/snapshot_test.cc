#include "reference/framework/snapshot.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;

NodePtr NodeIn(const std::string& name, const std::string& zone) {
  return ParseNode("metadata: {name: " + name + ", labels: {zone: " + zone + "}}");
}

TEST(SnapshotChangeLog, ListsReplacedPositionsWithinOneEpoch) {
  Snapshot snapshot({MakeNodeInfo(NodeIn("a", "z1")), MakeNodeInfo(NodeIn("b", "z1"))});
  const Snapshot::Version start = snapshot.version();
  ASSERT_TRUE(snapshot.Replace(MakeNodeInfo(NodeIn("b", "z2"))));
  std::span<const uint32_t> changed;
  ASSERT_TRUE(snapshot.ChangedSince(start, &changed));
  EXPECT_EQ(std::vector<uint32_t>(changed.begin(), changed.end()), std::vector<uint32_t>{1});
  ASSERT_TRUE(snapshot.ChangedSince(snapshot.version(), &changed));
  EXPECT_TRUE(changed.empty());
  Snapshot other({MakeNodeInfo(NodeIn("a", "z1")), MakeNodeInfo(NodeIn("b", "z1"))});
  EXPECT_FALSE(other.ChangedSince(start, &changed));
  // A copy changes apart from its original: neither reads the other's log.
  Snapshot copy = snapshot;
  EXPECT_FALSE(copy.ChangedSince(snapshot.version(), &changed));
  EXPECT_FALSE(snapshot.ChangedSince(copy.version(), &changed));
  const Snapshot::Version before_move = snapshot.version();
  Snapshot moved = std::move(snapshot);
  EXPECT_TRUE(moved.ChangedSince(before_move, &changed));
  moved.Reset({MakeNodeInfo(NodeIn("a", "z1"))});
  EXPECT_FALSE(moved.ChangedSince(start, &changed));
}

TEST(SnapshotRanks, RanksByPositionFollowNameOrderThroughReplaceAndReset) {
  Snapshot snapshot({MakeNodeInfo(NodeIn("c", "z1")), MakeNodeInfo(NodeIn("a", "z1")),
                     MakeNodeInfo(NodeIn("b", "z2"))});
  EXPECT_EQ(snapshot.ranks_by_position(), (std::vector<uint32_t>{2, 0, 1}));
  ASSERT_TRUE(snapshot.Replace(MakeNodeInfo(NodeIn("a", "z3"))));
  EXPECT_EQ(snapshot.ranks_by_position(), (std::vector<uint32_t>{2, 0, 1}));
  for (size_t i = 0; i < snapshot.size(); ++i) {
    EXPECT_EQ(snapshot.node_infos()[i]->name_rank(), snapshot.ranks_by_position()[i]);
  }
  snapshot.Reset({MakeNodeInfo(NodeIn("b", "z1")), MakeNodeInfo(NodeIn("d", "z1"))});
  EXPECT_EQ(snapshot.ranks_by_position(), (std::vector<uint32_t>{0, 1}));
}

}  // namespace
}  // namespace schedcheck::reference
