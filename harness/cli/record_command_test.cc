#include "harness/cli/record_command.h"

#include <gtest/gtest.h>

namespace schedcheck::cli {
namespace {

TEST(RecorderCandidates, EnvironmentWins) {
  EXPECT_EQ(RecorderCandidates("/b/bazel-bin/harness/cli/schedcheck", "/opt/recorder", {"/r"}),
            std::vector<std::string>{"/opt/recorder"});
}

TEST(RecorderCandidates, BesideTheExecutableThenRunfiles) {
  EXPECT_EQ(RecorderCandidates("/b/bazel-bin/harness/cli/schedcheck", "", {"/r1", "/r2"}),
            (std::vector<std::string>{"/b/bazel-bin/harness/kube/recorder",
                                      "/r1/schedcheck/harness/kube/recorder",
                                      "/r2/schedcheck/harness/kube/recorder"}));
}

}  // namespace
}  // namespace schedcheck::cli
