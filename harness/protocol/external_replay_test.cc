// The external-scheduler protocol end to end with real processes: `schedcheck replay
// --scheduler-cmd "schedcheck serve"` equals the in-process replay byte for byte on every corpus
// trace, and each way a child can fail gives a clear error naming the request while keeping the
// decisions received before it. `replay --candidate` with exec:, kube: and in-process specs.
#include "harness/protocol/external_replay.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/replay/decision_log.h"
#include "harness/replay/replayer.h"
#include "traces/trace_file.h"

namespace schedcheck::protocol {
namespace {

namespace fs = std::filesystem;

std::string Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/" + path;
}
std::string Schedcheck() { return Runfile("harness/cli/schedcheck"); }
std::string Tmp(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name;
}
std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
// Runs a shell command line; its exit status.
int Shell(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
std::string Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) == std::string::npos ? "missing \"" + needle + "\" in: " + haystack
                                                    : "";
}

// Both ways through the real binary, with the same flags: JSON Lines, summary and the decision
// records of -o are identical.
void ExpectExternalEqualsInProcess(const std::string& name, const std::string& flags) {
  SCOPED_TRACE(name + " " + flags);
  std::string trace = Runfile("traces/corpus/" + name + ".jsonl");
  std::string config = Runfile("traces/corpus/" + name + ".config.yaml");
  std::string args = trace + (fs::exists(config) ? " --config " + config : "") + " " + flags;
  ASSERT_EQ(Shell(Schedcheck() + " replay " + args + " --jsonl " + Tmp("in.jsonl") + " -o " +
                  Tmp("in.trace") + " >" + Tmp("in.txt")),
            0);
  ASSERT_EQ(
      Shell(Schedcheck() + " replay " + args + " --jsonl " + Tmp("ex.jsonl") + " -o " +
            Tmp("ex.trace") + " --scheduler-cmd '" + Schedcheck() + " serve' >" + Tmp("ex.txt")),
      0);
  std::string in = ReadFile(Tmp("in.jsonl"));
  EXPECT_GT(in.size(), 100u);
  EXPECT_EQ(ReadFile(Tmp("ex.jsonl")), in);
  EXPECT_EQ(ReadFile(Tmp("ex.txt")), ReadFile(Tmp("in.txt")));
  auto in_trace = trace::LoadTrace(Tmp("in.trace"));
  auto ex_trace = trace::LoadTrace(Tmp("ex.trace"));
  ASSERT_TRUE(in_trace.ok() && ex_trace.ok());
  ASSERT_EQ(ex_trace->records.size(), in_trace->records.size());
  for (size_t i = 0; i < in_trace->records.size(); ++i) {
    EXPECT_EQ(ex_trace->records[i].SerializeAsString(), in_trace->records[i].SerializeAsString())
        << i;
  }
  EXPECT_EQ(ex_trace->header.labels().at("scheduler_cmd"), Schedcheck() + " serve");
  EXPECT_EQ(ex_trace->header.labels().count("incomplete"), 0u);
}

TEST(ExternalReplayTest, EveryCorpusTraceEqualsTheInProcessReplayByteForByte) {
  int traces = 0;
  for (const auto& entry : fs::directory_iterator(Runfile("traces/corpus"))) {
    if (entry.path().extension() != ".jsonl") continue;
    ++traces;
    ExpectExternalEqualsInProcess(entry.path().stem().string(), "");
    ExpectExternalEqualsInProcess(entry.path().stem().string(),
                                  "--seed 7 --horizon 400 --cycle-latency 0.25 --bind-latency 1.5");
  }
  EXPECT_GE(traces, 1);
}

class FailingChildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto trace = trace::LoadTrace(Runfile("traces/corpus/unblock.jsonl"));
    ASSERT_TRUE(trace.ok()) << trace.message();
    records_ = trace->records;
    options_.hello.set_compat("1.27");
    options_.hello.set_seed(1);
    options_.hello.set_horizon_ns(replay::kDefaultHorizonNs);
    options_.timeout_ms = 5000;
  }
  ExternalReplay Run(const std::string& command) {
    options_.command = command;
    return RunExternalReplay(records_, options_);
  }
  std::string Script(const std::string& name) {
    return "/bin/sh " + Runfile("harness/protocol/testdata/" + name);
  }

  std::vector<trace::Record> records_;
  ExternalReplayOptions options_;
};

