// Replays a prefix of the real Alibaba openb trace from ../shared/data (never copied into the
// repo; imported by traces/importers/openb_importer.h, whose shared_data_test checks the import).
// Skips, saying why, when the data is absent (where it is looked for: FindSharedOpenbDir).
#include <fstream>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "harness/replay/replayer.h"
#include "reference/runtime/profile.h"
#include "traces/importers/import_testing.h"
#include "traces/importers/openb_importer.h"

namespace schedcheck::replay {
namespace {

// The first 300 pods (by creation time, with deletions) on all 1,523 nodes replay to completion.
TEST(OpenbReplayTest, ReplayOfAPrefixRunsToCompletion) {
  const std::string dir = trace::testing::FindSharedOpenbDir();
  if (dir.empty()) {
    GTEST_SKIP() << "shared data absent: no alibaba-gpu-v2023/openb_pod_list_default.csv under "
                    "$SCHEDCHECK_SHARED_DATA, /work/shared/data or ../shared/data; set "
                    "SCHEDCHECK_SHARED_DATA";
  }
  std::ifstream in(dir + "/openb_pod_list_default.csv");
  std::string line, prefix;
  for (int i = 0; i <= 300 && std::getline(in, line); ++i) prefix += line + "\n";
  auto imported = trace::ImportOpenb(
      {dir + "/openb_node_list_all_node.csv", trace::testing::WriteTemp("prefix.csv", prefix)}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  auto replayer = Replayer::Create(std::move(options));
  ASSERT_TRUE(replayer.ok()) << replayer.message();
  Outcome ran = (*replayer)->Run(imported->records);
  ASSERT_TRUE(ran.ok()) << ran.message();
  std::set<std::string> attempted, bound;
  for (const trace::Record& r : (*replayer)->log().records()) {
    if (r.has_attempt()) attempted.insert(r.attempt().pod());
    if (r.has_binding()) bound.insert(r.binding().pod());
  }
  EXPECT_EQ(attempted.size(), 300u);
  EXPECT_GT(bound.size(), 250u) << "a light prefix on 1,523 nodes mostly fits";
}

}  // namespace
}  // namespace schedcheck::replay
