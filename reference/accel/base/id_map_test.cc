#include "reference/accel/base/id_map.h"

#include <map>

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(IdMapTest, BehavesLikeAMapThroughGrowth) {
  IdMap<int> map;
  std::map<uint64_t, int> want;
  EXPECT_EQ(map.Find(7), nullptr);
  for (uint64_t i = 0; i < 1000; ++i) {
    uint64_t id = (i * 7919) % 1543 + (i % 3 == 0 ? (uint64_t{5} << 32) : 0);
    map[id] += static_cast<int>(i);
    want[id] += static_cast<int>(i);
  }
  EXPECT_EQ(map.size(), want.size());
  for (const auto& [id, value] : want) {
    ASSERT_NE(map.Find(id), nullptr);
    EXPECT_EQ(*map.Find(id), value);
  }
  EXPECT_EQ(map.Find(uint64_t{9} << 32), nullptr);
  size_t seen = 0;
  map.ForEach([&](uint64_t id, int value) {
    EXPECT_EQ(want.at(id), value);
    ++seen;
  });
  EXPECT_EQ(seen, want.size());
}

TEST(IdMapTest, ReserveKeepsEntries) {
  IdMap<int64_t> map;
  map[3] = 30;
  map.Reserve(500);
  EXPECT_EQ(*map.Find(3), 30);
  EXPECT_EQ(map.size(), 1u);
  EXPECT_TRUE(IdMap<int>().empty());
}

}  // namespace
}  // namespace schedcheck::reference
