// Trace-level properties: generated event sequences replayed in virtual time with the default
// configuration; the decision log is checked against the cluster state at each decision
// (reconstructed from the scenario's events and the earlier decisions). A failure saves the
// shrunk scenario as a trace and prints the `schedcheck replay` command.
#include <map>
#include <set>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"

namespace schedcheck::properties {
namespace {

std::string Where(const trace::Record& d) {
  return "t=" + std::to_string(d.time_ns()) + "ns " +
         (d.has_attempt()
              ? "attempt " + d.attempt().pod() + " #" + std::to_string(d.attempt().attempt())
          : d.has_binding()
              ? "binding " + d.binding().pod() + " -> " + d.binding().node()
              : "queue " + d.queue().pod() + " " + d.queue().from() + "->" + d.queue().to());
}

bool Scheduled(const trace::Record& d) {
  return d.has_attempt() && d.attempt().result() == trace::SCHEDULED;
}

// Every pod the replay binds passes every Filter oracle on its node at that moment.
RC_GTEST_PROP(ReplayProperties, BoundPodsPassEveryFilterOracleAtBindTime, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!Scheduled(d)) return;
    auto pod = st.pods.find(d.attempt().pod());
    RC_ASSERT(pod != st.pods.end());
    RC_ASSERT(st.nodes.count(d.attempt().node()) > 0);
    std::string why =
        OracleAllFilters(st.Cluster(d.attempt().pod()), pod->second, d.attempt().node());
    PROP_REQUIRE(why.empty(), "BoundPodsPassEveryFilterOracleAtBindTime", s.records,
                 Where(d) + ": " + why);
  });
}

// ... and the default profile's own PreFilter + Filter, re-run on a snapshot of that moment.
RC_GTEST_PROP(ReplayProperties, BoundPodsPassReferenceFiltersAtBindTime, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!Scheduled(d)) return;
    ClusterState cs = st.Cluster(d.attempt().pod());
    ClusterCase c{cs.nodes, cs.bound, st.pods.at(d.attempt().pod())};
    LoadedCase loaded = Load(c);
    const reference::Framework& fw = loaded.cluster->framework();
    reference::CycleState state;
    reference::PreFilterResult pre_result;
    reference::Status status = fw.RunPreFilterPlugins(state, *loaded.pod, &pre_result);
    const reference::NodeInfo* node = loaded.cluster->snapshot().Get(d.attempt().node());
    RC_ASSERT(node != nullptr);
    if (status.IsSuccess()) status = fw.RunFilterPlugins(state, *loaded.pod, *node);
    PROP_REQUIRE(status.IsSuccess(), "BoundPodsPassReferenceFiltersAtBindTime", s.records,
                 Where(d) + ": " + status.DebugString());
  });
}

// No node ever holds more than its allocatable pods, cpu or memory (allocatable never shrinks in
// these scenarios and no pod arrives pre-bound, so any excess is the scheduler's).
RC_GTEST_PROP(ReplayProperties, NoNodeIsOvercommitted, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_binding()) return;
    ClusterState cs = st.Cluster();
    auto it = st.pods.find(d.binding().pod());
    RC_ASSERT(it != st.pods.end());
    k8s::Pod bound = it->second;
    bound.mutable_spec()->set_node_name(d.binding().node());
    cs.bound.push_back(bound);
    for (const k8s::Node& n : cs.nodes) {
      std::map<std::string, int64_t> used;
      for (const k8s::Pod& p : cs.bound) {
        if (p.spec().node_name() != n.metadata().name()) continue;
        used["pods"] += 1;
        used["cpu"] += OracleRequest(p, "cpu");
        used["memory"] += OracleRequest(p, "memory");
      }
      for (const auto& [r, v] : used) {
        int64_t alloc = OracleQuantity(r, n.status().allocatable().at(r));
        PROP_REQUIRE(v <= alloc, "NoNodeIsOvercommitted", s.records,
                     Where(d) + ": node " + n.metadata().name() + " " + r + " " +
                         std::to_string(v) + " > " + std::to_string(alloc));
      }
    }
  });
}

