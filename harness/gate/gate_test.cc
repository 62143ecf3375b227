// The gate on real replays: the reference against itself passes (on this package's traces and
// on traces/corpus); a changed score weight fails on placement; a plugin that forgets its event
// registration fails on requeue, naming the pod, the time and the plugin. An exec: candidate
// running `schedcheck serve` passes the whole corpus; a failing child fails its traces with the
// child's error.
#include "harness/gate/gate.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace schedcheck::gate {
namespace {

constexpr char kCorpus[] = "harness/gate/testdata/corpus";
constexpr int64_t kSecond = 1000000000;

std::vector<GateTrace> Gate(const std::string& corpus, const std::string& candidate) {
  auto r = RunGate({.corpus = corpus, .candidate = candidate, .diff = {}});
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::vector<GateTrace>{};
}

const GateTrace& Named(const std::vector<GateTrace>& diffs, const std::string& name) {
  for (const auto& d : diffs) {
    if (d.name == name) return d;
  }
  static const GateTrace kNone{{"(missing)", {}, "", ""}, ""};
  ADD_FAILURE() << name << " not gated";
  return kNone;
}

TEST(GateTest, ReferenceAgainstItselfPasses) {
  for (const std::string corpus : {kCorpus, "traces/corpus"}) {
    auto diffs = Gate(corpus, "reference");
    ASSERT_FALSE(diffs.empty()) << corpus;
    for (const auto& d : diffs) {
      EXPECT_TRUE(d.result.divergences.empty())
          << corpus << "/" << d.name << ": " << diff::TextReport(d, {});
      EXPECT_FALSE(diff::Failed(d, {}));
    }
  }
}

TEST(GateTest, ChangedScoreWeightFailsOnPlacement) {
  auto diffs = Gate(kCorpus, "weight:NodeAffinity=5");
  const diff::NamedDiff& w = Named(diffs, "weights.jsonl");
  EXPECT_TRUE(diff::Failed(w, {}));
  ASSERT_EQ(w.result.divergences.size(), 2u) << diff::TextReport(w, {});
  const diff::Divergence& first = w.result.divergences[0];
  EXPECT_EQ(first.pod, "default/p1");
  EXPECT_EQ(first.t_ns, 1 * kSecond);
  EXPECT_EQ(first.cls, diff::DivergenceClass::kSoft);
  EXPECT_EQ(first.what, "placement");
  EXPECT_NE(first.reference.find("bound to n2"), std::string::npos) << first.reference;
  EXPECT_NE(first.candidate.find("bound to n1"), std::string::npos) << first.candidate;
  // The consequence that fails the gate: p2 no longer fits on n1.
  const diff::Divergence& second = w.result.divergences[1];
  EXPECT_EQ(second.pod, "default/p2");
  EXPECT_EQ(second.cls, diff::DivergenceClass::kHard);
  EXPECT_EQ(second.what, "outcome");
  EXPECT_EQ(second.plugins, (std::vector<std::string>{"NodeAffinity", "NodeResourcesFit"}));
  // The explanation shows both sides' scores for p1 on the same snapshot.
  EXPECT_NE(w.explanation.find("candidate weight:NodeAffinity=5"), std::string::npos)
      << w.explanation;
  EXPECT_NE(w.explanation.find("outcome: bound to n2"), std::string::npos) << w.explanation;
  EXPECT_NE(w.explanation.find("outcome: bound to n1"), std::string::npos) << w.explanation;
  EXPECT_NE(w.explanation.find("NodeAffinity 10/100/500"), std::string::npos) << w.explanation;
  EXPECT_FALSE(diff::Failed(Named(diffs, "taint.jsonl"), {}));
}

TEST(GateTest, ForgottenEventRegistrationFailsOnRequeue) {
  auto diffs = Gate(kCorpus, "forget-events:TaintToleration");
  const diff::NamedDiff& t = Named(diffs, "taint.jsonl");
  EXPECT_TRUE(diff::Failed(t, {}));
  ASSERT_FALSE(t.result.divergences.empty());
  const diff::Divergence& first = t.result.divergences[0];
  EXPECT_EQ(first.cls, diff::DivergenceClass::kRequeue) << diff::Describe(first);
  EXPECT_EQ(first.pod, "default/p");
  EXPECT_EQ(first.t_ns, 10 * kSecond);
  EXPECT_EQ(first.plugins, std::vector<std::string>{"TaintToleration"});
  EXPECT_NE(first.reference.find("NodeTaintChange"), std::string::npos) << first.reference;
  EXPECT_NE(first.candidate.find("t=330 unschedulable->active (UnschedulableTimeout)"),
            std::string::npos)
      << first.candidate;
  EXPECT_EQ(t.result.Count(diff::DivergenceClass::kHard), 0u);
  EXPECT_FALSE(diff::Failed(Named(diffs, "weights.jsonl"), {}));
}

// The gate at compatibility level 1.37: both sides replay by v1.37's rules; the reference
// against itself passes, and a plugin that forgets its event registration (whose queueing hints
// would have requeued the pod when the taint went) fails on requeue.
TEST(GateTest, Compat137GatesAtThatLevel) {
  for (const std::string corpus : {kCorpus, "traces/corpus"}) {
    auto r = RunGate({.corpus = corpus, .candidate = "reference", .compat = "1.37"});
    ASSERT_TRUE(r.ok()) << r.message();
    for (const auto& d : *r) {
      EXPECT_TRUE(d.result.divergences.empty())
          << corpus << "/" << d.name << ": " << diff::TextReport(d, {});
    }
  }
  auto r =
      RunGate({.corpus = kCorpus, .candidate = "forget-events:TaintToleration", .compat = "1.37"});
  ASSERT_TRUE(r.ok()) << r.message();
  const diff::NamedDiff& t = Named(*r, "taint.jsonl");
  EXPECT_TRUE(diff::Failed(t, {}));
  ASSERT_FALSE(t.result.divergences.empty());
  const diff::Divergence& first = t.result.divergences[0];
  EXPECT_EQ(first.cls, diff::DivergenceClass::kRequeue) << diff::Describe(first);
  EXPECT_EQ(first.pod, "default/p");
  EXPECT_NE(first.reference.find("NodeUpdateNodeTaint"), std::string::npos) << first.reference;
  EXPECT_NE(first.candidate.find("(UnschedulableTimeout)"), std::string::npos) << first.candidate;
  // The explanation evaluates the cluster by v1.37's rules.
  EXPECT_NE(t.explanation.find("compat 1.37"), std::string::npos) << t.explanation;
  EXPECT_EQ(t.explanation.find("no explanation"), std::string::npos) << t.explanation;
}

std::string Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/" + path;
}
std::string Serve() { return Runfile("harness/cli/schedcheck") + " serve"; }

