// Trace-level properties of determinism and the file formats: replay is a function of (trace,
// configuration, seed); traces and decision logs round-trip; failure messages and preemption
// decisions agree with the cluster state of their moment.
#include <map>

#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "harness/replay/decision_log.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "traces/trace_file.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace schedcheck::properties {
namespace {

using google::protobuf::util::MessageDifferencer;

std::string JsonLines(const std::vector<trace::Record>& log) {
  std::string out;
  for (const trace::Record& r : log) out += replay::DecisionJsonLine(r) + "\n";
  return out;
}

std::string TempTrace(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

// Two replays of one scenario with one seed produce byte-identical decision logs.
RC_GTEST_PROP(ReplayIoProperties, ReplayIsDeterministic, ()) {
  const Scenario s = *ScenarioGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(0, 1000);
  const std::string a = JsonLines(ReplayScenario(s, seed));
  const std::string b = JsonLines(ReplayScenario(s, seed));
  PROP_REQUIRE(a == b, "ReplayIsDeterministic", s.records,
               "two replays differ:\n" + a + "---\n" + b);
}

// Writing a scenario as a trace and reading it back (streaming reader and LoadTrace) gives the
// same records, and replaying the read-back trace gives the same decisions.
RC_GTEST_PROP(ReplayIoProperties, TraceWriteReadIsTheIdentity, ()) {
  const Scenario s = *ScenarioGen();
  trace::Trace t;
  t.header.set_producer("properties");
  t.header.set_compat("1.27");
  t.records = s.records;
  const std::string path = TempTrace("roundtrip.trace");
  trace::WriterOptions options;
  options.events_per_frame = *rc::gen::inRange<size_t>(1, 8);
  RC_ASSERT(trace::WriteTrace(path, t, options).ok());
  auto back = trace::ReadAll(path);
  RC_ASSERT(back.ok());
  RC_ASSERT(back->size() == s.records.size());
  for (size_t i = 0; i < s.records.size(); ++i)
    RC_ASSERT(MessageDifferencer::Equals(s.records[i], (*back)[i]));
  auto loaded = trace::LoadTrace(path);
  RC_ASSERT(loaded.ok());
  RC_ASSERT(loaded->records.size() == s.records.size());
  Scenario again{*back};
  RC_ASSERT(JsonLines(ReplayScenario(s)) == JsonLines(ReplayScenario(again)));
}

// Every decision record survives the JSON Lines form (docs/FORMATS.md#decision-logs):
// parse(render(r)) == r and rendering again is byte-identical.
RC_GTEST_PROP(ReplayIoProperties, DecisionJsonLinesRoundTrip, ()) {
  const Scenario s = *ScenarioGen();
  for (const trace::Record& r : ReplayScenario(s)) {
    const std::string line = replay::DecisionJsonLine(r);
    auto parsed = replay::ParseDecisionJsonLine(line, "line");
    PROP_REQUIRE(parsed.ok(), "DecisionJsonLinesRoundTrip", s.records,
                 line + ": " + (parsed.ok() ? "" : parsed.message()));
    PROP_REQUIRE(
        MessageDifferencer::Equals(*parsed, r) && replay::DecisionJsonLine(*parsed) == line,
        "DecisionJsonLinesRoundTrip", s.records,
        "does not round-trip: " + line + " vs " + parsed->DebugString());
  }
}

// A failed attempt's message counts the nodes that exist at that moment ("0/N nodes are
// available: ..."), or says there are none.
RC_GTEST_PROP(ReplayIoProperties, FailureMessageCountsTheLiveNodes, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_attempt() || d.attempt().result() != trace::UNSCHEDULABLE) return;
    const std::string& msg = d.attempt().message();
    std::string want = st.nodes.empty()
                           ? std::string(reference::kNoNodesAvailableMsg)
                           : "0/" + std::to_string(st.nodes.size()) + " nodes are available";
    PROP_REQUIRE(msg.rfind(want, 0) == 0, "FailureMessageCountsTheLiveNodes", s.records,
                 "t=" + std::to_string(d.time_ns()) + " " + d.attempt().pod() + ": message \"" +
                     msg + "\", want prefix \"" + want + "\"");
  });
}

// When no pod is nominated anywhere, an Unschedulable attempt really had no feasible node: every
// live node fails some filter oracle.
RC_GTEST_PROP(ReplayIoProperties, UnschedulableAttemptsHadNoFeasibleNode, ()) {
  const Scenario s = *ScenarioGen();
  bool nominations = false;
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_attempt()) return;
    if (d.attempt().result() == trace::UNSCHEDULABLE && !nominations) {
      const k8s::Pod& pod = st.pods.at(d.attempt().pod());
      for (const auto& [name, node] : st.nodes) {
        PROP_REQUIRE(!OracleAllFilters(st.Cluster(d.attempt().pod()), pod, name).empty(),
                     "UnschedulableAttemptsHadNoFeasibleNode", s.records,
                     "t=" + std::to_string(d.time_ns()) + " " + d.attempt().pod() +
                         " unschedulable, but " + name + " passes every oracle");
      }
    }
    nominations |= !d.attempt().nominated_node().empty();
  });
}

// Preemption only evicts pods bound to the nominated node with a lower priority than the
// preemptor, and only when the preemptor does not fit as things are.
RC_GTEST_PROP(ReplayIoProperties, PreemptionEvictsOnlyLowerPriorityPodsOfTheNominatedNode, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_attempt() || d.attempt().victims_size() == 0) return;
    const trace::Attempt& a = d.attempt();
    RC_ASSERT(a.result() != trace::SCHEDULED);
    RC_ASSERT(!a.nominated_node().empty());
    const int32_t prio = st.pods.at(a.pod()).spec().priority();
    for (const std::string& v : a.victims()) {
      auto it = st.pods.find(v);
      PROP_REQUIRE(it != st.pods.end() && it->second.spec().node_name() == a.nominated_node() &&
                       it->second.spec().priority() < prio,
                   "PreemptionEvictsOnlyLowerPriorityPodsOfTheNominatedNode", s.records,
                   "t=" + std::to_string(d.time_ns()) + " " + a.pod() + " evicted " + v);
    }
  });
}

}  // namespace
}  // namespace schedcheck::properties
