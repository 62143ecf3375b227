// kube:VERSION specs: which versions are pinned, which are patch releases built on first use, and
// what a version that cannot be built says (BuildKubeAdapter with a stand-in build script, and
// with the real harness/kube/build.sh asking a module proxy that is switched off).
#include "harness/candidates/kube_adapter.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace schedcheck::candidates {
namespace {

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

void WriteFile(const std::string& path, const std::string& text, mode_t mode) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path;
}

TEST(KubeVersionTest, PinnedMinorsAndPatchReleases) {
  auto minor = ParseKubeVersion("1.37");
  ASSERT_TRUE(minor.ok()) << minor.message();
  EXPECT_EQ(minor->pinned, "1.37");
  EXPECT_EQ(minor->patch, "");
  auto patch = ParseKubeVersion("1.27.6");
  ASSERT_TRUE(patch.ok()) << patch.message();
  EXPECT_EQ(patch->pinned, "");
  EXPECT_EQ(patch->patch, "1.27.6");
  // The pinned patch itself is the Bazel-built adapter when there is one.
  auto pinned_patch = ParseKubeVersion("1.37.2");
  ASSERT_TRUE(pinned_patch.ok()) << pinned_patch.message();
  EXPECT_EQ(pinned_patch->pinned, "1.37");
  EXPECT_EQ(pinned_patch->patch, "1.37.2");
  EXPECT_EQ(pinned_patch->first_use, "");
  // kube:1.36's target is `manual` (CI does not build it): its pinned patch is built on first use.
  auto manual = ParseKubeVersion("1.36");
  ASSERT_TRUE(manual.ok()) << manual.message();
  EXPECT_EQ(manual->pinned, "1.36");
  EXPECT_EQ(manual->patch, "");
  EXPECT_EQ(manual->first_use, "1.36.4");
  auto served = ParseKubeVersion("1.36.1");
  ASSERT_TRUE(served.ok()) << served.message();
  EXPECT_EQ(served->patch, "1.36.1");
  EXPECT_EQ(minor->first_use, "");
  EXPECT_EQ(ParseKubeVersion("1.35")->first_use, "1.35.4");
}

TEST(KubeVersionTest, AMinorWithoutABridgeListsTheSupportedOnes) {
  auto v = ParseKubeVersion("1.30.1");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.message(), "no bridge for minor 1.30 (supported minors: 1.27, 1.35, 1.36, 1.37)");
  for (const char* bad : {"1.30", "1.37.x", "v1.37.1", "1.37.1.0", "2.0.1", ""}) {
    auto b = ParseKubeVersion(bad);
    EXPECT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.message().find("unknown kube-scheduler version"), std::string::npos)
        << bad << ": " << b.message();
  }
}

TEST(KubeBuildTest, TheScriptsReasonAndExitStatusReachTheUser) {
  AdapterSearch search;
  search.build_script = Tmp("stub/build.sh");
  const std::string adapter = Tmp("stub/kube-adapter");
  WriteFile(adapter, "#!/bin/sh\n", 0755);
  // Built (or cached): the path on stdout; the arguments are the version and --cache.
  WriteFile(search.build_script,
            "[ \"$1 $2 $3\" = '--kube 1.37.1 --cache' ] || exit 1\n"
            "echo progress >&2\necho '" +
                adapter + "'\n",
            0755);
  auto built = BuildKubeAdapter(*ParseKubeVersion("1.37.1"), search);
  ASSERT_TRUE(built.ok()) << built.message();
  EXPECT_EQ(*built, adapter);
  // Exit 2: the reason, on stdout, is the error.
  WriteFile(search.build_script,
            "echo 'the Go module proxy does not serve k8s.io/kubernetes@v1.37.9: 403 Forbidden'\n"
            "exit 2\n",
            0755);
  auto unserved = BuildKubeAdapter(*ParseKubeVersion("1.37.9"), search);
  ASSERT_FALSE(unserved.ok());
  EXPECT_EQ(unserved.message(),
            "kube:1.37.9: the Go module proxy does not serve k8s.io/kubernetes@v1.37.9: 403 "
            "Forbidden");
  // Any other failure (a compile error): its status, and where its messages went.
  WriteFile(search.build_script, "echo 'compile error' >&2\nexit 1\n", 0755);
  auto broken = BuildKubeAdapter(*ParseKubeVersion("1.37.1"), search);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.message().find("kube:1.37.1: building the adapter failed (" +
                                  search.build_script + " exited 1; its messages are above)"),
            std::string::npos)
      << broken.message();
  search.build_script = "";
  auto nowhere = BuildKubeAdapter(*ParseKubeVersion("1.37.1"), search);
  ASSERT_FALSE(nowhere.ok());
  EXPECT_NE(nowhere.message().find("SCHEDCHECK_KUBE_SOURCES"), std::string::npos);
}

