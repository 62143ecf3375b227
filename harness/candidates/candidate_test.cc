// Candidate specs, and that a forget-events wrapper keeps every scheduling point of the plugin it
// wraps while registering no events. Out-of-process specs: parsing, the kube: adapter lookup, and
// exec: / kube: through `schedcheck serve` giving the in-process decision log.
#include "harness/candidates/candidate.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/candidates/forget_events.h"
#include "harness/candidates/kube_adapter.h"
#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"
#include "traces/trace_file.h"

namespace schedcheck::candidates {
namespace {

using reference::ExtensionPoint;

std::unique_ptr<reference::Framework> Build(const Candidate& c, reference::Handle* handle) {
  auto fw = reference::Framework::Create(
      c.config.profiles.at(0), c.registry ? *c.registry : reference::PluginRegistry(), handle);
  EXPECT_TRUE(fw.ok()) << fw.message();
  return fw.ok() ? std::move(*fw) : nullptr;
}

TEST(CandidateTest, WeightChangesOnlyThatPlugin) {
  auto base = reference::DefaultConfiguration("1.27");
  auto c = MakeCandidate("weight:NodeAffinity=5", base);
  ASSERT_TRUE(c.ok()) << c.message();
  reference::Snapshot snapshot;
  reference::Handle handle{reference::FeaturesFor(reference::CompatLevel::kV1_27)};
  handle.snapshot = &snapshot;
  auto fw = Build(*c, &handle);
  auto ref = Build({"reference", base, nullptr}, &handle);
  ASSERT_TRUE(fw && ref);
  EXPECT_EQ(fw->ScoreWeight("NodeAffinity"), 5);
  EXPECT_EQ(ref->ScoreWeight("NodeAffinity"), 2);
  EXPECT_EQ(fw->ScoreWeight("TaintToleration"), ref->ScoreWeight("TaintToleration"));
}

TEST(CandidateTest, BadSpecsNameWhatIsWrong) {
  auto base = reference::DefaultConfiguration("1.27");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"weight:NoSuchPlugin=2", "NoSuchPlugin is not enabled"},
      {"weight:NodeAffinity=0", "want an integer from 1 to 100"},
      {"weight:NodeAffinity", "want PLUGIN=N"},
      {"forget-events:NoSuchPlugin", "unknown plugin \"NoSuchPlugin\""},
      {"config:/no/such/file.yaml", "/no/such/file.yaml"},
      {"mutate:x", "unknown kind \"mutate\""},
      {"weight:", "want KIND:ARG"},
      {"exec:", "want exec:CMD ARGS"},
      {"exec:\"  \"", "want exec:CMD ARGS"},
      {"exec:my-scheduler+weight:NodeAffinity=2", "cannot be joined with '+'"},
      {"exec:my-scheduler+reference", "cannot be joined with '+'"},
      {"reference+exec:my-scheduler", "cannot be joined with '+'"},
      {"weight:NodeAffinity=2+kube:1.27", "cannot be joined with '+'"},
      {"kube:1.27+forget-events:NodeAffinity", "cannot be joined with '+'"},
      {"kube:1.30",
       "unknown kube-scheduler version \"1.30\" (known: kube:1.27, kube:1.35, kube:1.36, "
       "kube:1.37, or a "
       "patch release kube:X.Y.Z of a minor with a bridge: 1.27, 1.35, 1.36, 1.37)"},
      {"kube:1.30.1",
       "candidate \"kube:1.30.1\": no bridge for minor 1.30 (supported minors: 1.27, 1.35, 1.36, "
       "1.37)"},
      {"kube:1.37.1+weight:NodeAffinity=2", "cannot be joined with '+'"},
      {"kube:", "unknown kube-scheduler version \"\""},
      {"kube-src:", "want kube-src:DIR, a local kubernetes checkout"},
      {"kube-src:/src/k+weight:NodeAffinity=2", "cannot be joined with '+'"},
      {"weight:NodeAffinity=2+kube-src:/src/k", "cannot be joined with '+'"},
  };
  for (const auto& [spec, want] : cases) {
    auto c = MakeCandidate(spec, base);
    ASSERT_FALSE(c.ok()) << spec;
    EXPECT_NE(c.message().find(want), std::string::npos) << spec << ": " << c.message();
    EXPECT_NE(c.message().find(spec), std::string::npos) << c.message();
  }
}

