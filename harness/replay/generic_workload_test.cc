// The GenericWorkload gate at compat 1.37 (beta, off by default). schedcheck's pods carry no
// spec.schedulingGroup, so what the gate changes for them is: GangScheduling in the default
// profile, and every new pending pod handled as an UnscheduledPodAdd event by the queue
// (eventhandlers.go addPodToSchedulingQueue at v1.37.2). GangScheduling's own hints skip pods
// outside pod groups; a plugin without queueing hints is registered for every event, so the pods
// it rejected are retried when another pod arrives.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "harness/replay/test_records.h"
#include "reference/plugins/registry.h"

namespace schedcheck::replay {
namespace {

// A Filter plugin with neither EnqueueExtensions nor queueing hints: it rejects pods labelled
// `reject`, and upstream registers it for every event (UnrollWildCardResource).
class RejectLabelled final : public reference::FilterPlugin {
 public:
  std::string_view Name() const override { return "RejectLabelled"; }
  reference::Status Filter(const reference::CycleState&, const reference::Pod& pod,
                           const reference::NodeInfo&) override {
    if (pod.obj.metadata().labels().count("reject")) {
      return reference::Status(reference::Code::kUnschedulable, "labelled reject");
    }
    return reference::Status();
  }
};

const std::vector<trace::Record> kRecords = {
    AddedFromJson(
        0, "node",
        R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "4Gi", "pods": "10"}}})"),
    AddedFromJson(0, "pod", R"({"metadata": {"name": "a", "labels": {"reject": "yes"}}})"),
    // Rejected too, so that no binding (an AssignedPodAdd event, which the wildcard covers as
    // well) moves a.
    AddedFromJson(20 * kNanosPerSecond, "pod",
                  R"({"metadata": {"name": "b", "labels": {"reject": "yes"}}})"),
};

struct RunResult {
  std::vector<std::string> a_moves;        // "<second> <from> -> <to> (<cause>)" of pod a
  std::vector<int64_t> a_attempt_seconds;  // when pod a was tried
};

RunResult Replay(bool generic_workload) {
  static const reference::Registry registry = [] {
    reference::Registry r = reference::PluginRegistry();
    (void)r.Register(
        "RejectLabelled",
        [](const reference::PluginArgs&,
           const reference::Handle&) -> Result<std::unique_ptr<reference::Plugin>> {
          return std::unique_ptr<reference::Plugin>(std::make_unique<RejectLabelled>());
        });
    return r;
  }();
  ReplayOptions options;
  options.compat = "1.37";
  options.registry = &registry;
  options.config = reference::DefaultConfiguration("1.37");
  options.config.profiles[0]
      .at(reference::ExtensionPoint::kMultiPoint)
      .enabled.push_back({"RejectLabelled", 0});
  if (generic_workload) options.feature_gates = {{"GenericWorkload", true}};
  options.horizon_ns = 60 * kNanosPerSecond;  // before the 5-minute leftover flush
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  RunResult run;
  if (!replayer.ok()) return run;
  Outcome ok = (*replayer)->Run(kRecords);
  EXPECT_TRUE(ok.ok()) << ok.message();
  for (const trace::Record& r : (*replayer)->log().records()) {
    const int64_t s = r.time_ns() / kNanosPerSecond;
    if (r.has_attempt() && r.attempt().pod() == "default/a") run.a_attempt_seconds.push_back(s);
    if (r.has_queue() && r.queue().pod() == "default/a") {
      run.a_moves.push_back(std::to_string(s) + " " + r.queue().from() + " -> " + r.queue().to() +
                            " (" + r.queue().cause() + ")");
    }
  }
  return run;
}

// Off, pod a (rejected by a plugin registered for every event) waits in the unschedulable pool:
// no event of this trace reaches it before the end. On, b's arrival is an UnscheduledPodAdd event,
// the wildcard registration covers it, and a (its 1 s backoff long over) goes straight to activeQ
// and is tried again. kube-scheduler has no RejectLabelled plugin, so this cannot be replayed
// through it; KubeDifferential.GenericWorkloadOnIsEquivalent checks the default plugins with the
// gate on against v1.37.2.
TEST(GenericWorkloadTest, ANewPendingPodIsAnEventForTheUnschedulablePool) {
  const RunResult off = Replay(false);
  EXPECT_EQ(off.a_attempt_seconds, (std::vector<int64_t>{0}))
      << ::testing::PrintToString(off.a_moves);

  const RunResult on = Replay(true);
  EXPECT_EQ(on.a_attempt_seconds, (std::vector<int64_t>{0, 20}))
      << ::testing::PrintToString(on.a_moves);
  EXPECT_NE(std::find(on.a_moves.begin(), on.a_moves.end(),
                      "20 unschedulable -> active (UnscheduledPodAdd)"),
            on.a_moves.end())
      << ::testing::PrintToString(on.a_moves);
}

// A pod naming a pod group (spec.schedulingGroup). With the gate off upstream ignores the field,
// and so does the reference: the pod schedules as a plain pod. With the gate on it would be
// scheduled with its group, which is not modelled: the replay stops with an input error naming the
// record, the pod, the field and the group, before any decision about that pod. At 1.27 the field
// does not exist.
TEST(GenericWorkloadTest, APodInAPodGroupIsPlainWithTheGateOffAndRefusedWithItOn) {
  const std::vector<trace::Record> records = {
      AddedFromJson(
          0, "node",
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "4Gi", "pods": "10"}}})"),
      AddedFromJson(
          0, "pod",
          R"({"metadata": {"name": "w0"}, "spec": {"schedulingGroup": {"podGroupName": "train"}}})"),
  };
  struct Case {
    std::string compat;
    bool gate;
    std::string want_error;  // empty: replays, w0 bound to n1
  } cases[] = {
      {"1.37", false, ""},
      {"1.37", true,
       "record 1: pod w0: spec.schedulingGroup: pod group \"train\": pod groups are not modelled "
       "by schedcheck (GenericWorkload=true; docs/DEVIATIONS.md)"},
      {"1.27", false,
       "record 1: pod w0: spec.schedulingGroup: pod group \"train\": the field does not exist at "
       "compat 1.27 (it is new in v1.36)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.compat + (c.gate ? " gate on" : " gate off"));
    ReplayOptions options;
    options.compat = c.compat;
    options.config = reference::DefaultConfiguration(c.compat);
    if (c.gate) options.feature_gates = {{"GenericWorkload", true}};
    auto replayer = Replayer::Create(options);
    ASSERT_TRUE(replayer.ok()) << replayer.message();
    Outcome ok = (*replayer)->Run(records);
    if (!c.want_error.empty()) {
      ASSERT_FALSE(ok.ok());
      EXPECT_EQ(ok.message(), c.want_error);
      for (const trace::Record& r : (*replayer)->log().records()) {
        EXPECT_FALSE(r.has_attempt()) << r.ShortDebugString();
      }
      continue;
    }
    ASSERT_TRUE(ok.ok()) << ok.message();
    bool bound = false;
    for (const trace::Record& r : (*replayer)->log().records()) {
      if (r.has_attempt() && r.attempt().pod() == "default/w0") {
        EXPECT_EQ(r.attempt().node(), "n1") << r.ShortDebugString();
        bound = true;
      }
    }
    EXPECT_TRUE(bound);
  }
}

}  // namespace
}  // namespace schedcheck::replay
