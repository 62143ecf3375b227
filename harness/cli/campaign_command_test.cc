// `schedcheck campaign` end to end on in-process builds: a planted bug is found, grouped and
// minimized; the same seed gives the same bytes; shards merge into the unsharded run; the
// reference against itself finds nothing; a crashing child is a finding; bad input exits 2.
#include "harness/cli/campaign_command.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace schedcheck::cli {
namespace {

namespace fs = std::filesystem;

std::string Dir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const fs::path dir = fs::path(tmp == nullptr ? "/tmp" : tmp) / ("campaign_" + name);
  fs::remove_all(dir);
  return dir.string();
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CommandRun {
  int code;
  std::string out, err;
};

CommandRun Campaign(CampaignCommandOptions o) {
  o.no_progress = true;
  std::ostringstream out, err;
  const int code = RunCampaignCommand(o, out, err, false);
  return {code, out.str(), err.str()};
}

CampaignCommandOptions Planted(const std::string& out) {
  CampaignCommandOptions o;
  o.candidate = "forget-events:NodeResourcesFit";
  o.traces = 30;
  o.seed = 11;
  o.out = out;
  o.max_replays = 200;
  return o;
}

TEST(CampaignCommand, FindsAPlantedBugGroupsAndMinimizesIt) {
  const std::string dir = Dir("planted");
  CommandRun r = Campaign(Planted(dir));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string summary = Read(fs::path(dir) / "summary.json");
  ASSERT_NE(summary.find("\"groups\""), std::string::npos);
  EXPECT_NE(r.out.find("GROUP "), std::string::npos) << r.out;
  // Every group has its first trace and diff; divergence groups their minimized trace and report.
  int minimized = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "groups")) {
    EXPECT_TRUE(fs::exists(entry.path() / "trace.trace")) << entry.path();
    const std::string diff = Read(entry.path() / "diff.txt");
    EXPECT_NE(diff.find("reproduce: schedcheck minimize trace.trace --candidate "
                        "forget-events:NodeResourcesFit"),
              std::string::npos)
        << diff;
    if (fs::exists(entry.path() / "min.trace")) {
      ++minimized;
      EXPECT_NE(Read(entry.path() / "report.html").find("<html"), std::string::npos);
      EXPECT_NE(Read(entry.path() / "min.diff.txt").find("events "), std::string::npos);
    }
  }
  EXPECT_GE(minimized, 1);
  // The planted bug is in NodeResourcesFit's events: some group blames it.
  EXPECT_NE(summary.find("NodeResourcesFit"), std::string::npos) << summary;
  EXPECT_NE(Read(fs::path(dir) / "junit.xml").find("<failure"), std::string::npos);
  EXPECT_NE(Read(fs::path(dir) / "summary.md").find("group(s) of findings"), std::string::npos);
}

TEST(CampaignCommand, SameSeedSameBytes) {
  const std::string a = Dir("same_a"), b = Dir("same_b");
  ASSERT_EQ(Campaign(Planted(a)).code, 1);
  ASSERT_EQ(Campaign(Planted(b)).code, 1);
  // Every file: the summaries, and each group's traces, diffs and reports.
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(a)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const fs::path rel = fs::relative(entry.path(), a);
    EXPECT_EQ(Read(entry.path()), Read(fs::path(b) / rel)) << rel;
  }
  EXPECT_GE(files, 3 + 5);
  // Another seed, other traces.
  CampaignCommandOptions other = Planted(Dir("same_c"));
  other.seed = 12;
  Campaign(other);
  EXPECT_NE(Read(fs::path(a) / "summary.json"), Read(fs::path(other.out) / "summary.json"));
}

TEST(CampaignCommand, ShardsMergeIntoTheUnshardedRun) {
  const std::string whole = Dir("whole"), s0 = Dir("shard0"), s1 = Dir("shard1"),
                    merged = Dir("merged");
  ASSERT_EQ(Campaign(Planted(whole)).code, 1);
  CampaignCommandOptions o = Planted(s0);
  o.shard = "0/2";
  CommandRun r0 = Campaign(o);
  o.out = s1;
  o.shard = "1/2";
  CommandRun r1 = Campaign(o);
  ASSERT_NE(r0.code, 2) << r0.err;
  ASSERT_NE(r1.code, 2) << r1.err;
  CampaignCommandOptions m;
  m.merge = {s0, s1};
  m.out = merged;
  CommandRun rm = Campaign(m);
  ASSERT_EQ(rm.code, 1) << rm.err;
  std::string want = Read(fs::path(whole) / "summary.json");
  const std::string shards = "\"shards\": [\n    \"0/1\"\n  ]";
  ASSERT_NE(want.find(shards), std::string::npos) << want;
  want.replace(want.find(shards), shards.size(), "\"shards\": [\n    \"0/2\",\n    \"1/2\"\n  ]");
  EXPECT_EQ(Read(fs::path(merged) / "summary.json"), want);
  // Each group's folder is the one of the shard that ran its first trace: the same files.
  for (const auto& entry : fs::directory_iterator(fs::path(whole) / "groups")) {
    const fs::path copy = fs::path(merged) / "groups" / entry.path().filename();
    EXPECT_EQ(Read(entry.path() / "diff.txt"), Read(copy / "diff.txt")) << copy;
    EXPECT_EQ(Read(entry.path() / "trace.trace"), Read(copy / "trace.trace")) << copy;
  }
}