TEST_F(FailingChildTest, ChildExitingBeforeHelloAck) {
  ExternalReplay run = Run(Script("exit_early.sh"));
  ASSERT_FALSE(run.status.ok());
  EXPECT_EQ(Contains(run.status.message(), "request 1 (Hello): "), "");
  EXPECT_EQ(Contains(run.status.message(), "the child exited with status 3"), "");
  EXPECT_EQ(run.requests_answered, 0);
  EXPECT_TRUE(run.decisions.empty());
  EXPECT_FALSE(run.bad_input);
}

TEST_F(FailingChildTest, TextInsteadOfAFrame) {
  ExternalReplay run = Run(Script("garbage.sh"));
  EXPECT_EQ(Contains(run.status.message(),
                     "request 1 (Hello): garbage on stdout: frame length 1819043176 exceeds "
                     "the maximum of 67108864 bytes"),
            "");
}

TEST_F(FailingChildTest, UnparseableResponse) {
  ExternalReplay run = Run(Script("bad_message.sh"));
  EXPECT_EQ(Contains(run.status.message(),
                     "request 1 (Hello): garbage on stdout: unparseable Response (3 bytes)"),
            "");
}

TEST_F(FailingChildTest, HungChildTimesOutAndIsKilled) {
  options_.timeout_ms = 300;
  ExternalReplay run = Run(Script("hang.sh"));
  EXPECT_EQ(Contains(run.status.message(),
                     "request 1 (Hello): no answer within 0.3 s; the child was killed"),
            "");
}

TEST_F(FailingChildTest, WrongProtocolVersion) {
  ExternalReplay run = Run(Script("wrong_version.sh"));
  EXPECT_EQ(Contains(run.status.message(),
                     "request 1 (Hello): protocol version mismatch: the harness speaks version "
                     "1, the child answered version 2"),
            "");
}

TEST_F(FailingChildTest, ChildReportingAnError) {
  ExternalReplay run = Run(Schedcheck() + " serve --config /nonexistent/config.yaml");
  EXPECT_EQ(Contains(run.status.message(), "request 1 (Hello): the child reported an error: "), "");
  EXPECT_EQ(Contains(run.status.message(), "/nonexistent/config.yaml"), "");
}

// The in-process records after the first `instants` instants of the trace (default config).
std::vector<trace::Record> InProcessPrefix(const std::vector<trace::Record>& records,
                                           int instants) {
  replay::ReplayOptions ro;
  ro.compat = "1.27";
  ro.config = reference::DefaultConfiguration("1.27");
  auto replayer = replay::Replayer::Create(ro);
  EXPECT_TRUE(replayer.ok());
  const int64_t t0 = records.front().time_ns();
  size_t i = 0;
  for (int n = 0; n < instants; ++n) {
    std::vector<const trace::ApiEvent*> batch;
    const size_t first = i;
    for (int64_t t = records[i].time_ns(); i < records.size() && records[i].time_ns() == t; ++i) {
      batch.push_back(&records[i].api());
    }
    EXPECT_TRUE((*replayer)->ProcessEvents(records[first].time_ns() - t0, batch, first).ok());
  }
  return (*replayer)->log().records();
}

void ExpectSameRecords(const std::vector<trace::Record>& got,
                       const std::vector<trace::Record>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].SerializeAsString(), want[i].SerializeAsString()) << i;
}

TEST_F(FailingChildTest, ChildDyingMidwayKeepsTheDecisionsReceived) {
  // Answers Hello and the first two instants (t = 0 and 1 s), dies at the third (t = 10 s).
  ExternalReplay run = Run(Runfile("harness/protocol/flaky_child") + " 3");
  EXPECT_EQ(run.requests_answered, 3);
  EXPECT_EQ(Contains(run.status.message(),
                     "request 4 (Events at t=10 s, trace record 8): stdout ended before an "
                     "answer; the child exited with status 7"),
            "");
  auto want = InProcessPrefix(records_, 2);
  EXPECT_GT(want.size(), 5u);
  ExpectSameRecords(run.decisions, want);
}

TEST_F(FailingChildTest, TruncatedAnswerKeepsTheDecisionsReceived) {
  ExternalReplay run = Run(Runfile("harness/protocol/flaky_child") + " 2 truncate");
  EXPECT_EQ(run.requests_answered, 2);
  EXPECT_EQ(Contains(run.status.message(),
                     "request 3 (Events at t=1 s, trace records 3-7): truncated frame: "
                     "stdout ended after "),
            "");
  EXPECT_EQ(Contains(run.status.message(), "the child exited with status 7"), "");
  ExpectSameRecords(run.decisions, InProcessPrefix(records_, 1));
}

