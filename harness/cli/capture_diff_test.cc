// A captured incident diffed against its replay, end to end (import, replay, diff): the capture
// that shows what kube-scheduler v1.27.8 does is equivalent (exit 0) although its events carry
// messages and no rejecting plugins; the capture of a packing build that forgot a registration
// fails on exactly those two faults. Fixtures: harness/diff/testdata/incident/README.md.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "harness/cli/diff_command.h"
#include "harness/cli/import_command.h"
#include "harness/cli/replay_command.h"
#include "traces/trace_reader.h"

namespace schedcheck::cli {
namespace {

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Compared {
  int exit_code = -1;
  std::string out, err;
};

// Imports the capture, replays it with the reference and diffs capture (B) against replay (A).
Compared ImportReplayDiff(const std::string& name, bool allow_soft = false) {
  Compared c;
  std::ostringstream out, err;
  ImportCommandOptions import;
  import.format = "watch";
  import.inputs = {"harness/diff/testdata/incident/" + name + ".watch.json"};
  import.output = Tmp(name + ".trace");
  import.quiet = true;
  EXPECT_EQ(RunImport(import, out, err), 0) << err.str();
  ReplayCommandOptions replay;
  replay.trace = import.output;
  replay.jsonl = Tmp(name + ".replay.jsonl");
  replay.quiet = true;
  EXPECT_EQ(RunReplay(replay, out, err), 0) << err.str();
  DiffCommandOptions diff;
  diff.a = replay.jsonl;
  diff.b = import.output;
  diff.allow_soft = allow_soft;
  std::ostringstream diff_out, diff_err;
  c.exit_code = RunDiffCommand(diff, diff_out, diff_err);
  c.out = diff_out.str();
  c.err = diff_err.str();
  return c;
}

TEST(CaptureDiffTest, TheSameBehaviourIsEquivalentAndSaysWhatACaptureLacks) {
  Compared c = ImportReplayDiff("equal");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_TRUE(Contains(c.out, "equivalent (4 pods compared)")) << c.out;
  EXPECT_TRUE(Contains(c.out,
                       "not compared: rejecting plugins (a capture's FailedScheduling events carry "
                       "the message only)"))
      << c.out;
  EXPECT_TRUE(Contains(c.out, "not compared: queue paths")) << c.out;
}

TEST(CaptureDiffTest, MovedPlacementsAndALateRetryFail) {
  Compared c = ImportReplayDiff("divergent");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_TRUE(Contains(
      c.out,
      "pod shop/web-1 at t=10 (attempt 1): placement [soft]: reference t=10 attempt 1: bound to "
      "node-b (top-score ties {node-b}); candidate t=10 attempt 1: bound to node-a"))
      << c.out;
  EXPECT_TRUE(Contains(c.out, "pod shop/web-2 at t=11 (attempt 1): placement [soft]")) << c.out;
  EXPECT_TRUE(Contains(
      c.out,
      "pod shop/web-3 at t=40 (attempt 3): attempt-time [requeue]: reference t=40 attempt 3: "
      "bound to node-c"))
      << c.out;
  EXPECT_TRUE(Contains(c.out, "candidate t=312 attempt 3: bound to node-c")) << c.out;
  EXPECT_FALSE(Contains(c.out, "[hard]")) << c.out;
  // Allowing soft divergences still fails on the late retry.
  Compared allowed = ImportReplayDiff("divergent", /*allow_soft=*/true);
  EXPECT_EQ(allowed.exit_code, 1) << allowed.out;
}

std::string HeaderCompat(const std::string& path) {
  auto t = trace::ReadTrace(path);
  EXPECT_TRUE(t.ok()) << t.message();
  return t.ok() ? t->header.compat() : "";
}

// The level of a capture travels: `kubectl version -o json` among the watch inputs (or
// --compat) sets the trace's; replay uses it and warns when told another; its -o log states it.
TEST(CaptureDiffTest, TheLevelFlowsFromTheCaptureToTheReplay) {
  const std::string version = Tmp("version.json");
  std::ofstream(version)
      << R"({"clientVersion":{"major":"1","minor":"37","gitVersion":"v1.37.2"},)"
      << R"("serverVersion":{"major":"1","minor":"37","gitVersion":"v1.37.2","platform":"linux/amd64"}})";
  ImportCommandOptions import;
  import.format = "watch";
  import.inputs = {"traces/importers/testdata/watch/preemption.json", version};
  import.output = Tmp("leveled.trace");
  {
    std::ostringstream out, err;
    ASSERT_EQ(RunImport(import, out, err), 0) << err.str();
    EXPECT_TRUE(Contains(out.str(), "compat: 1.37 (server version v1.37.2)")) << out.str();
    EXPECT_TRUE(Contains(out.str(), "label: server_version=v1.37.2")) << out.str();
    EXPECT_EQ(HeaderCompat(import.output), "1.37");
  }
  {  // --compat wins, with a warning when the capture says otherwise
    ImportCommandOptions told = import;
    told.output = Tmp("told.trace");
    told.compat = "1.27";
    std::ostringstream out, err;
    ASSERT_EQ(RunImport(told, out, err), 0) << err.str();
    EXPECT_TRUE(Contains(err.str(),
                         "warning: --compat 1.27 differs from the capture's server version "
                         "v1.37.2 (level 1.37); the trace says 1.27"))
        << err.str();
    EXPECT_EQ(HeaderCompat(told.output), "1.27");
    told.compat = "1.35";
    told.output = Tmp("never.trace");
    EXPECT_EQ(RunImport(told, out, err), 2);
    EXPECT_TRUE(Contains(err.str(), "--compat 1.35 is not implemented")) << err.str();
  }
  {  // no version in the input: 1.27 unless told, and the summary says how to tell it
    ImportCommandOptions bare = import;
    bare.inputs = {"traces/importers/testdata/watch/preemption.json"};
    bare.output = Tmp("bare.trace");
    std::ostringstream out, err;
    ASSERT_EQ(RunImport(bare, out, err), 0) << err.str();
    EXPECT_TRUE(Contains(out.str(), "compat: 1.27 (the default: the input shows no server version"))
        << out.str();
    bare.compat = "1.37";
    ASSERT_EQ(RunImport(bare, out, err), 0) << err.str();
    EXPECT_EQ(HeaderCompat(bare.output), "1.37");
  }
  ReplayCommandOptions replay;
  replay.trace = import.output;
  replay.output = Tmp("leveled.decisions");
  {
    std::ostringstream out, err;
    ASSERT_EQ(RunReplay(replay, out, err), 0) << err.str();
    EXPECT_FALSE(Contains(err.str(), "warning")) << err.str();
    EXPECT_EQ(HeaderCompat(replay.output), "1.37");
    // The capture's label change of default/high, after the replay bound it, names no node.
    EXPECT_TRUE(Contains(out.str(),
                         "input updates that named another node or none for a bound pod (nodeName "
                         "is immutable; the pod stayed where it was bound): 1\n  default/high at "
                         "t=5s"))
        << out.str();
  }
  {
    ReplayCommandOptions told = replay;
    told.compat = "1.27";
    std::ostringstream out, err;
    ASSERT_EQ(RunReplay(told, out, err), 0) << err.str();
    EXPECT_TRUE(Contains(err.str(),
                         "schedcheck replay: warning: --compat 1.27 differs from the trace's level "
                         "1.37"))
        << err.str();
    EXPECT_EQ(HeaderCompat(told.output), "1.27");
  }
  // The capture's nominations and victims are compared now: the replay agrees on both, and only
  // the binding time differs (the cluster waited for the victim's graceful termination).
  DiffCommandOptions diff;
  diff.a = replay.output;
  diff.b = import.output;
  std::ostringstream out, err;
  EXPECT_EQ(RunDiffCommand(diff, out, err), 1) << out.str() << err.str();
  EXPECT_FALSE(Contains(out.str(), "not compared: nominated nodes")) << out.str();
  EXPECT_FALSE(Contains(out.str(), "not compared: preemption victims")) << out.str();
  EXPECT_FALSE(Contains(out.str(), "[hard]")) << out.str();
  EXPECT_TRUE(Contains(out.str(), "pod default/high at t=4 (attempt 2): attempt-time [requeue]"))
      << out.str();
}

}  // namespace
}  // namespace schedcheck::cli