TEST(CampaignCommand, ReferenceAgainstItselfFindsNothing) {
  CampaignCommandOptions o;
  o.candidate = "reference";
  o.traces = 15;
  o.out = Dir("self");
  CommandRun r = Campaign(o);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("15 of 15 traces without findings, 0 group(s)"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(fs::path(o.out) / "groups"));
}

// --generators ...,configs: each trace also gets a generated configuration, both sides. The
// reference against itself still agrees; a planted bug's groups save the configuration.
TEST(CampaignCommand, GeneratedConfigurationsRunOnBothSides) {
  CampaignCommandOptions self;
  self.candidate = "reference";
  self.traces = 15;
  self.generators = {"scenarios", "wide", "configs"};
  self.out = Dir("configs_self");
  CommandRun r = Campaign(self);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(Read(fs::path(self.out) / "summary.json").find("\"configs\""), std::string::npos);
  CampaignCommandOptions planted = Planted(Dir("configs_planted"));
  planted.generators = {"scenarios", "configs"};
  r = Campaign(planted);
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string summary = Read(fs::path(planted.out) / "summary.json");
  EXPECT_NE(summary.find("\"config\": \"config.yaml\""), std::string::npos) << summary;
  for (const auto& entry : fs::directory_iterator(fs::path(planted.out) / "groups")) {
    EXPECT_NE(Read(entry.path() / "config.yaml").find("KubeSchedulerConfiguration"),
              std::string::npos);
    EXPECT_NE(Read(entry.path() / "diff.txt").find(" --config config.yaml"), std::string::npos);
  }
  // A configuration of one's own contradicts generated ones.
  CampaignCommandOptions both = self;
  both.out = Dir("configs_both");
  both.candidate_config = "whatever.yaml";
  r = Campaign(both);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("contradict"), std::string::npos) << r.err;
}

TEST(CampaignCommand, ACrashingChildIsAFinding) {
  CampaignCommandOptions o;
  o.candidate = "exec:exit 3";
  o.traces = 3;
  o.generators = {"cluster-cases"};
  o.out = Dir("crash");
  CommandRun r = Campaign(o);
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string summary = Read(fs::path(o.out) / "summary.json");
  EXPECT_NE(summary.find("\"class\": \"crash\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"signature\": \"crash candidate at Hello: exited with status 3\""),
            std::string::npos)
      << summary;
  // Minimized like a divergence: the child fails on any input, so one event is left.
  EXPECT_NE(summary.find(" → 1: at Hello: exited with status 3\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"traces\": [\n        0,\n        1,\n        2\n      ]"),
            std::string::npos)
      << summary;
  for (const auto& entry : fs::directory_iterator(fs::path(o.out) / "groups")) {
    EXPECT_TRUE(fs::exists(entry.path() / "min.trace")) << entry.path();
    EXPECT_NE(Read(entry.path() / "min.diff.txt").find("signature: crash candidate"),
              std::string::npos);
  }
}

TEST(CampaignCommand, BadInputExitsTwo) {
  auto bad = [](CampaignCommandOptions o, const std::string& says) {
    if (o.out.empty()) o.out = Dir("bad");
    CommandRun r = Campaign(o);
    EXPECT_EQ(r.code, 2) << says;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  };
  CampaignCommandOptions o;
  o.candidate = "reference";
  o.out = Dir("bad");
  CampaignCommandOptions g = o;
  g.generators = {"wide", "nope"};
  bad(g, "unknown generator \"nope\"");
  CampaignCommandOptions s = o;
  s.shard = "2/2";
  bad(s, "--shard 2/2: expected I/N");
  CampaignCommandOptions c = o;
  c.candidate = "weight:Nope=3";
  bad(c, "--candidate: candidate \"weight:Nope=3\"");
  CampaignCommandOptions l = o;
  l.compat = "1.30";
  bad(l, "--compat 1.30 is not implemented");
  CampaignCommandOptions n;
  bad(n, "--candidate is required");
  // A folder that holds something already.
  const std::string full = Dir("full");
  fs::create_directories(full);
  std::ofstream(fs::path(full) / "keep.txt") << "mine";
  CampaignCommandOptions f = o;
  f.out = full;
  bad(f, "the folder is not empty");
  EXPECT_EQ(Read(fs::path(full) / "keep.txt"), "mine");
  CampaignCommandOptions m;
  m.merge = {Dir("no_such_shard")};
  m.out = Dir("merge_out");
  bad(m, "no_such_shard/summary.json: cannot open");
}

}  // namespace
}  // namespace schedcheck::cli
