// The summary's flush waits tell apart the events no rejecting plugin registered from those one
// registered but whose QueueingHint (v1.37) or move pre-check (v1.27) kept the pod: a pod
// rejected by TaintToleration waits for the flush through a taint change that still does not
// tolerate it (registered) and a label change (at v1.37 not registered by TaintToleration).
#include "harness/replay/summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::replay {
namespace {

trace::Record NodeAt(int64_t t_s, trace::EventType type, const std::string& json) {
  trace::Record r;
  r.set_time_ns(t_s * kNanosPerSecond);
  r.mutable_api()->set_type(type);
  auto node = k8s::NodeFromJson(nlohmann::json::parse(json), "node");
  EXPECT_TRUE(node.ok()) << node.message();
  *r.mutable_api()->mutable_node() = *node;
  return r;
}

std::vector<trace::Record> Trace() {
  const std::string status = R"("status":{"allocatable":{"cpu":"2","memory":"8Gi","pods":"110"}})";
  auto node = [&](const std::string& taint, const std::string& labels) {
    return R"({"metadata":{"name":"n1","labels":{)" + labels +
           R"(}},"spec":{"taints":[{"key":"dedicated","value":")" + taint +
           R"(","effect":"NoSchedule"}]},)" + status + "}";
  };
  trace::Record pod;
  pod.set_time_ns(1 * kNanosPerSecond);
  pod.mutable_api()->set_type(trace::ADDED);
  auto p = k8s::PodFromJson(
      nlohmann::json::parse(
          R"({"metadata":{"name":"p","namespace":"default","uid":"uid-p"},"spec":{"containers":[{"name":"c"}]}})"),
      "pod");
  EXPECT_TRUE(p.ok()) << p.message();
  *pod.mutable_api()->mutable_pod() = *p;
  return {NodeAt(0, trace::ADDED, node("infra", "")), pod,
          NodeAt(5, trace::MODIFIED, node("db", "")),
          NodeAt(6, trace::MODIFIED, node("db", R"("zone":"a")"))};
}

// The flush-wait line of an in-process replay at `compat`.
std::string FlushWait(const std::string& compat) {
  ReplayOptions options;
  options.compat = compat;
  options.config = reference::DefaultConfiguration(compat);
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  if (!replayer.ok()) return "";
  Outcome ok = (*replayer)->Run(Trace());
  EXPECT_TRUE(ok.ok()) << ok.message();
  SummaryOptions so;
  so.registrants = &(*replayer)->event_registrants();
  so.queueing_hints = (*replayer)->queueing_hints();
  const std::string text =
      Summarize((*replayer)->log().records(), (*replayer)->cluster_events(), so);
  const size_t at = text.find("  default/p: unschedulable from");
  return at == std::string::npos ? text : text.substr(at, text.find('\n', at) - at);
}

TEST(SummaryTest, AHintThatSkippedThePodIsNotCalledAMissingRegistration) {
  EXPECT_EQ(FlushWait("1.37"),
            "  default/p: unschedulable from 1s (rejected by TaintToleration) until the leftover "
            "flush at 330s; cluster events meanwhile, registered by a rejecting plugin but "
            "skipped by its QueueingHint (or the move's pre-check): NodeUpdateNodeTaint@5s "
            "(TaintToleration); not registered by the rejecting plugins: NodeUpdateNodeLabel@6s");
  // v1.27 has no hints: TaintToleration registers every Node update, and preCheckForNode keeps
  // the pod while the node still does not fit it.
  EXPECT_EQ(FlushWait("1.27"),
            "  default/p: unschedulable from 1s (rejected by TaintToleration) until the leftover "
            "flush at 330s; cluster events meanwhile, registered by a rejecting plugin but kept "
            "by the move's pre-check (the changed node would not fit the pod): "
            "NodeTaintChange@5s (TaintToleration), NodeLabelChange@6s (TaintToleration)");
}

// Without registrants (an external scheduler's moves), the events are listed without a claim.
TEST(SummaryTest, UnknownRegistrationsAreNotGuessed) {
  std::vector<trace::Record> log;
  auto queue = [&](int64_t t_s, const std::string& from, const std::string& to,
                   const std::string& cause) {
    trace::Record r;
    r.set_time_ns(t_s * kNanosPerSecond);
    r.mutable_queue()->set_pod("default/p");
    r.mutable_queue()->set_from(from);
    r.mutable_queue()->set_to(to);
    r.mutable_queue()->set_cause(cause);
    log.push_back(r);
  };
  queue(1, "inflight", "unschedulable", "ScheduleAttemptFailure");
  queue(330, "unschedulable", "active", "UnschedulableTimeout");
  const ClusterEventLog events = {{5 * kNanosPerSecond, "NodeAdd"}};
  std::string text = Summarize(log, events);
  EXPECT_NE(text.find("until the leftover flush at 330s; cluster events meanwhile: NodeAdd@5s\n"),
            std::string::npos)
      << text;
  const std::vector<std::set<std::string>> nobody = {{}};
  SummaryOptions so;
  so.registrants = &nobody;
  text = Summarize(log, events, so);
  EXPECT_NE(text.find("; cluster events meanwhile, none registered by the rejecting plugins: "
                      "NodeAdd@5s\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace schedcheck::replay
