// `schedcheck minimize` as a command: exit codes (0 written, 1 nothing to minimize, 2 bad input),
// the files it writes, the summary line, the budget, and byte-identical output for the same input.
#include "harness/cli/minimize_command.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "harness/workloads/workloads.h"
#include "traces/trace_file.h"
#include "traces/trace_writer.h"

namespace schedcheck::cli {
namespace {

namespace fs = std::filesystem;

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return (fs::path(dir == nullptr ? "/tmp" : dir) / name).string();
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

MinimizeCommandOptions Options(const std::string& trace, const std::string& candidate,
                               const std::string& output) {
  MinimizeCommandOptions o;
  o.trace = trace;
  o.candidate = candidate;
  o.output = output;
  return o;
}

MinimizeCommandOptions With(MinimizeCommandOptions o, const std::string& config,
                            double horizon_seconds = 600) {
  o.config = config;
  o.horizon_seconds = horizon_seconds;
  return o;
}

class MinimizeCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    auto w = workloads::Generate(
        "SchedulingBasic", {.nodes = 12, .initial_pods = 20, .measured_pods = 200, .seed = 4});
    ASSERT_TRUE(w.ok()) << w.message();
    trace_ = Tmp("basic.trace");
    ASSERT_TRUE(trace::WriteTrace(trace_, w->trace).ok());
    most_ = Tmp("most.yaml");
    std::ofstream(most_)
        << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
           "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n"
           "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: "
           "MostAllocated\n";
  }

  int Run(MinimizeCommandOptions o) {
    out_.str("");
    err_.str("");
    return RunMinimizeCommand(o, out_, err_);
  }

  std::string trace_, most_;
  std::ostringstream out_, err_;
};

TEST_F(MinimizeCommandTest, WritesTheMinimalTraceAndItsDiffDeterministically) {
  MinimizeCommandOptions o = Options(trace_, "config:" + most_, Tmp("a.trace"));
  ASSERT_EQ(Run(o), 0) << err_.str();
  const std::string first_out = out_.str();
  EXPECT_NE(first_out.find("events 234 → "), std::string::npos) << first_out;
  EXPECT_NE(first_out.find("[soft]"), std::string::npos) << first_out;
  auto small = trace::LoadTrace(Tmp("a.trace"));
  ASSERT_TRUE(small.ok()) << small.message();
  EXPECT_LE(small->records.size(), 10u);
  EXPECT_EQ(small->header.labels().at("minimized_against"), "config:" + most_);
  EXPECT_EQ(small->header.labels().at("start_time"), workloads::kStartTime);
  const std::string diff = Read(Tmp("a.trace.diff.txt"));
  EXPECT_NE(diff.find("minimal trace (times since its first event):"), std::string::npos) << diff;
  EXPECT_NE(diff.find("explanation of the first divergence:"), std::string::npos) << diff;
  EXPECT_NE(diff.find("NodeResourcesFit"), std::string::npos) << diff;

  o.output = Tmp("b.trace");
  ASSERT_EQ(Run(o), 0) << err_.str();
  EXPECT_EQ(Read(Tmp("a.trace")), Read(Tmp("b.trace")));
  EXPECT_EQ(Read(Tmp("a.trace.diff.txt")), Read(Tmp("b.trace.diff.txt")));
}

TEST_F(MinimizeCommandTest, TheSmallTraceRecordsTheVolumeControllersItWasReplayedWith) {
  // Given as flags, kept as the header labels that ask for them, so it replays alike on its own.
  MinimizeCommandOptions o = Options(trace_, "config:" + most_, Tmp("volumes.trace"));
  o.volume_controllers = true;
  o.volume_latency_seconds = 2.5;
  ASSERT_EQ(Run(o), 0) << err_.str();
  auto small = trace::LoadTrace(Tmp("volumes.trace"));
  ASSERT_TRUE(small.ok()) << small.message();
  EXPECT_EQ(small->header.labels().at("volume_controllers"), "on");
  EXPECT_EQ(small->header.labels().at("volume_latency"), "2.5");
  // Without them, neither label.
  ASSERT_EQ(Run(Options(trace_, "config:" + most_, Tmp("plain.trace"))), 0) << err_.str();
  auto plain = trace::LoadTrace(Tmp("plain.trace"));
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->header.labels().count("volume_controllers"), 0u);
  EXPECT_EQ(plain->header.labels().count("volume_latency"), 0u);
}

TEST_F(MinimizeCommandTest, AnEquivalentCandidateExitsOneAndWritesNothing) {
  MinimizeCommandOptions o = Options(trace_, "reference", Tmp("none.trace"));
  EXPECT_EQ(Run(o), 1);
  EXPECT_NE(out_.str().find("no divergence"), std::string::npos) << out_.str();
  EXPECT_FALSE(fs::exists(Tmp("none.trace")));
  EXPECT_FALSE(fs::exists(Tmp("none.trace.diff.txt")));
  // --allow-soft: a MostAllocated build only moves placements, so there is nothing left.
  o.candidate = "config:" + most_;
  o.allow_soft = true;
  EXPECT_EQ(Run(o), 1) << out_.str() << err_.str();
  EXPECT_FALSE(fs::exists(Tmp("none.trace")));
}