// kube-src:DIR runs the script with the directory; its reasons name the spec.
TEST(KubeBuildTest, AKubeSrcBuildPassesTheDirectory) {
  AdapterSearch search;
  search.build_script = Tmp("stub-src/build.sh");
  const std::string adapter = Tmp("stub-src/kube-adapter");
  const std::string tree = Tmp("stub-src/my tree");
  std::filesystem::create_directories(tree);
  WriteFile(adapter, "#!/bin/sh\n", 0755);
  WriteFile(
      search.build_script,
      "[ \"$1|$2|$3\" = '--kube-src|" + tree + "|--cache' ] || exit 1\necho '" + adapter + "'\n",
      0755);
  auto built = BuildKubeSrcAdapter(tree, search);
  ASSERT_TRUE(built.ok()) << built.message();
  EXPECT_EQ(*built, adapter);
  WriteFile(search.build_script, "echo 'no bridge for minor 1.30'\nexit 2\n", 0755);
  auto refused = BuildKubeSrcAdapter(tree, search);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(), "kube-src:" + tree + ": no bridge for minor 1.30");
  auto missing = BuildKubeSrcAdapter(Tmp("stub-src/none"), search);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "kube-src:" + Tmp("stub-src/none") +
                                   ": not a directory (want the top of a kubernetes checkout)");
}

// The real build script on a directory that is no kubernetes checkout: exit 2, named.
TEST(KubeBuildTest, AKubeSrcThatIsNoCheckoutIsNamed) {
  AdapterSearch search = AdapterSearch::FromEnvironment();
  ASSERT_FALSE(search.build_script.empty()) << "harness/kube/build.sh not in the runfiles";
  const std::string dir = Tmp("not-kubernetes");
  WriteFile(dir + "/go.mod", "module example.com/other\n", 0644);
  auto v = BuildKubeSrcAdapter(dir, search);
  ASSERT_FALSE(v.ok());
  const std::string real = std::filesystem::canonical(dir).string();
  EXPECT_EQ(v.message(), "kube-src:" + dir + ": " + real +
                             "/go.mod does not declare module k8s.io/kubernetes: not the top of a "
                             "kubernetes checkout");
}

// The real build script, found in the runfiles as schedcheck finds it, with the module proxy off
// and an empty module cache: a release it cannot fetch is exit 2 naming it and what Go said.
TEST(KubeBuildTest, AReleaseTheProxyDoesNotServeIsNamed) {
  AdapterSearch search = AdapterSearch::FromEnvironment();
  ASSERT_FALSE(search.build_script.empty()) << "harness/kube/build.sh not in the runfiles";
  const std::string home = Tmp("home");
  std::filesystem::create_directories(home);
  ASSERT_EQ(::setenv("GOPROXY", "off", 1), 0);
  ASSERT_EQ(::setenv("GOMODCACHE", (home + "/mod").c_str(), 1), 0);
  ASSERT_EQ(::setenv("GOCACHE", (home + "/build").c_str(), 1), 0);
  ASSERT_EQ(::setenv("SCHEDCHECK_CACHE", (home + "/schedcheck").c_str(), 1), 0);
  auto v = BuildKubeAdapter(*ParseKubeVersion("1.37.9"), search);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.message().find(
                "kube:1.37.9: the Go module proxy does not serve k8s.io/kubernetes@v1.37.9: "),
            std::string::npos)
      << v.message();
  EXPECT_NE(v.message().find("GOPROXY=off"), std::string::npos) << v.message();
  EXPECT_FALSE(std::filesystem::exists(home + "/schedcheck/adapters/kube-1.37.9"));
}

}  // namespace
}  // namespace schedcheck::candidates