TEST(GateTest, ExecCandidateServingTheReferencePassesTheCorpus) {
  for (const std::string corpus : {kCorpus, "traces/corpus"}) {
    auto diffs = Gate(corpus, "exec:" + Serve());
    ASSERT_GE(diffs.size(), 2u) << corpus;
    for (const auto& d : diffs) {
      EXPECT_EQ(d.error, "") << corpus << "/" << d.name;
      EXPECT_TRUE(d.result.divergences.empty())
          << corpus << "/" << d.name << ": " << diff::TextReport(d, {});
      EXPECT_GT(d.result.pods_compared, 0u) << corpus << "/" << d.name;
    }
  }
}

TEST(GateTest, ExecCandidateDivergenceIsExplainedOnTheReferenceSideOnly) {
  // The served build carries its own configuration: NodeAffinity weighs 5.
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string config = std::string(tmp ? tmp : "/tmp") + "/weight5.yaml";
  std::ofstream(config)
      << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
         "- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n"
         "      - name: NodeAffinity\n        weight: 5\n";
  const std::string spec = "exec:\"" + Serve() + " --config " + config + "\"";
  auto diffs = Gate(kCorpus, spec);
  const diff::NamedDiff& w = Named(diffs, "weights.jsonl");
  EXPECT_TRUE(diff::Failed(w, {}));
  ASSERT_EQ(w.result.divergences.size(), 2u) << diff::TextReport(w, {});
  EXPECT_EQ(w.result.divergences[0].pod, "default/p1");
  EXPECT_EQ(w.result.divergences[1].cls, diff::DivergenceClass::kHard);
  EXPECT_NE(w.explanation.find("NodeAffinity 10/100/200"), std::string::npos) << w.explanation;
  EXPECT_EQ(w.explanation.find("NodeAffinity 10/100/500"), std::string::npos) << w.explanation;
  EXPECT_NE(w.explanation.find("candidate " + spec +
                               ":\n  per-plugin statuses are not available for " + spec),
            std::string::npos)
      << w.explanation;
}