// --baseline: the candidate is compared with another build; each side has its configuration.
TEST_F(MinimizeCommandTest, ABaselineBuildWithItsOwnConfiguration) {
  MinimizeCommandOptions o = Options(trace_, "reference", Tmp("base.trace"));
  o.baseline_config = most_;  // the reference with MostAllocated vs the reference
  EXPECT_EQ(Run(o), 0) << out_.str() << err_.str();
  const std::string text = Read(Tmp("base.trace.diff.txt"));
  EXPECT_NE(
      text.find("divergences (baseline reference with " + most_ + " vs candidate reference):"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("baseline reference with " + most_ + " (profile"), std::string::npos) << text;
  // The same build and configuration on both sides: nothing to minimize.
  o.baseline = "config:" + most_;
  o.baseline_config = "";
  o.candidate = "config:" + most_;
  o.output = Tmp("same.trace");
  EXPECT_EQ(Run(o), 1) << out_.str() << err_.str();
  EXPECT_NE(out_.str().find("is equivalent to the baseline config:"), std::string::npos)
      << out_.str();
  EXPECT_FALSE(fs::exists(Tmp("same.trace")));
}

// Neither side is the reference: the divergence file names the sides "baseline"/"candidate" and
// ends with the reference check. The candidate only restates a default weight, so the reference
// (default profile: the baseline has no file) sides with it.
TEST_F(MinimizeCommandTest, NeitherSideIsTheReference) {
  MinimizeCommandOptions o = Options(trace_, "weight:TaintToleration=3", Tmp("neither.trace"));
  o.baseline = "config:" + most_;
  EXPECT_EQ(Run(o), 0) << out_.str() << err_.str();
  EXPECT_NE(out_.str().find("]: baseline t="), std::string::npos) << out_.str();
  const std::string text = Read(Tmp("neither.trace.diff.txt"));
  EXPECT_NE(text.find("as the baseline saw it"), std::string::npos) << text;
  EXPECT_NE(text.find("reference check: the reference (default profile) places pod "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(": agrees with the candidate\n"), std::string::npos) << text;
}

// A build whose processes answer differently (the default profile from the first, MostAllocated
// from the second) is reported as not deterministic, exit 3, before any minimization.
TEST_F(MinimizeCommandTest, ANondeterministicBuildExitsThree) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const std::string serve =
      std::string(srcdir == nullptr ? "." : srcdir) + "/schedcheck/harness/cli/schedcheck serve";
  const std::string script = Tmp("flip.sh");
  std::ofstream(script) << "n=$(cat " << Tmp("flip.count") << " 2>/dev/null || echo 0)\n"
                        << "echo $((n + 1)) > " << Tmp("flip.count") << "\n"
                        << "if [ $((n % 2)) -eq 0 ]; then exec " << serve << "; fi\n"
                        << "exec " << serve << " --config " << most_ << "\n";
  MinimizeCommandOptions o = Options(trace_, "exec:sh " + script, Tmp("flip.trace"));
  EXPECT_EQ(Run(o), 3) << out_.str() << err_.str();
  EXPECT_NE(err_.str().find("build exec:sh " + script + " is not deterministic on trace " + trace_ +
                            ": first difference at record "),
            std::string::npos)
      << err_.str();
  EXPECT_FALSE(fs::exists(Tmp("flip.trace")));
}

TEST_F(MinimizeCommandTest, BadInputExitsTwoNamingItAndWritesNothing) {
  std::ofstream(Tmp("garbage.trace")) << "not a trace at all";
  struct Case {
    MinimizeCommandOptions o;
    std::string want;
  };
  for (const Case& c : {
           Case{Options(Tmp("garbage.trace"), "reference", Tmp("bad.trace")), "garbage.trace"},
           Case{Options(trace_, "weight:NoSuchPlugin=3", Tmp("bad.trace")), "NoSuchPlugin"},
           Case{With(Options(trace_, "reference", Tmp("bad.trace")), Tmp("missing.yaml")),
                "missing.yaml"},
           Case{Options(trace_, "exec:\"exit 3\"", Tmp("bad.trace")), "candidate replay"},
           Case{With(Options(trace_, "reference", Tmp("bad.trace")), "", -1), "--horizon"},
       }) {
    EXPECT_EQ(Run(c.o), 2) << c.want;
    EXPECT_NE(err_.str().find(c.want), std::string::npos) << err_.str();
    EXPECT_FALSE(fs::exists(Tmp("bad.trace"))) << c.want;
  }
}

TEST_F(MinimizeCommandTest, TheReplayBudgetIsReported) {
  MinimizeCommandOptions o = Options(trace_, "config:" + most_, Tmp("budget.trace"));
  o.max_replays = 3;
  ASSERT_EQ(Run(o), 0) << err_.str();
  EXPECT_NE(out_.str().find("replays 5 (--max-replays 3 reached"), std::string::npos) << out_.str();
}

}  // namespace
}  // namespace schedcheck::cli