// Required anti-affinity holds, at every binding, between the pod being bound and every bound pod,
// in both directions. Between two pods bound earlier it may not: an update of a bound pod's
// labels keeps it on its node (nodeName is immutable once set), and the terms are
// "IgnoredDuringExecution"; each pair was checked when the later of the two was bound.
RC_GTEST_PROP(ReplayProperties, RequiredAntiAffinityHoldsBetweenAllBoundPods, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_binding()) return;
    ClusterState cs = st.Cluster();
    k8s::Pod bound = st.pods.at(d.binding().pod());
    bound.mutable_spec()->set_node_name(d.binding().node());
    cs.bound.push_back(bound);
    const k8s::Pod* incoming = &cs.bound.back();
    for (const k8s::Pod& a : cs.bound) {
      const auto& al = cs.FindNode(a.spec().node_name())->metadata().labels();
      for (const k8s::Pod& b : cs.bound) {
        if (&a == &b || (&a != incoming && &b != incoming)) continue;
        const auto& bl = cs.FindNode(b.spec().node_name())->metadata().labels();
        for (const auto& t : a.spec()
                                 .affinity()
                                 .pod_anti_affinity()
                                 .required_during_scheduling_ignored_during_execution()) {
          bool ns = t.namespaces_size() == 0
                        ? a.metadata().namespace_() == b.metadata().namespace_()
                        : std::count(t.namespaces().begin(), t.namespaces().end(),
                                     b.metadata().namespace_()) > 0;
          auto ak = al.find(t.topology_key());
          auto bk = bl.find(t.topology_key());
          bool same = ak != al.end() && bk != bl.end() && ak->second == bk->second;
          PROP_REQUIRE(
              !(ns && same && OracleSelectorMatches(t.label_selector(), b.metadata().labels())),
              "RequiredAntiAffinityHoldsBetweenAllBoundPods", s.records,
              Where(d) + ": " + a.metadata().name() + " and " + b.metadata().name() + " share " +
                  t.topology_key() + "=" + ak->second);
        }
      }
    }
  });
}

// Decisions only concern live pending pods: no attempt for a gated, unknown or bound pod; no
// binding of such a pod or to a node that is gone; no Error results.
RC_GTEST_PROP(ReplayProperties, DecisionsConcernLivePendingUngatedPods, ()) {
  const Scenario s = *ScenarioGen();
  WalkTimeline(s, ReplayScenario(s), [&](const ApiState& st, const trace::Record& d) {
    if (!d.has_attempt() && !d.has_binding()) return;
    const std::string& key = d.has_attempt() ? d.attempt().pod() : d.binding().pod();
    auto it = st.pods.find(key);
    PROP_REQUIRE(it != st.pods.end() && it->second.spec().node_name().empty(),
                 "DecisionsConcernLivePendingUngatedPods", s.records,
                 Where(d) + ": pod unknown or already bound");
    PROP_REQUIRE(it->second.spec().scheduling_gates_size() == 0,
                 "DecisionsConcernLivePendingUngatedPods", s.records,
                 Where(d) + ": the pod is gated");
    if (d.has_binding()) RC_ASSERT(st.nodes.count(d.binding().node()) > 0);
    if (d.has_attempt()) RC_ASSERT(d.attempt().result() != trace::ERROR);
  });
}