TEST_F(FailingChildTest, TimesGoingBackwardsIsBadInputAndStartsNoChild) {
  std::swap(records_[2], records_[9]);
  ExternalReplay run = Run(Script("exit_early.sh"));
  EXPECT_TRUE(run.bad_input);
  EXPECT_EQ(Contains(run.status.message(), "time goes backwards"), "");
}

// Through the CLI: exit 2, the error on stderr, the partial decisions written and the summary
// marked incomplete.
TEST(ReplayCommandTest, FailingChildWritesPartialOutputsAndExits2) {
  std::string trace = Runfile("traces/corpus/unblock.jsonl");
  int rc =
      Shell(Schedcheck() + " replay " + trace + " --jsonl " + Tmp("partial.jsonl") + " -o " +
            Tmp("partial.trace") + " --scheduler-cmd '" + Runfile("harness/protocol/flaky_child") +
            " 3' >" + Tmp("partial.txt") + " 2>" + Tmp("partial.err"));
  EXPECT_EQ(rc, 2);
  std::string err = ReadFile(Tmp("partial.err"));
  EXPECT_EQ(Contains(err, "schedcheck replay: scheduler command `"), "");
  EXPECT_EQ(Contains(err, "request 4 (Events at t=10 s"), "");
  EXPECT_EQ(Contains(ReadFile(Tmp("partial.txt")),
                     "INCOMPLETE: the scheduler process failed after 3 answered requests"),
            "");
  auto trace_file = trace::LoadTrace(trace);
  ASSERT_TRUE(trace_file.ok());
  replay::DecisionLog want;
  for (const trace::Record& r : InProcessPrefix(trace_file->records, 2)) want.Add(r);
  // The decisions received, then the line saying the log is incomplete.
  const std::string jsonl = ReadFile(Tmp("partial.jsonl"));
  ASSERT_EQ(jsonl.substr(0, want.ToJsonLines().size()), want.ToJsonLines());
  const std::string last = jsonl.substr(want.ToJsonLines().size());
  EXPECT_EQ(Contains(last, "\"type\":\"incomplete\",\"reason\":\"scheduler command `"), "");
  EXPECT_EQ(Contains(last, "request 4 (Events at t=10 s"), "");
  EXPECT_EQ(Contains(last, ",\"decisions\":" + std::to_string(want.records().size()) + "}\n"), "");
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1);
  auto written = trace::LoadTrace(Tmp("partial.trace"));
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(Contains(written->header.labels().at("incomplete"), "request 4"), "");
}

// A child killed by SIGKILL mid-run: exit 2, the signal named, the decisions received kept in both
// outputs and marked incomplete; `diff` refuses the incomplete log (exit 2) instead of comparing
// it.
TEST(ReplayCommandTest, ChildKilledMidRunLeavesItsDecisionsMarkedIncomplete) {
  const std::string trace = Runfile("traces/corpus/unblock.jsonl");
  const std::string child = "exec " + Runfile("harness/protocol/flaky_child") + " 3 kill";
  int rc = Shell(Schedcheck() + " replay " + trace + " --jsonl " + Tmp("killed.jsonl") + " -o " +
                 Tmp("killed.trace") + " --candidate 'exec:\"" + child + "\"' >" +
                 Tmp("killed.txt") + " 2>" + Tmp("killed.err"));
  EXPECT_EQ(rc, 2);
  const std::string err = ReadFile(Tmp("killed.err"));
  EXPECT_EQ(Contains(err, "request 4 (Events at t=10 s"), "");
  EXPECT_EQ(Contains(err, "killed by signal 9"), "");
  EXPECT_EQ(Contains(ReadFile(Tmp("killed.txt")),
                     "INCOMPLETE: the scheduler process failed after 3 answered requests"),
            "");
  auto trace_file = trace::LoadTrace(trace);
  ASSERT_TRUE(trace_file.ok());
  replay::DecisionLog want;
  for (const trace::Record& r : InProcessPrefix(trace_file->records, 2)) want.Add(r);
  const std::string jsonl = ReadFile(Tmp("killed.jsonl"));
  ASSERT_EQ(jsonl.substr(0, want.ToJsonLines().size()), want.ToJsonLines());
  const std::string last = jsonl.substr(want.ToJsonLines().size());
  EXPECT_EQ(Contains(last, "killed by signal 9"), "");
  EXPECT_EQ(Contains(last, ",\"decisions\":" + std::to_string(want.records().size()) + "}\n"), "");
  auto written = trace::LoadTrace(Tmp("killed.trace"));
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(Contains(written->header.labels().at("incomplete"), "killed by signal 9"), "");
  EXPECT_EQ(written->records.size(), want.records().size());

  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --jsonl " + Tmp("whole.jsonl")), 0);
  EXPECT_EQ(Shell(Schedcheck() + " diff " + Tmp("whole.jsonl") + " " + Tmp("killed.jsonl") +
                  " >/dev/null 2>" + Tmp("diff.err")),
            2);
  EXPECT_EQ(Contains(ReadFile(Tmp("diff.err")), "the decision log is incomplete ("), "");
}