std::string Weight5Config() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string config = std::string(tmp ? tmp : "/tmp") + "/weight5-both.yaml";
  std::ofstream(config)
      << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
         "- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n"
         "      - name: NodeAffinity\n        weight: 5\n";
  return config;
}

// Build against build: two children of one build, each sent its own configuration. With the same
// configuration on both sides the gate passes; with the changed weight on the baseline only it
// fails on placement, and the explanation names both sides and says it is the reference's view.
TEST(GateTest, BaselineAndCandidateEachWithTheirConfiguration) {
  const std::string spec = "exec:" + Serve();
  auto same = RunGate({.corpus = kCorpus,
                       .candidate = spec,
                       .baseline = spec,
                       .baseline_config = Weight5Config(),
                       .candidate_config = Weight5Config()});
  ASSERT_TRUE(same.ok()) << same.message();
  ASSERT_EQ(same->size(), 2u);
  for (const auto& d : *same) {
    EXPECT_EQ(d.error, "") << d.name;
    EXPECT_TRUE(d.result.divergences.empty()) << d.name << ": " << diff::TextReport(d, {});
  }
  auto other = RunGate(
      {.corpus = kCorpus, .candidate = spec, .baseline = spec, .baseline_config = Weight5Config()});
  ASSERT_TRUE(other.ok()) << other.message();
  const GateTrace& w = Named(*other, "weights.jsonl");
  EXPECT_TRUE(diff::Failed(w, {}));
  EXPECT_EQ(w.nondeterministic, "");
  ASSERT_FALSE(w.result.divergences.empty());
  EXPECT_EQ(w.result.divergences[0].pod, "default/p1");
  EXPECT_NE(w.explanation.find("baseline " + spec + " with " + Weight5Config() +
                               ":\n  per-plugin statuses are not available"),
            std::string::npos)
      << w.explanation;
  EXPECT_NE(w.explanation.find("candidate " + spec + " (default profile):\n  per-plugin"),
            std::string::npos)
      << w.explanation;
  EXPECT_NE(w.explanation.find("neither side runs in process"), std::string::npos) << w.explanation;
  // Neither side is the reference: the reference, with the baseline's file, sides with it.
  EXPECT_NE(w.explanation.find("as the baseline saw it"), std::string::npos) << w.explanation;
  EXPECT_NE(w.explanation.find("reference check: the reference with the baseline's configuration " +
                               Weight5Config() +
                               " places pod default/p1 on n1 (ties {n1}): agrees with the "
                               "baseline\n"),
            std::string::npos)
      << w.explanation;
  EXPECT_NE(diff::TextReport(w, {.allow_soft = false, .max_listed = 50, .sides = {"baseline"}})
                .find("[soft]: baseline t=1 attempt 1: bound to n1"),
            std::string::npos);
  EXPECT_EQ(
      GateTitle({.candidate = spec, .baseline = spec, .baseline_config = "b.yaml"}),
      "candidate " + spec + " (the traces' configurations) vs baseline " + spec + " with b.yaml");
  EXPECT_EQ(GateTitle({.candidate = "kube:1.27"}), "candidate kube:1.27 vs reference");
}