TEST(CandidateTest, ExecSpecsRunACommand) {
  auto base = reference::DefaultConfiguration("1.27");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"exec:my-scheduler --v=2", "my-scheduler --v=2"},
      {"exec:\"my-scheduler --v=2\"", "my-scheduler --v=2"},        // one pair of quotes stripped
      {"exec:\"\"quoted\"\"", "\"quoted\""},                        // only one
      {"exec:\"run --mode=a+weight:b\"", "run --mode=a+weight:b"},  // quoted: no join
      {"exec:g++ -o x x.cc && ./x --n=1+2", "g++ -o x x.cc && ./x --n=1+2"},  // '+' of the command
  };
  for (const auto& [spec, command] : cases) {
    auto c = MakeCandidate(spec, base);
    ASSERT_TRUE(c.ok()) << spec << ": " << c.message();
    EXPECT_TRUE(c->out_of_process()) << spec;
    EXPECT_EQ(c->command, command) << spec;
    EXPECT_EQ(c->spec, spec);
    EXPECT_EQ(c->registry, nullptr);
    EXPECT_EQ(c->config.profiles.size(), base.profiles.size());
    auto is = IsOutOfProcess(spec);
    ASSERT_TRUE(is.ok()) << is.message();
    EXPECT_TRUE(*is) << spec;
  }
  for (const std::string spec : {"reference", "weight:NodeAffinity=5+forget-events:NodeAffinity"}) {
    auto c = MakeCandidate(spec, base);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_FALSE(c->out_of_process()) << spec;
    auto is = IsOutOfProcess(spec);
    ASSERT_TRUE(is.ok());
    EXPECT_FALSE(*is) << spec;
  }
  // IsOutOfProcess checks the form without looking for the adapter.
  EXPECT_TRUE(*IsOutOfProcess("kube:1.37"));
  EXPECT_FALSE(IsOutOfProcess("kube:2.0").ok());
  EXPECT_FALSE(IsOutOfProcess("exec:x+kube:1.27").ok());
  EXPECT_TRUE(*IsOutOfProcess("kube-src:/src/kubernetes"));
  for (const char* kind : {"exec:", "kube:1.27", "kube:1.37", "kube-src:DIR",
                           "weight:", "config:", "forget-events:"}) {
    EXPECT_NE(CandidateHelp().find(kind), std::string::npos) << kind;
  }
}

// Test helpers for files and runfiles.
std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}
std::string Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/" + path;
}
std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
// Writes `path` (and its folders) with the given text and mode.
void WriteFile(const std::string& path, const std::string& text, mode_t mode) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path;
}

TEST(KubeAdapterTest, LooksInTheEnvironmentDirectoryOnly) {
  const std::string dir = Tmp("adapters-env");
  WriteFile(dir + "/kube-adapter-1.27", "#!/bin/sh\n", 0755);
  WriteFile(Tmp("bin-env/kube/kube-adapter-1.37"), "#!/bin/sh\n", 0755);
  AdapterSearch search{.adapter_dir = dir,
                       .executable = Tmp("bin-env/cli/schedcheck"),
                       .runfiles_dirs = {},
                       .build_script = ""};
  auto found = FindKubeAdapter("1.27", search);
  ASSERT_TRUE(found.ok()) << found.message();
  EXPECT_EQ(*found, dir + "/kube-adapter-1.27");
  // Set, but without 1.37: no fallback to the executable's neighbourhood, which has one.
  auto missing = FindKubeAdapter("1.37", search);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(
      missing.message(),
      "kube:1.37: the adapter executable was not found (looked in " + dir +
          "/kube-adapter-1.37 (from SCHEDCHECK_KUBE_ADAPTER_DIR)); build it with: bazel build "
          "//harness/kube:kube-adapter-1.37");
}

