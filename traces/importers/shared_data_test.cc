// Imports the real Alibaba openb trace from ../shared/data (never copied into the repo) and
// replays a prefix. Skips, saying why, when the data is absent. Looked up in: $SCHEDCHECK_SHARED_DATA,
// /work/shared/data, $BUILD_WORKSPACE_DIRECTORY/../shared/data, and ../shared/data beside the
// source tree this test's runfiles link to.
#include <filesystem>
#include <fstream>
#include <set>

#include "gtest/gtest.h"
#include "harness/replay/replayer.h"
#include "reference/runtime/profile.h"
#include "traces/importers/import_testing.h"
#include "traces/importers/openb_importer.h"

namespace schedcheck::trace {
namespace {

namespace fs = std::filesystem;
using testing::Label;
using testing::TestData;
using testing::WriteTemp;

std::string FindOpenbDir() {
  // Besides the usual places, ../shared/data beside the source tree (runfiles link into it).
  std::error_code ec;
  fs::path source = fs::canonical(TestData("openb/nodes.csv"), ec);
  if (ec) return FindOpenbDataDir();
  return FindOpenbDataDir({(source.parent_path() / "../../../../../shared/data").string()});
}

#define REQUIRE_DATA(dir)                                                                               \
  const std::string dir = FindOpenbDir();                                                               \
  if (dir.empty()) {                                                                                    \
    GTEST_SKIP() << "shared data absent: no alibaba-gpu-v2023/openb_pod_list_default.csv under "        \
                    "$SCHEDCHECK_SHARED_DATA, /work/shared/data or ../shared/data; set SCHEDCHECK_SHARED_DATA"; \
  }

int64_t DataRows(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int64_t rows = -1;  // the header
  while (std::getline(in, line)) rows += line.find_first_not_of(" \r") == std::string::npos ? 0 : 1;
  return rows;
}

TEST(SharedDataTest, DefaultPodListOnAllNodes) {
  REQUIRE_DATA(dir);
  auto imported = ImportOpenb({dir + "/openb_node_list_all_node.csv", dir + "/openb_pod_list_default.csv"}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  int64_t nodes = 0, added = 0, deleted = 0;
  for (const Record& r : imported->records) {
    nodes += r.api().has_node() ? 1 : 0;
    added += r.api().has_pod() && r.api().type() == ADDED ? 1 : 0;
    deleted += r.api().has_pod() && r.api().type() == DELETED ? 1 : 0;
  }
  EXPECT_EQ(nodes, 1523);
  EXPECT_EQ(added, 8152);
  EXPECT_EQ(deleted, std::stoll(Label(*imported, "openb.deletions")));
  EXPECT_EQ(Label(*imported, "openb.gpu_capacity_milli"), "6212000");
  for (size_t i = 1; i < imported->records.size(); ++i) {
    ASSERT_LE(imported->records[i - 1].time_ns(), imported->records[i].time_ns()) << i;
  }
}

TEST(SharedDataTest, EveryPodListVariantImportsEveryRow) {
  REQUIRE_DATA(dir);
  for (const char* name : {"openb_pod_list_default.csv", "openb_pod_list_gpushare40.csv", "openb_pod_list_cpu050.csv",
                           "openb_pod_list_multigpu20.csv"}) {
    const std::string path = dir + "/" + name;
    if (!fs::exists(path)) continue;
    auto imported = ImportOpenb({dir + "/openb_node_list_gpu_node.csv", path}, {});
    ASSERT_TRUE(imported.ok()) << imported.message();
    int64_t added = 0;
    for (const Record& r : imported->records) added += r.api().has_pod() && r.api().type() == ADDED ? 1 : 0;
    EXPECT_EQ(added, DataRows(path)) << name;
  }
}

// The first 300 pods (by creation time, with deletions) on all 1,523 nodes replay to completion.
TEST(SharedDataTest, ReplayOfAPrefixRunsToCompletion) {
  REQUIRE_DATA(dir);
  std::ifstream in(dir + "/openb_pod_list_default.csv");
  std::string line, prefix;
  for (int i = 0; i <= 300 && std::getline(in, line); ++i) prefix += line + "\n";
  auto imported = ImportOpenb({dir + "/openb_node_list_all_node.csv", WriteTemp("prefix.csv", prefix)}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration("1.27");
  auto replayer = replay::Replayer::Create(std::move(options));
  ASSERT_TRUE(replayer.ok()) << replayer.message();
  Outcome ran = (*replayer)->Run(imported->records);
  ASSERT_TRUE(ran.ok()) << ran.message();
  std::set<std::string> attempted, bound;
  for (const Record& r : (*replayer)->log().records()) {
    if (r.has_attempt()) attempted.insert(r.attempt().pod());
    if (r.has_binding()) bound.insert(r.binding().pod());
  }
  EXPECT_EQ(attempted.size(), 300u);
  EXPECT_GT(bound.size(), 250u) << "a light prefix on 1,523 nodes mostly fits";
}

}  // namespace
}  // namespace schedcheck::trace