// Each Scheduled attempt names a node among its ties and is followed, before the next attempt,
// by the binding of that pod to that node (zero latencies).
RC_GTEST_PROP(ReplayProperties, ScheduledAttemptIsBoundToItsChoice, ()) {
  const Scenario s = *ScenarioGen();
  const std::vector<trace::Record> log = ReplayScenario(s);
  for (size_t i = 0; i < log.size(); ++i) {
    if (!Scheduled(log[i])) continue;
    const trace::Attempt& a = log[i].attempt();
    RC_ASSERT(std::count(a.ties().begin(), a.ties().end(), a.node()) == 1);
    bool bound = false;
    for (size_t j = i + 1; j < log.size() && !log[j].has_attempt() && !bound; ++j) {
      bound = log[j].has_binding() && log[j].binding().pod() == a.pod() &&
              log[j].binding().node() == a.node();
    }
    PROP_REQUIRE(bound, "ScheduledAttemptIsBoundToItsChoice", s.records,
                 Where(log[i]) + ": no binding follows");
  }
}

// Queue transitions chain per pod (each `from` is the previous `to`, starting at none), attempts
// happen only in flight, and attempt numbers count up from 1 after every fresh enqueue.
RC_GTEST_PROP(ReplayProperties, QueueTransitionsAndAttemptNumbersChain, ()) {
  const Scenario s = *ScenarioGen();
  std::map<std::string, std::string> where;
  std::map<std::string, int> attempts;
  for (const trace::Record& d : ReplayScenario(s)) {
    if (d.has_queue()) {
      const std::string& key = d.queue().pod();
      std::string prev = where.count(key) ? where[key] : "none";
      PROP_REQUIRE(d.queue().from() == prev, "QueueTransitionsAndAttemptNumbersChain", s.records,
                   Where(d) + ": but the pod was in " + prev);
      if (d.queue().from() == "none") attempts[key] = 0;
      where[key] = d.queue().to();
    } else if (d.has_attempt()) {
      const std::string& key = d.attempt().pod();
      PROP_REQUIRE(where[key] == "inflight", "QueueTransitionsAndAttemptNumbersChain", s.records,
                   Where(d) + ": attempt while the pod is in " + where[key]);
      PROP_REQUIRE(d.attempt().attempt() == ++attempts[key],
                   "QueueTransitionsAndAttemptNumbersChain", s.records,
                   Where(d) + ": expected attempt " + std::to_string(attempts[key]));
    }
  }
}

// An unschedulable pod that is still there is retried within podMaxInUnschedulablePodsDuration
// (300 s) plus one leftover-flush period (30 s), whatever else happens.
RC_GTEST_PROP(ReplayProperties, UnschedulablePodsAreRetriedWithinTheLeftoverWindow, ()) {
  const Scenario s = *ScenarioGen();
  const std::vector<trace::Record> log = ReplayScenario(s);
  const int64_t window = 330LL * 1000000000;
  const int64_t end = s.records.back().time_ns() + 600LL * 1000000000;
  for (size_t i = 0; i < log.size(); ++i) {
    if (!log[i].has_attempt() || log[i].attempt().result() != trace::UNSCHEDULABLE) continue;
    const std::string& key = log[i].attempt().pod();
    const int64_t t = log[i].time_ns();
    if (t + window >= end) continue;
    bool deleted = false;
    for (const trace::Record& r : s.records) {
      const auto& e = r.api();
      deleted |= e.type() == trace::DELETED && e.has_pod() && r.time_ns() >= t &&
                 r.time_ns() <= t + window && "default/" + e.pod().metadata().name() == key;
      deleted |= e.type() == trace::DELETED && e.has_pod() && r.time_ns() >= t &&
                 r.time_ns() <= t + window && "other/" + e.pod().metadata().name() == key;
    }
    if (deleted) continue;
    bool retried = false;
    for (size_t j = i + 1; j < log.size() && !retried; ++j) {
      retried =
          log[j].has_attempt() && log[j].attempt().pod() == key && log[j].time_ns() <= t + window;
    }
    PROP_REQUIRE(retried, "UnschedulablePodsAreRetriedWithinTheLeftoverWindow", s.records,
                 Where(log[i]) + ": not retried within 330 s");
  }
}

}  // namespace
}  // namespace schedcheck::properties