TEST(KubeAdapterTest, LooksBesideTheExecutableThenInRunfiles) {
  const std::string bin = Tmp("bin");  // stands for bazel-bin/harness
  AdapterSearch search{.adapter_dir = "",
                       .executable = bin + "/cli/schedcheck",
                       .runfiles_dirs = {Tmp("rf1"), Tmp("rf2")},
                       .build_script = ""};
  auto none = FindKubeAdapter("1.27", search);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("looked in " + bin + "/kube/kube-adapter-1.27, " + Tmp("rf1") +
                                "/schedcheck/harness/kube/kube-adapter-1.27, " + Tmp("rf2") +
                                "/schedcheck/harness/kube/kube-adapter-1.27)"),
            std::string::npos)
      << none.message();
  EXPECT_NE(none.message().find("build it with: bazel build //harness/kube:kube-adapter-1.27"),
            std::string::npos);
  // A file that is not executable does not count.
  WriteFile(Tmp("rf2/schedcheck/harness/kube/kube-adapter-1.27"), "#!/bin/sh\n", 0644);
  EXPECT_FALSE(FindKubeAdapter("1.27", search).ok());
  WriteFile(Tmp("rf2/schedcheck/harness/kube/kube-adapter-1.27"), "#!/bin/sh\n", 0755);
  EXPECT_EQ(*FindKubeAdapter("1.27", search),
            Tmp("rf2") + "/schedcheck/harness/kube/kube-adapter-1.27");
  WriteFile(bin + "/kube/kube-adapter-1.27", "#!/bin/sh\n", 0755);
  EXPECT_EQ(*FindKubeAdapter("1.27", search), bin + "/kube/kube-adapter-1.27");
}

TEST(KubeAdapterTest, ShellQuote) {
  EXPECT_EQ(ShellQuote("/a b/kube-adapter-1.27"), "'/a b/kube-adapter-1.27'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
}

// The in-process reference's decisions on a corpus trace, and that trace's configuration.
struct CorpusReplay {
  trace::Trace trace;
  reference::SchedulerConfiguration base;
  CandidateReplayOptions options;  // the configuration text for a child
  std::vector<trace::Record> reference;
};

CorpusReplay ReplayReference(const std::string& name) {
  CorpusReplay r;
  auto trace = trace::LoadTrace(Runfile("traces/corpus/" + name + ".jsonl"));
  EXPECT_TRUE(trace.ok()) << trace.message();
  if (!trace.ok()) return r;
  r.trace = std::move(*trace);
  r.base = reference::DefaultConfiguration("1.27");
  const std::string config = Runfile("traces/corpus/" + name + ".config.yaml");
  if (std::filesystem::exists(config)) {
    auto loaded = reference::LoadSchedulerConfiguration(config, "1.27");
    EXPECT_TRUE(loaded.ok()) << loaded.message();
    if (loaded.ok()) r.base = std::move(*loaded);
    r.options.config_yaml = ReadFile(config);
    r.options.config_source = config;
  }
  auto ref = ReplayCandidate(*MakeCandidate("reference", r.base), r.trace);
  EXPECT_TRUE(ref.ok()) << ref.message();
  if (ref.ok()) r.reference = std::move(*ref);
  return r;
}

void ExpectSameRecords(const std::vector<trace::Record>& got,
                       const std::vector<trace::Record>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].SerializeAsString(), want[i].SerializeAsString()) << i;
}

TEST(OutOfProcessTest, ExecThroughServeEqualsInProcessOnEveryCorpusTrace) {
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(Runfile("traces/corpus"))) {
    if (entry.path().extension() != ".jsonl") continue;
    ++traces;
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    CorpusReplay r = ReplayReference(name);
    ASSERT_GT(r.reference.size(), 5u);
    auto c = MakeCandidate("exec:" + Runfile("harness/cli/schedcheck") + " serve", r.base);
    ASSERT_TRUE(c.ok()) << c.message();
    auto log = ReplayCandidate(*c, r.trace, r.options);
    ASSERT_TRUE(log.ok()) << log.message();
    ExpectSameRecords(*log, r.reference);
  }
  EXPECT_GE(traces, 2);
}

