#include "reference/plugins/priority_sort/priority_sort.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

QueuedPodInfo Queued(const std::string& name, int priority, int64_t ts, uint64_t seq) {
  std::string yaml =
      "metadata: {name: " + name + "}\nspec: {priority: " + std::to_string(priority) + "}";
  QueuedPodInfo q;
  q.info = MakePodInfo(testing::ParsePod(yaml, CompatLevel::kV1_27));
  q.timestamp_ns = ts;
  q.sequence = seq;
  return q;
}

struct Case {
  const char* name;
  QueuedPodInfo a, b;
  bool want;
};

// Modelled on upstream queuesort/priority_sort_test.go TestLess (v1.27).
TEST(PrioritySort, Less) {
  PrioritySort pl;
  const std::vector<Case> cases = {
      {"p1.priority less than p2.priority", Queued("a", 1, 0, 0), Queued("b", 2, 0, 1), false},
      {"p1.priority greater than p2.priority", Queued("a", 2, 0, 0), Queued("b", 1, 0, 1), true},
      {"equal priority, p1 added earlier", Queued("a", 1, 10, 5), Queued("b", 1, 20, 0), true},
      {"equal priority, p2 added earlier", Queued("a", 1, 20, 0), Queued("b", 1, 10, 5), false},
      {"exact tie, lower sequence first", Queued("a", 0, 10, 1), Queued("b", 0, 10, 2), true},
      {"exact tie, higher sequence second", Queued("a", 0, 10, 2), Queued("b", 0, 10, 1), false},
      {"negative priority after zero", Queued("a", -1, 0, 0), Queued("b", 0, 5, 1), false},
  };
  for (const Case& c : cases) EXPECT_EQ(pl.Less(c.a, c.b), c.want) << c.name;
}

TEST(PrioritySort, UnsetPriorityIsZero) {
  PrioritySort pl;
  QueuedPodInfo unset;
  unset.info = MakePodInfo(testing::ParsePod("metadata: {name: u}", CompatLevel::kV1_27));
  unset.timestamp_ns = 1;
  EXPECT_TRUE(pl.Less(unset, Queued("b", 0, 2, 0)));
  EXPECT_FALSE(pl.Less(unset, Queued("c", 1, 2, 0)));
}

TEST(PrioritySort, New) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  EXPECT_TRUE(PrioritySort::New(nullptr, h).ok());
  EXPECT_FALSE(PrioritySort::New(nlohmann::json{{"x", 1}}, h).ok());
}

}  // namespace
}  // namespace schedcheck::reference