// `replay --candidate exec:X` is `replay --scheduler-cmd X`: every output byte for byte.
TEST(ReplayCommandTest, ExecCandidateWritesWhatSchedulerCmdWrites) {
  for (const std::string name : {"unblock", "preemption-churn"}) {
    SCOPED_TRACE(name);
    std::string trace = Runfile("traces/corpus/" + name + ".jsonl");
    std::string config = Runfile("traces/corpus/" + name + ".config.yaml");
    std::string args = trace + (fs::exists(config) ? " --config " + config : "") + " --seed 3";
    ASSERT_EQ(Shell(Schedcheck() + " replay " + args + " --jsonl " + Tmp("cmd.jsonl") + " -o " +
                    Tmp("cmd.trace") + " --scheduler-cmd '" + Schedcheck() + " serve' >" +
                    Tmp("cmd.txt")),
              0);
    ASSERT_EQ(Shell(Schedcheck() + " replay " + args + " --jsonl " + Tmp("cand.jsonl") + " -o " +
                    Tmp("cand.trace") + " --candidate 'exec:\"" + Schedcheck() + " serve\"' >" +
                    Tmp("cand.txt")),
              0);
    EXPECT_GT(ReadFile(Tmp("cmd.jsonl")).size(), 100u);
    for (const char* ext : {".jsonl", ".trace", ".txt"}) {
      EXPECT_EQ(ReadFile(Tmp(std::string("cand") + ext)), ReadFile(Tmp(std::string("cmd") + ext)))
          << ext;
    }
  }
}

// kube:1.27 through SCHEDCHECK_KUBE_ADAPTER_DIR, with a stand-in adapter serving the reference.
TEST(ReplayCommandTest, KubeCandidateRunsTheAdapterFromTheEnvironment) {
  const std::string dir = Tmp("adapters");
  fs::create_directories(dir);
  std::ofstream(dir + "/kube-adapter-1.27")
      << "#!/bin/sh\nexec " << Schedcheck() << " serve \"$@\"\n";
  fs::permissions(dir + "/kube-adapter-1.27", fs::perms::owner_all);
  std::string args = Runfile("traces/corpus/unblock.jsonl") + " --config " +
                     Runfile("traces/corpus/unblock.config.yaml");
  ASSERT_EQ(Shell(Schedcheck() + " replay " + args + " --jsonl " + Tmp("ref.jsonl") + " -q"), 0);
  ASSERT_EQ(Shell("SCHEDCHECK_KUBE_ADAPTER_DIR=" + dir + " " + Schedcheck() + " replay " + args +
                  " --jsonl " + Tmp("kube.jsonl") + " -o " + Tmp("kube.trace") +
                  " --candidate kube:1.27 -q"),
            0);
  EXPECT_EQ(ReadFile(Tmp("kube.jsonl")), ReadFile(Tmp("ref.jsonl")));
  auto written = trace::LoadTrace(Tmp("kube.trace"));
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(written->header.labels().at("candidate"), "kube:1.27");
  EXPECT_EQ(written->header.labels().at("scheduler_cmd"), "'" + dir + "/kube-adapter-1.27'");
  // Not built: exit 2 naming where it looked and how to build it.
  EXPECT_EQ(Shell("SCHEDCHECK_KUBE_ADAPTER_DIR=" + dir + " " + Schedcheck() + " replay " + args +
                  " --candidate kube:1.37 2>" + Tmp("kube.err")),
            2);
  EXPECT_EQ(Contains(ReadFile(Tmp("kube.err")),
                     "kube:1.37: the adapter executable was not found (looked in " + dir +
                         "/kube-adapter-1.37"),
            "");
  EXPECT_EQ(Contains(ReadFile(Tmp("kube.err")),
                     "build it with: bazel build //harness/kube:kube-adapter-1.37"),
            "");
}