TEST(OutOfProcessTest, KubeSpecRunsTheAdapterFoundThroughTheEnvironment) {
  // A stand-in adapter: the reference behind the protocol.
  const std::string dir = Tmp("kube-adapters");
  WriteFile(dir + "/kube-adapter-1.27",
            "#!/bin/sh\nexec '" + Runfile("harness/cli/schedcheck") + "' serve \"$@\"\n", 0755);
  ASSERT_EQ(::setenv("SCHEDCHECK_KUBE_ADAPTER_DIR", dir.c_str(), 1), 0);
  CorpusReplay r = ReplayReference("unblock");  // has a configuration: it must reach the child
  auto c = MakeCandidate("kube:1.27", r.base);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->command, ShellQuote(dir + "/kube-adapter-1.27"));
  auto log = ReplayCandidate(*c, r.trace, r.options);
  ASSERT_TRUE(log.ok()) << log.message();
  ExpectSameRecords(*log, r.reference);
  // Without the configuration text the child schedules with the default profile: other decisions.
  auto default_log = ReplayCandidate(*c, r.trace);
  ASSERT_TRUE(default_log.ok()) << default_log.message();
  std::string with_config, without;
  for (const trace::Record& rec : r.reference) with_config += rec.SerializeAsString();
  for (const trace::Record& rec : *default_log) without += rec.SerializeAsString();
  EXPECT_NE(without, with_config);

  auto missing = MakeCandidate("kube:1.37", r.base);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(
      missing.message(),
      "kube:1.37: the adapter executable was not found (looked in " + dir +
          "/kube-adapter-1.37 (from SCHEDCHECK_KUBE_ADAPTER_DIR)); build it with: bazel build "
          "//harness/kube:kube-adapter-1.37");
  ASSERT_EQ(::unsetenv("SCHEDCHECK_KUBE_ADAPTER_DIR"), 0);
}

TEST(OutOfProcessTest, AFailingChildIsAnErrorNamingTheRequest) {
  CorpusReplay r = ReplayReference("unblock");
  auto c = MakeCandidate("exec:echo dying >&2; exit 3", r.base);
  ASSERT_TRUE(c.ok()) << c.message();
  auto log = ReplayCandidate(*c, r.trace, r.options);
  ASSERT_FALSE(log.ok());
  // The child may exit before or after Hello is written: either way request and status are named.
  EXPECT_NE(log.message().find("request 1 (Hello): "), std::string::npos) << log.message();
  EXPECT_NE(log.message().find("the child exited with status 3"), std::string::npos)
      << log.message();
}

TEST(ForgetEventsTest, KeepsEveryPointButRegistersNoEvents) {
  auto base = reference::DefaultConfiguration("1.27");
  auto c =
      MakeCandidate("reference+forget-events:TaintToleration+forget-events:DefaultBinder", base);
  ASSERT_TRUE(c.ok()) << c.message();
  ASSERT_NE(c->registry, nullptr);
  reference::Snapshot snapshot;
  reference::Handle handle{reference::FeaturesFor(reference::CompatLevel::kV1_27)};
  handle.snapshot = &snapshot;
  auto fw = Build(*c, &handle);
  auto ref = Build({"reference", base, nullptr}, &handle);
  ASSERT_TRUE(fw && ref);
  for (ExtensionPoint p :
       {ExtensionPoint::kQueueSort, ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,
        ExtensionPoint::kPostFilter, ExtensionPoint::kPreScore, ExtensionPoint::kScore,
        ExtensionPoint::kBind}) {
    EXPECT_EQ(fw->PluginNames(p), ref->PluginNames(p)) << reference::ExtensionPointName(p);
  }
  EXPECT_EQ(fw->ScoreWeight("TaintToleration"), 3);
  auto count = [](const reference::Framework& f, const std::string& name) {
    size_t n = 0;
    for (const auto& [event, plugin] : f.EventRegistrations()) n += plugin == name;
    return n;
  };
  EXPECT_GT(count(*ref, "TaintToleration"), 0u);
  EXPECT_EQ(count(*ref, "DefaultBinder"), 6u);  // no EnqueueExtensions: the default set
  EXPECT_EQ(count(*fw, "TaintToleration"), 0u);
  EXPECT_EQ(count(*fw, "DefaultBinder"), 0u);
  EXPECT_EQ(fw->EventRegistrations().size() + count(*ref, "TaintToleration") +
                count(*ref, "DefaultBinder"),
            ref->EventRegistrations().size());
}

}  // namespace
}  // namespace schedcheck::candidates
