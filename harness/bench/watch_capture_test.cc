// A small DayChurn day replayed by the reference, written as a watch capture, then imported,
// replayed and diffed as a user would: equivalent, because the capture's decisions are the
// reference's. A capture whose one binding is moved to another node must then fail the diff.
#include "harness/bench/watch_capture.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/cli/diff_command.h"
#include "harness/cli/import_command.h"
#include "harness/cli/replay_command.h"
#include "harness/replay/replayer.h"
#include "harness/workloads/workloads.h"
#include "reference/api/rfc3339.h"
#include "reference/runtime/profile.h"

namespace schedcheck::bench {
namespace {

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Import, replay, diff (replay = A, capture = B); returns diff's exit code and its output.
int ImportReplayDiff(const std::string& capture, std::string* report) {
  std::ostringstream out, err;
  cli::ImportCommandOptions import;
  import.format = "watch";
  import.inputs = {capture};
  import.output = capture + ".trace";
  import.quiet = true;
  EXPECT_EQ(cli::RunImport(import, out, err), 0) << err.str();
  cli::ReplayCommandOptions replay;
  replay.trace = import.output;
  replay.output = capture + ".replay.trace";
  replay.quiet = true;
  EXPECT_EQ(cli::RunReplay(replay, out, err), 0) << err.str();
  cli::DiffCommandOptions diff;
  diff.a = replay.output;
  diff.b = import.output;
  std::ostringstream diff_out;
  const int code = cli::RunDiffCommand(diff, diff_out, err);
  *report = diff_out.str() + err.str();
  return code;
}

TEST(WatchCaptureTest, AReplayWrittenAsACaptureIsEquivalentToItsOwnReplay) {
  auto workload = workloads::Generate(
      "DayChurn", {.nodes = 12, .initial_pods = 900, .measured_pods = 1500, .seed = 7});
  ASSERT_TRUE(workload.ok()) << workload.message();
  replay::ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  options.epoch_unix_ns = *reference::ParseRfc3339(workloads::kStartTime);
  auto replayer = replay::Replayer::Create(std::move(options));
  ASSERT_TRUE(replayer.ok()) << replayer.message();
  ASSERT_TRUE((*replayer)->Run(workload->trace.records).ok());
  const std::vector<trace::Record>& log = (*replayer)->log().records();
  const std::string capture = Tmp("day.watch.json");
  auto counts = WriteWatchCapture(workload->trace, log, capture);
  ASSERT_TRUE(counts.ok()) << counts.message();
  EXPECT_GT(counts->bindings, 1000u);
  EXPECT_GT(counts->failed_scheduling, 24u);  // the 8-cpu pods, retried at node updates
  EXPECT_GT(counts->lines, workload->trace.records.size());

  std::string report;
  EXPECT_EQ(ImportReplayDiff(capture, &report), 0) << report;
  EXPECT_NE(report.find("equivalent ("), std::string::npos) << report;
  EXPECT_NE(report.find("not compared: rejecting plugins"), std::string::npos) << report;

  // Move the first captured binding to a node outside the reference's ties (one that the
  // capture's cluster has and the reference never saw): the diff must fail.
  std::string text = Read(capture);
  const std::string bound = "\"nodeName\":\"scheduler-perf-";
  const size_t at = text.find(bound);
  ASSERT_NE(at, std::string::npos);
  const size_t digits = at + bound.size();
  const size_t end = text.find('"', digits);
  text.replace(digits, end - digits, "999");
  std::ofstream(Tmp("moved.watch.json")) << text;
  EXPECT_EQ(ImportReplayDiff(Tmp("moved.watch.json"), &report), 1) << report;
  EXPECT_NE(report.find("placement [soft]"), std::string::npos) << report;
}

}  // namespace
}  // namespace schedcheck::bench