// In-process specs replay in process: `--candidate weight:NodeAffinity=5` is the default
// configuration with that weight, `reference` is the plain replay, and forget-events: changes the
// registry.
TEST(ReplayCommandTest, InProcessCandidate) {
  std::string trace = Runfile("traces/corpus/node-affinity.jsonl");
  std::ofstream(Tmp("w5.yaml"))
      << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
         "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    score:\n      "
         "enabled:\n      - name: NodeAffinity\n        weight: 5\n";
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --jsonl " + Tmp("plain.jsonl")), 0);
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --candidate reference --jsonl " +
                  Tmp("ref.jsonl")),
            0);
  EXPECT_EQ(ReadFile(Tmp("ref.jsonl")), ReadFile(Tmp("plain.jsonl")));
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --config " + Tmp("w5.yaml") +
                  " --jsonl " + Tmp("w5.jsonl")),
            0);
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace +
                  " -q --candidate weight:NodeAffinity=5 --jsonl " + Tmp("w.jsonl")),
            0);
  EXPECT_EQ(ReadFile(Tmp("w.jsonl")), ReadFile(Tmp("w5.jsonl")));
  // A candidate that forgets TaintToleration's events waits for the periodic flush instead.
  trace = Runfile("traces/corpus/requeue-taint-removal.jsonl");
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --jsonl " + Tmp("plain.jsonl")), 0);
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace +
                  " -q --candidate forget-events:TaintToleration --jsonl " + Tmp("forget.jsonl")),
            0);
  EXPECT_EQ(Contains(ReadFile(Tmp("plain.jsonl")), "\"cause\":\"NodeTaintChange\""), "");
  EXPECT_EQ(ReadFile(Tmp("plain.jsonl")).find("UnschedulableTimeout"), std::string::npos);
  EXPECT_EQ(Contains(ReadFile(Tmp("forget.jsonl")), "\"cause\":\"UnschedulableTimeout\""), "");
}

TEST(ReplayCommandTest, CandidateAndSchedulerCmdTogetherIsAUsageError) {
  std::string trace = Runfile("traces/corpus/unblock.jsonl");
  EXPECT_EQ(Shell(Schedcheck() + " replay " + trace +
                  " --candidate reference --scheduler-cmd true 2>/dev/null"),
            2);
  EXPECT_EQ(Shell(Schedcheck() + " replay " + trace + " --candidate kube:9.9 2>" + Tmp("bad.err")),
            2);
  EXPECT_EQ(Contains(ReadFile(Tmp("bad.err")), "known: kube:1.27, kube:1.35, kube:1.36, kube:1.37"),
            "");
}

// A failing exec: child behaves as a failing --scheduler-cmd child.
TEST(ReplayCommandTest, FailingExecCandidateExits2) {
  int rc = Shell(Schedcheck() + " replay " + Runfile("traces/corpus/unblock.jsonl") +
                 " --candidate 'exec:" + Runfile("harness/protocol/flaky_child") + " 3' >" +
                 Tmp("flaky.txt") + " 2>" + Tmp("flaky.err"));
  EXPECT_EQ(rc, 2);
  EXPECT_EQ(Contains(ReadFile(Tmp("flaky.err")), "request 4 (Events at t=10 s"), "");
  EXPECT_EQ(Contains(ReadFile(Tmp("flaky.txt")),
                     "INCOMPLETE: the scheduler process failed after 3 answered requests"),
            "");
}

// --limit records=N also bounds the decisions a child may send: beyond it the run fails (exit 2)
// naming the limit, with the decisions before it kept and marked incomplete.
TEST(ReplayCommandTest, DecisionsBeyondTheRecordsLimitFailTheRun) {
  const std::string trace = Runfile("traces/corpus/unblock.jsonl");
  const std::string child = "'" + Schedcheck() + " serve'";
  ASSERT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --limit records=1000 --jsonl " +
                  Tmp("lim-ok.jsonl") + " --scheduler-cmd " + child),
            0);
  const std::string whole = ReadFile(Tmp("lim-ok.jsonl"));
  const long decisions = std::count(whole.begin(), whole.end(), '\n');
  ASSERT_GT(decisions, 5);
  const std::string limit = std::to_string(decisions - 1);
  EXPECT_EQ(Shell(Schedcheck() + " replay " + trace + " -q --limit records=" + limit + " --jsonl " +
                  Tmp("lim.jsonl") + " --scheduler-cmd " + child + " 2>" + Tmp("lim.err")),
            2);
  EXPECT_EQ(Contains(ReadFile(Tmp("lim.err")),
                     "more than " + limit + " decision records in the run, the limit records=" +
                         limit + " (raise it with --limit records=N)"),
            "");
  const std::string partial = ReadFile(Tmp("lim.jsonl"));
  EXPECT_EQ(std::count(partial.begin(), partial.end(), '\n'),
            decisions);  // the limit's worth, then the marker
  EXPECT_EQ(Contains(partial, "\"type\":\"incomplete\""), "");
}

