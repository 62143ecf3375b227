// A captured incident diffed against its replay, end to end (import, replay, diff): the capture
// that shows what kube-scheduler v1.27.8 does is equivalent (exit 0) although its events carry
// messages and no rejecting plugins; the capture of a packing build that forgot a registration
// fails on exactly those two faults. Fixtures: harness/diff/testdata/incident/README.md.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "harness/cli/diff_command.h"
#include "harness/cli/import_command.h"
#include "harness/cli/replay_command.h"

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

}  // namespace
}  // namespace schedcheck::cli
