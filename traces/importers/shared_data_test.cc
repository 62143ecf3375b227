// Imports the real Alibaba openb trace from ../shared/data (never copied into the repo). Skips,
// saying why, when the data is absent. Looked up in: $SCHEDCHECK_SHARED_DATA, /work/shared/data,
// $BUILD_WORKSPACE_DIRECTORY/../shared/data, and ../shared/data beside the source tree this
// test's runfiles link to. The replay of a prefix: harness/replay/openb_replay_test.cc.
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "traces/importers/import_testing.h"
#include "traces/importers/openb_importer.h"

namespace schedcheck::trace {
namespace {

namespace fs = std::filesystem;
using testing::Label;

#define REQUIRE_DATA(dir)                                                                        \
  const std::string dir = testing::FindSharedOpenbDir();                                         \
  if (dir.empty()) {                                                                             \
    GTEST_SKIP() << "shared data absent: no alibaba-gpu-v2023/openb_pod_list_default.csv under " \
                    "$SCHEDCHECK_SHARED_DATA, /work/shared/data or ../shared/data; set "         \
                    "SCHEDCHECK_SHARED_DATA";                                                    \
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
  auto imported =
      ImportOpenb({dir + "/openb_node_list_all_node.csv", dir + "/openb_pod_list_default.csv"}, {});
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
  for (const char* name : {"openb_pod_list_default.csv", "openb_pod_list_gpushare40.csv",
                           "openb_pod_list_cpu050.csv", "openb_pod_list_multigpu20.csv"}) {
    const std::string path = dir + "/" + name;
    if (!fs::exists(path)) continue;
    auto imported = ImportOpenb({dir + "/openb_node_list_gpu_node.csv", path}, {});
    ASSERT_TRUE(imported.ok()) << imported.message();
    int64_t added = 0;
    for (const Record& r : imported->records)
      added += r.api().has_pod() && r.api().type() == ADDED ? 1 : 0;
    EXPECT_EQ(added, DataRows(path)) << name;
  }
}

}  // namespace
}  // namespace schedcheck::trace