TEST(ReplayCommandTest, BadTimeoutIsBadInput) {
  EXPECT_EQ(Shell(Schedcheck() + " replay " + Runfile("traces/corpus/unblock.jsonl") +
                  " --scheduler-cmd true --scheduler-timeout 0 2>/dev/null"),
            2);
}

}  // namespace
}  // namespace schedcheck::protocol

namespace schedcheck::protocol {
namespace {

// One child for many runs: each corpus trace, twice, through one `schedcheck serve`, gives what a
// child per run gives, and the child is started once.
TEST(ReplaySessionTest, OneChildServesManyRunsAsAChildPerRun) {
  ReplaySession session(Schedcheck() + " serve", 10'000);
  int runs = 0;
  for (int round = 0; round < 2; ++round) {
    for (const auto& entry : fs::directory_iterator(Runfile("traces/corpus"))) {
      if (entry.path().extension() != ".jsonl" ||
          fs::exists(entry.path().parent_path() / (entry.path().stem().string() + ".config.yaml")))
        continue;
      auto trace = trace::LoadTrace(entry.path().string());
      ASSERT_TRUE(trace.ok()) << trace.message();
      ExternalReplayOptions options;
      options.command = Schedcheck() + " serve";
      options.hello.set_compat("1.27");
      options.hello.set_seed(static_cast<uint64_t>(round + 1));
      options.hello.set_horizon_ns(replay::kDefaultHorizonNs);
      ExternalReplay alone = RunExternalReplay(trace->records, options);
      ExternalReplay kept = session.Replay(trace->records, options.hello);
      ASSERT_TRUE(alone.status.ok()) << alone.status.message();
      ASSERT_TRUE(kept.status.ok()) << entry.path() << ": " << kept.status.message();
      ++runs;
      EXPECT_EQ(session.runs_on_child(), runs) << "the child was restarted";
      ASSERT_EQ(kept.decisions.size(), alone.decisions.size()) << entry.path();
      for (size_t i = 0; i < kept.decisions.size(); ++i) {
        EXPECT_EQ(kept.decisions[i].SerializeAsString(), alone.decisions[i].SerializeAsString())
            << entry.path() << " " << i;
      }
    }
  }
  EXPECT_GE(runs, 4);
  EXPECT_EQ(session.closed_children_cpu_ns(), 0);  // the child still runs
  EXPECT_TRUE(session.Close().ok());
  // The kernel's count of the closed child's CPU: it replayed every corpus trace twice.
  EXPECT_GT(session.closed_children_cpu_ns(), 0);
}

// A child that fails is replaced for the next run; the failure is reported for its run only.
TEST(ReplaySessionTest, AFailedChildIsReplacedForTheNextRun) {
  auto trace = trace::LoadTrace(Runfile("traces/corpus/requeue-node-add.jsonl"));
  ASSERT_TRUE(trace.ok()) << trace.message();
  Hello hello;
  hello.set_compat("1.27");
  hello.set_seed(1);
  hello.set_horizon_ns(replay::kDefaultHorizonNs);
  ReplaySession session(Schedcheck() + " serve", 10'000);
  ASSERT_TRUE(session.Replay(trace->records, hello).status.ok());
  Hello bad = hello;
  bad.set_compat("0.1");  // the child answers ChildError
  ExternalReplay failed = session.Replay(trace->records, bad);
  EXPECT_FALSE(failed.status.ok());
  EXPECT_NE(failed.status.message().find("Hello.compat 0.1 is not implemented"), std::string::npos)
      << failed.status.message();
  EXPECT_EQ(session.runs_on_child(), 0);
  ExternalReplay again = session.Replay(trace->records, hello);
  EXPECT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(session.runs_on_child(), 1);
  EXPECT_GT(again.decisions.size(), 10u);
}

}  // namespace
}  // namespace schedcheck::protocol