// A configuration enabling an out-of-tree plugin is refused by an in-process side (the reference
// does not have it) but sent as it is to exec:/kube: sides, which the reference never parses for.
TEST(GateTest, OutOfTreeConfigurationIsSentToOutOfProcessSidesOnly) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string config = std::string(tmp ? tmp : "/tmp") + "/out-of-tree.yaml";
  std::ofstream(config) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\nprofiles:\n"
                           "- schedulerName: default-scheduler\n  plugins:\n    score:\n"
                           "      enabled:\n      - name: NodeResourcesAllocatable\n";
  auto in_process =
      RunGate({.corpus = kCorpus, .candidate = "reference", .candidate_config = config});
  ASSERT_FALSE(in_process.ok());
  EXPECT_NE(in_process.message().find("NodeResourcesAllocatable"), std::string::npos)
      << in_process.message();
  // `serve --config` stands for a build that has the plugin: it runs its own configuration and
  // ignores the text it is sent; both sides are sent the out-of-tree one and nothing else reads it.
  const std::string spec = "exec:" + Serve() + " --config " + Weight5Config();
  auto r = RunGate({.corpus = kCorpus,
                    .candidate = spec,
                    .baseline = spec,
                    .baseline_config = config,
                    .candidate_config = config});
  ASSERT_TRUE(r.ok()) << r.message();
  for (const auto& d : *r) {
    EXPECT_EQ(d.error, "") << d.name;
    EXPECT_TRUE(d.result.divergences.empty()) << d.name << ": " << diff::TextReport(d, {});
  }
}

// An in-process baseline is explained with its own configuration, labelled with it.
TEST(GateTest, InProcessBaselineIsExplainedWithItsConfiguration) {
  auto r = RunGate({.corpus = kCorpus,
                    .candidate = "reference",
                    .baseline = "reference",
                    .baseline_config = Weight5Config()});
  ASSERT_TRUE(r.ok()) << r.message();
  const GateTrace& w = Named(*r, "weights.jsonl");
  ASSERT_FALSE(w.result.divergences.empty());
  EXPECT_NE(w.explanation.find("baseline reference with " + Weight5Config()), std::string::npos)
      << w.explanation;
  EXPECT_NE(w.explanation.find("NodeAffinity 10/100/500"), std::string::npos) << w.explanation;
  EXPECT_NE(w.explanation.find("candidate reference (default profile)"), std::string::npos)
      << w.explanation;
  // The candidate is the reference itself: no reference check.
  EXPECT_EQ(w.explanation.find("reference check"), std::string::npos) << w.explanation;
}

// Two variants, neither the reference: each trace's explanation ends with the reference check.
TEST(GateTest, TwoVariantsGetTheReferenceCheck) {
  auto r = RunGate({.corpus = kCorpus,
                    .candidate = "weight:NodeAffinity=5",
                    .baseline = "forget-events:TaintToleration"});
  ASSERT_TRUE(r.ok()) << r.message();
  // weights.jsonl: the forgetful baseline still places p1 as the reference does.
  const GateTrace& w = Named(*r, "weights.jsonl");
  EXPECT_NE(w.explanation.find("reference check: the reference (default profile) places pod "
                               "default/p1 on n2 (ties {n2}): agrees with the baseline\n"),
            std::string::npos)
      << w.explanation;
  // taint.jsonl: a requeue difference; both sides' next attempt binds as the reference does.
  const GateTrace& t = Named(*r, "taint.jsonl");
  EXPECT_NE(t.explanation.find("agrees with both (the attempt's outcome only; when each side "
                               "retried the pod is not checked)\n"),
            std::string::npos)
      << t.explanation;
}

// A build that answers differently from one process to the next: a wrapper that serves the
// default profile from its 1st, 3rd, ... process and NodeAffinity weight 5 from the others.
std::string FlipFlopCommand(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp ? tmp : "/tmp");
  const std::string script = dir + "/" + name + ".sh";
  std::ofstream(script) << "n=$(cat " << dir << "/" << name << ".count 2>/dev/null || echo 0)\n"
                        << "echo $((n + 1)) > " << dir << "/" << name << ".count\n"
                        << "if [ $((n % 2)) -eq 0 ]; then exec " << Serve() << "; fi\n"
                        << "exec " << Serve() << " --config " << Weight5Config() << "\n";
  return "exec:sh " + script;
}

