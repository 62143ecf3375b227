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

std::vector<diff::NamedDiff> Gate(const std::string& corpus, const std::string& candidate) {
  auto r = RunGate({.corpus = corpus, .candidate = candidate, .diff = {}});
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::vector<diff::NamedDiff>{};
}

const diff::NamedDiff& Named(const std::vector<diff::NamedDiff>& diffs, const std::string& name) {
  for (const auto& d : diffs) {
    if (d.name == name) return d;
  }
  static const diff::NamedDiff kNone{"(missing)", {}, "", ""};
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