TEST(GateTest, NondeterministicBuildIsReportedAsSuch) {
  const std::string spec = FlipFlopCommand("flipflop");
  auto r = RunGate({.corpus = kCorpus, .candidate = spec});
  ASSERT_TRUE(r.ok()) << r.message();
  // taint.jsonl: the 1st process serves the default profile and agrees: not replayed again.
  const GateTrace& t = Named(*r, "taint.jsonl");
  EXPECT_EQ(t.nondeterministic, "");
  EXPECT_FALSE(diff::Failed(t, {})) << diff::TextReport(t, {});
  // weights.jsonl: the 2nd process diverges, the 3rd (the check) does not repeat it.
  const GateTrace& w = Named(*r, "weights.jsonl");
  EXPECT_EQ(w.nondeterministic.rfind("build " + spec +
                                         " is not deterministic on trace weights.jsonl: first "
                                         "difference at record ",
                                     0),
            0u)
      << w.nondeterministic;
  EXPECT_EQ(w.error, w.nondeterministic);
  EXPECT_TRUE(w.result.divergences.empty()) << "not reported as a divergence";
}

TEST(GateTest, CheckDeterminismPassesADeterministicBuild) {
  auto r = RunGate({.corpus = kCorpus, .candidate = "exec:" + Serve(), .check_determinism = true});
  ASSERT_TRUE(r.ok()) << r.message();
  for (const auto& d : *r) {
    EXPECT_EQ(d.error, "") << d.name;
    EXPECT_EQ(d.nondeterministic, "") << d.name;
  }
  // A nondeterministic build on a trace where it happens to agree with the reference is found
  // only with the check: processes 1 and 2 differ on weights.jsonl's placements.
  const std::string spec = FlipFlopCommand("flipflop-checked");
  auto checked = RunGate({.corpus = kCorpus, .candidate = spec, .check_determinism = true});
  ASSERT_TRUE(checked.ok()) << checked.message();
  const GateTrace& w = Named(*checked, "weights.jsonl");
  // taint.jsonl takes processes 1 and 2; weights.jsonl: process 3 (default) agrees with the
  // reference, process 4 (weight 5) differs.
  EXPECT_NE(w.nondeterministic, "") << diff::TextReport(w, {});
  EXPECT_TRUE(w.result.divergences.empty());
}

TEST(GateTest, FailingChildFailsEachTraceWithItsError) {
  auto diffs = Gate(kCorpus, "exec:echo gone >&2; exit 3");
  ASSERT_EQ(diffs.size(), 2u);
  for (const auto& d : diffs) {
    EXPECT_TRUE(diff::Failed(d, {})) << d.name;
    // The child may exit before or after Hello is written: either way request and status are named.
    EXPECT_NE(d.error.find("candidate exec:echo gone >&2; exit 3: scheduler command `echo gone "
                           ">&2; exit 3`: request 1 "
                           "(Hello): "),
              std::string::npos)
        << d.error;
    EXPECT_NE(d.error.find("the child exited with status 3"), std::string::npos) << d.error;
  }
  // A kube: adapter that is not built stops the gate before any trace, naming the build command.
  ASSERT_EQ(::setenv("SCHEDCHECK_KUBE_ADAPTER_DIR", "/nonexistent", 1), 0);
  auto missing = RunGate({.corpus = kCorpus, .candidate = "kube:1.27", .diff = {}});
  ASSERT_EQ(::unsetenv("SCHEDCHECK_KUBE_ADAPTER_DIR"), 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("bazel build //harness/kube:kube-adapter-1.27"),
            std::string::npos)
      << missing.message();
}

TEST(GateTest, BadInputIsAnError) {
  auto missing = RunGate({.corpus = "no/such/dir", .candidate = "reference", .diff = {}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("no/such/dir"), std::string::npos);
  auto bad = RunGate({.corpus = kCorpus, .candidate = "weight:Nope=3", .diff = {}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("Nope is not enabled"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace schedcheck::gate
