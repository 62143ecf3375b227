// How the replay applies trace events: Priority admission (Replayer::AdmitPriority, what
// plugin/pkg/admission/priority v1.27 writes into pods the trace holds as clients wrote them),
// and events that overlap an attempt (during_attempt: delivered right after SchedulePod, so that
// PostFilter reads the informers as they are then, as the kube adapters deliver them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::replay {
namespace {

trace::Record At(int64_t t_s, trace::EventType type) {
  trace::Record r;
  r.set_time_ns(t_s * kNanosPerSecond);
  r.mutable_api()->set_type(type);
  return r;
}

trace::Record Pod(int64_t t_s, trace::EventType type, const std::string& json) {
  trace::Record r = At(t_s, type);
  auto pod = k8s::PodFromJson(nlohmann::json::parse(json), "pod");
  EXPECT_TRUE(pod.ok()) << pod.message();
  *r.mutable_api()->mutable_pod() = *pod;
  return r;
}

trace::Record Node(const std::string& json) {
  trace::Record r = At(0, trace::ADDED);
  auto node = k8s::NodeFromJson(nlohmann::json::parse(json), "node");
  EXPECT_TRUE(node.ok()) << node.message();
  *r.mutable_api()->mutable_node() = *node;
  return r;
}

trace::Record Pdb(int64_t t_s, trace::EventType type, const std::string& json) {
  trace::Record r = At(t_s, type);
  auto pdb = k8s::PdbFromJson(nlohmann::json::parse(json), "pdb");
  EXPECT_TRUE(pdb.ok()) << pdb.message();
  *r.mutable_api()->mutable_pod_disruption_budget() = *pdb;
  return r;
}

trace::Record During(trace::Record r) {
  r.mutable_api()->set_during_attempt(true);
  return r;
}

trace::Record Class(int64_t t_s, trace::EventType type, const std::string& json) {
  trace::Record r = At(t_s, type);
  auto pc = k8s::PriorityClassFromJson(nlohmann::json::parse(json), "class");
  EXPECT_TRUE(pc.ok()) << pc.message();
  *r.mutable_api()->mutable_priority_class() = *pc;
  return r;
}

std::vector<trace::Record> Log(const std::vector<trace::Record>& records,
                               const std::string& compat = "1.27",
                               const reference::FeatureGates& gates = {}) {
  ReplayOptions options;
  options.compat = compat;
  options.feature_gates = gates;
  options.config = reference::DefaultConfiguration(compat);
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok());
  Outcome ok = (*replayer)->Run(records);
  EXPECT_TRUE(ok.ok()) << ok.message();
  return (*replayer)->log().records();
}

std::vector<trace::Attempt> Attempts(const std::vector<trace::Record>& records,
                                     const std::string& pod, const std::string& compat = "1.27",
                                     const reference::FeatureGates& gates = {}) {
  std::vector<trace::Attempt> out;
  for (const trace::Record& r : Log(records, compat, gates)) {
    if (r.has_attempt() && r.attempt().pod() == pod) out.push_back(r.attempt());
  }
  return out;
}

const char* kNode =
    R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}})";
const char* kVictim =
    R"({"metadata": {"name": "v"}, "spec": {"nodeName": "n1", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "800m"}}}]}})";

// The API's defaults: with hostNetwork every containerPort is a hostPort (SetDefaults_PodSpec), so
// two host-network pods on port 9100 do not share a node, at either level. Checked against
// kube-scheduler v1.27.8 and v1.37.2 (schedcheck replay --candidate kube:<level>): equivalent.
TEST(AdmissionTest, HostNetworkPortsAreHostPorts) {
  const char* exporter =
      R"({"metadata": {"name": "%s"}, "spec": {"hostNetwork": true, "containers": [{"name": "c", "ports": [{"containerPort": 9100}]}]}})";
  auto pod = [&](const std::string& name) {
    std::string json = exporter;
    json.replace(json.find("%s"), 2, name);
    return Pod(0, trace::ADDED, json);
  };
  const std::vector<trace::Record> records = {Node(kNode), pod("a"), pod("b")};
  for (const char* compat : {"1.27", "1.37"}) {
    SCOPED_TRACE(compat);
    std::vector<trace::Attempt> b = Attempts(records, "default/b", compat);
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b[0].result(), trace::UNSCHEDULABLE);
    EXPECT_EQ(std::vector<std::string>(b[0].unschedulable_plugins().begin(),
                                       b[0].unschedulable_plugins().end()),
              std::vector<std::string>{"NodePorts"});
  }
}

// A class's preemptionPolicy reaches the pod with its value: a pod naming a Never class does not
// preempt although the trace leaves spec.preemptionPolicy out.
TEST(AdmissionTest, PreemptionPolicyComesFromTheClass) {
  std::vector<trace::Record> records = {
      Node(kNode),
      Class(0, trace::ADDED,
            R"({"metadata": {"name": "never"}, "value": 1000, "preemptionPolicy": "Never"})"),
      Pod(0, trace::ADDED, kVictim),
      Pod(1, trace::ADDED,
          R"({"metadata": {"name": "p"}, "spec": {"priorityClassName": "never", "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})"),
  };
  std::vector<trace::Attempt> attempts = Attempts(records, "default/p");
  ASSERT_FALSE(attempts.empty());
  EXPECT_EQ(attempts[0].message(),
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never..");
  EXPECT_TRUE(attempts[0].victims().empty());
}

// Admission runs on create only: an update that leaves priority out keeps the stored pod's,
// although its class was deleted meanwhile (and a global default class appeared).
TEST(AdmissionTest, UpdatesKeepWhatCreateAdmitted) {
  std::vector<trace::Record> records = {
      Node(kNode),
      Class(0, trace::ADDED, R"({"metadata": {"name": "high"}, "value": 1000})"),
      Pod(0, trace::ADDED, kVictim),
      Pod(0, trace::ADDED,
          R"({"metadata": {"name": "p", "resourceVersion": "1"}, "spec": {"priorityClassName": "high", "schedulingGates": [{"name": "g"}], "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})"),
      Class(1, trace::DELETED, R"({"metadata": {"name": "high"}, "value": 1000})"),
      Class(1, trace::ADDED,
            R"({"metadata": {"name": "low-default"}, "value": 5, "globalDefault": true})"),
      Pod(2, trace::MODIFIED,
          R"({"metadata": {"name": "p", "resourceVersion": "2"}, "spec": {"priorityClassName": "high", "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})"),
  };
  std::vector<trace::Attempt> attempts = Attempts(records, "default/p");
  ASSERT_FALSE(attempts.empty());
  // Priority 1000 kept: the priority-0 victim is preempted.
  EXPECT_EQ(attempts[0].nominated_node(), "n1");
  EXPECT_EQ(std::vector<std::string>(attempts[0].victims().begin(), attempts[0].victims().end()),
            std::vector<std::string>{"default/v"});
}

// Without a class name, the global default class of the lowest value gives priority and policy.
TEST(AdmissionTest, GlobalDefaultOfTheLowestValue) {
  std::vector<trace::Record> records = {
      Node(kNode),
      Class(0, trace::ADDED,
            R"({"metadata": {"name": "a-default"}, "value": 50, "globalDefault": true})"),
      Class(
          0, trace::ADDED,
          R"({"metadata": {"name": "b-default"}, "value": 10, "globalDefault": true, "preemptionPolicy": "Never"})"),
      Pod(0, trace::ADDED, kVictim),
      Pod(1, trace::ADDED,
          R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})"),
  };
  std::vector<trace::Attempt> attempts = Attempts(records, "default/p");
  ASSERT_FALSE(attempts.empty());
  EXPECT_EQ(attempts[0].message(),
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never..");
}

// A PDB created while the preemptor's cycle runs is seen by its PostFilter (upstream's PDB lister
// is live; the kube adapter delivers during_attempt events after SchedulePod): the PDB over w
// makes w the violating pod reprieved first, so the older v is the victim. Delivered after the
// PostFilter instead, w would be.
TEST(DuringAttemptTest, PostFilterSeesEventsThatOverlapTheAttempt) {
  const char* v =
      R"({"metadata": {"name": "v", "labels": {"app": "web"}}, "spec": {"nodeName": "n1", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "400m"}}}]}, "status": {"startTime": "1969-12-31T23:00:00Z"}})";
  const char* w =
      R"({"metadata": {"name": "w", "labels": {"app": "db"}}, "spec": {"nodeName": "n1", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "400m"}}}]}, "status": {"startTime": "1969-12-31T23:30:00Z"}})";
  const char* q =
      R"({"metadata": {"name": "q"}, "spec": {"priority": 100, "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})";
  const char* pdb =
      R"({"metadata": {"name": "pdb", "namespace": "default"}, "spec": {"selector": {"matchLabels": {"app": "db"}}}, "status": {"disruptionsAllowed": 0}})";
  std::vector<trace::Record> without = {Node(kNode), Pod(0, trace::ADDED, v),
                                        Pod(0, trace::ADDED, w), Pod(2, trace::ADDED, q)};
  std::vector<trace::Attempt> a = Attempts(without, "default/q");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(std::vector<std::string>(a[0].victims().begin(), a[0].victims().end()),
            std::vector<std::string>{"default/w"});
  std::vector<trace::Record> with = without;
  with.push_back(During(Pdb(2, trace::ADDED, pdb)));
  a = Attempts(with, "default/q");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(std::vector<std::string>(a[0].victims().begin(), a[0].victims().end()),
            std::vector<std::string>{"default/v"});
}

// The preemptor deleted while its cycle runs: Evaluator.Preempt fetches it again from the pod
// lister and fails with the lister's NotFound; the failure handler then drops the pod.
TEST(DuringAttemptTest, PreemptorDeletedDuringItsAttempt) {
  const char* p =
      R"({"metadata": {"name": "p"}, "spec": {"priority": 100, "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})";
  std::vector<trace::Record> records = {Node(kNode), Pod(0, trace::ADDED, kVictim),
                                        Pod(1, trace::ADDED, p), During(Pod(1, trace::DELETED, p))};
  std::vector<trace::Record> log = Log(records);
  std::vector<std::string> steps;
  for (const trace::Record& r : log) {
    if (r.has_attempt() && r.attempt().pod() == "default/p")
      steps.push_back("attempt: " + r.attempt().message());
    if (r.has_queue() && r.queue().pod() == "default/p") {
      steps.push_back(r.queue().from() + "->" + r.queue().to() + " " + r.queue().cause());
    }
  }
  EXPECT_EQ(
      steps,
      (std::vector<std::string>{
          "none->active PodAdd",
          "active->inflight Pop",
          "attempt: 0/1 nodes are available: 1 Insufficient cpu. preemption: pod \"p\" not found.",
          "inflight->none Done",
      }));
}

// The level decides a pod's requests: v1.37 counts pod-level requests (replacing the containers'
// aggregate) and sidecars; v1.27 knows neither field. A pod whose pod-level cpu exceeds the node
// fits at 1.27 and not at 1.37 (found by the 1.37 differential: replay built pods by v1.27 rules).
TEST(EventsTest, PodRequestsFollowTheLevel) {
  const std::vector<trace::Record> records = {
      Node(kNode), Pod(1, trace::ADDED,
                       R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c",
              "resources": {"requests": {"cpu": "100m"}}}], "resources": {"requests": {"cpu": "2"}}}})")};
  std::vector<trace::Attempt> at127 = Attempts(records, "default/p", "1.27");
  ASSERT_FALSE(at127.empty());
  EXPECT_EQ(at127[0].result(), trace::SCHEDULED);
  std::vector<trace::Attempt> at137 = Attempts(records, "default/p", "1.37");
  ASSERT_FALSE(at137.empty());
  EXPECT_EQ(at137[0].result(), trace::UNSCHEDULABLE);
  EXPECT_NE(at137[0].message().find("Insufficient cpu"), std::string::npos) << at137[0].message();
}

}  // namespace
// --feature-gates at 1.37: a profile under which OpportunisticBatching reuses scores is taken
// with the gate on and off; gates at 1.27 and gates the reference does not model are refused
// naming them.
TEST(FeatureGatesTest, GatesAreCheckedAgainstTheLevel) {
  ReplayOptions options;
  options.compat = "1.37";
  options.config = reference::DefaultConfiguration("1.37");
  std::erase_if(options.config.profiles[0].at(reference::ExtensionPoint::kMultiPoint).enabled,
                [](const reference::PluginEntry& e) { return e.name == "PodTopologySpread"; });
  auto batching = Replayer::Create(options);
  EXPECT_TRUE(batching.ok()) << batching.message();
  options.feature_gates = {{"OpportunisticBatching", false}};
  auto taken = Replayer::Create(options);
  EXPECT_TRUE(taken.ok()) << taken.message();

  options.feature_gates = {{"TaintTolerationComparisonOperators", true}};
  auto unmodelled = Replayer::Create(options);
  ASSERT_FALSE(unmodelled.ok());
  EXPECT_NE(unmodelled.message().find("TaintTolerationComparisonOperators"), std::string::npos);
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  options.feature_gates = {{"OpportunisticBatching", false}};
  auto at127 = Replayer::Create(options);
  ASSERT_FALSE(at127.ok());
  EXPECT_NE(at127.message().find("compat 1.37 only"), std::string::npos) << at127.message();
}

// PodLevelResources and InPlacePodLevelResourcesVerticalScaling at 1.37: a bound pod asks 1 cpu
// in its container and 4 at pod level, and a pod-level resize has allocated and actuated 6. By
// default n1 (8 cpu) counts 6 for it, so a pod asking 3 does not fit; with the in-place gate off
// it counts the spec's 4, and with PodLevelResources off (and the gates upstream makes depend on
// it) the container's 1. Each outcome was also replayed through kube-scheduler v1.37.2 with the
// same gates (schedcheck replay --candidate kube:1.37): equivalent.
TEST(FeatureGatesTest, PodResourceGatesChangeWhatABoundPodCounts) {
  const std::vector<trace::Record> records = {
      Node(
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "10"}}})"),
      Pod(0, trace::ADDED,
          R"({"metadata": {"name": "big"}, "spec": {"nodeName": "n1", "resources": {"requests": {"cpu": "4"}}, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Running", "allocatedResources": {"cpu": "6"}, "resources": {"requests": {"cpu": "6"}}}})"),
      Pod(1, trace::ADDED,
          R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "3"}}}]}})"),
  };
  const reference::FeatureGates in_place_off = {{"InPlacePodLevelResourcesVerticalScaling", false}};
  reference::FeatureGates pod_level_off = in_place_off;
  for (const char* gate : {"PodLevelResources", "PodLevelResourcesFixDefaulting",
                           "PodLevelResourcesFixKubeletQOSClass"})
    pod_level_off[gate] = false;

  std::vector<trace::Attempt> by_default = Attempts(records, "default/p", "1.37");
  ASSERT_FALSE(by_default.empty());
  EXPECT_EQ(by_default[0].result(), trace::UNSCHEDULABLE);
  EXPECT_NE(by_default[0].message().find("1 Insufficient cpu"), std::string::npos)
      << by_default[0].message();
  for (const reference::FeatureGates& gates : {in_place_off, pod_level_off}) {
    SCOPED_TRACE(reference::FeatureGatesText(gates));
    std::vector<trace::Attempt> attempts = Attempts(records, "default/p", "1.37", gates);
    ASSERT_FALSE(attempts.empty());
    EXPECT_EQ(attempts[0].result(), trace::SCHEDULED) << attempts[0].message();
  }
  // A pending pod's own pod-level request: 9 cpu does not fit n1 unless PodLevelResources is off
  // (then its container's 1 cpu is all it asks).
  const std::vector<trace::Record> own = {
      Node(
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "10"}}})"),
      Pod(0, trace::ADDED,
          R"({"metadata": {"name": "q"}, "spec": {"resources": {"requests": {"cpu": "9"}}, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}})"),
  };
  std::vector<trace::Attempt> q_default = Attempts(own, "default/q", "1.37", in_place_off);
  ASSERT_FALSE(q_default.empty());
  EXPECT_EQ(q_default[0].result(), trace::UNSCHEDULABLE);
  std::vector<trace::Attempt> q_off = Attempts(own, "default/q", "1.37", pod_level_off);
  ASSERT_FALSE(q_off.empty());
  EXPECT_EQ(q_off[0].result(), trace::SCHEDULED) << q_off[0].message();
}

// SchedulerAsyncPreemption at 1.37, where the two forms differ under the replay conventions: the
// only victim (v) is already terminating. mid, nominated to n1 by the trace, and then high both
// preempt on n1. Async, prepareCandidateAsync has no victim left to delete and does nothing, so
// mid keeps its nomination; sync, prepareCandidate still clears the nominations of lower-priority
// pods on n1, and the update moves mid, which is tried again at once. Both logs are kube-scheduler
// v1.37.2's with the same gate (schedcheck replay --candidate kube:1.37): equivalent.
TEST(FeatureGatesTest, AsyncPreemptionOffClearsNominationsWhenEveryVictimIsTerminating) {
  auto node = [](int64_t t_s, trace::EventType type, const std::string& json) {
    trace::Record r = Node(json);
    r.set_time_ns(t_s * kNanosPerSecond);
    r.mutable_api()->set_type(type);
    return r;
  };
  const std::vector<trace::Record> records = {
      node(
          0, trace::ADDED,
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "1", "memory": "4Gi", "pods": "10"}}})"),
      node(
          0, trace::ADDED,
          R"({"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "200m", "memory": "4Gi", "pods": "10"}}})"),
      Pod(0, trace::ADDED,
          R"({"metadata": {"name": "v", "deletionTimestamp": "2026-01-01T00:00:30Z"}, "spec": {"nodeName": "n1", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "800m"}}}]}, "status": {"phase": "Running"}})"),
      Pod(0, trace::ADDED,
          R"({"metadata": {"name": "mid"}, "spec": {"priority": 10, "containers": [{"name": "c", "resources": {"requests": {"cpu": "300m"}}}]}, "status": {"nominatedNodeName": "n1"}})"),
      Pod(1, trace::ADDED,
          R"({"metadata": {"name": "high"}, "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}})"),
      node(
          2, trace::MODIFIED,
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "10"}}})"),
      node(
          2, trace::MODIFIED,
          R"({"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "4", "memory": "4Gi", "pods": "10"}}})"),
  };
  auto outcomes = [&](const reference::FeatureGates& gates) {
    std::vector<std::string> out;
    for (const trace::Record& r : Log(records, "1.37", gates)) {
      if (!r.has_attempt()) continue;
      const trace::Attempt& a = r.attempt();
      out.push_back(std::to_string(r.time_ns() / kNanosPerSecond) + " " + a.pod() + " " +
                    (a.result() == trace::SCHEDULED ? a.node() : "unschedulable"));
    }
    return out;
  };
  EXPECT_EQ(outcomes({}),
            (std::vector<std::string>{"0 default/mid unschedulable", "1 default/high unschedulable",
                                      "2 default/mid n1", "2 default/high n1"}));
  EXPECT_EQ(outcomes({{"SchedulerAsyncPreemption", false}}),
            (std::vector<std::string>{"0 default/mid unschedulable", "1 default/high unschedulable",
                                      "1 default/mid unschedulable", "2 default/high n1",
                                      "2 default/mid n1"}));
}

// nodeName is immutable once set: an input update that would un-assign or move a pod the replay
// bound (a capture's update written before the replay's binding, or a hand-written trace) keeps
// the replay's placement, applies its other fields, and is counted for the summary.
TEST(ReplayEventsTest, AnUpdateNeverMovesOrUnassignsABoundPod) {
  auto node = [](const std::string& name) {
    return Node(R"({"metadata":{"name":")" + name +
                R"("},"status":{"allocatable":{"cpu":"2","pods":"10"}}})");
  };
  const std::string p =
      R"({"metadata":{"name":"p","namespace":"default","uid":"u-p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  const std::string p_unassigned =
      R"({"metadata":{"name":"p","namespace":"default","uid":"u-p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]},"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
  const std::string p_moved =
      R"({"metadata":{"name":"p","namespace":"default","uid":"u-p"},"spec":{"nodeName":"n2","containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  // q fits only where p is not: had p left its node, q could go there too.
  const std::string q =
      R"({"metadata":{"name":"q","namespace":"default","uid":"u-q"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  for (const std::string compat : {"1.27", "1.37"}) {
    ReplayOptions options;
    options.compat = compat;
    options.config = reference::DefaultConfiguration(compat);
    auto replayer = Replayer::Create(options);
    ASSERT_TRUE(replayer.ok()) << replayer.message();
    Outcome ok =
        (*replayer)->Run({node("n1"), node("n2"), Pod(1, trace::ADDED, p),
                          Pod(5, trace::MODIFIED, p_unassigned), Pod(6, trace::MODIFIED, p_moved),
                          Pod(7, trace::ADDED, q), Pod(8, trace::DELETED, p_unassigned)});
    ASSERT_TRUE(ok.ok()) << ok.message();
    std::vector<std::string> binds;
    int p_attempts = 0;
    for (const trace::Record& r : (*replayer)->log().records()) {
      if (r.has_attempt()) {
        EXPECT_NE(r.attempt().result(), trace::ERROR) << compat << ": " << r.attempt().message();
        p_attempts += r.attempt().pod() == "default/p" ? 1 : 0;
      }
      if (r.has_binding()) binds.push_back(r.binding().pod() + "->" + r.binding().node());
    }
    EXPECT_EQ(p_attempts, 1) << compat;  // never requeued as if pending again
    ASSERT_EQ(binds.size(), 2u) << compat;
    const std::string p_node = binds[0].substr(binds[0].find("->") + 2);
    EXPECT_EQ(binds[0].substr(0, binds[0].find("->")), "default/p") << compat;
    EXPECT_EQ(binds[1], std::string("default/q->") + (p_node == "n1" ? "n2" : "n1")) << compat;
    const KeptPlacements& kept = (*replayer)->kept_placements();
    EXPECT_EQ(kept.count, 2) << compat;  // the un-assigning and the moving update, not the deletion
    ASSERT_EQ(kept.first.size(), 2u) << compat;
    EXPECT_EQ(kept.first[0],
              "default/p at t=5s (record 3): the update names no node, bound to " + p_node)
        << compat;
    EXPECT_EQ(kept.first[1],
              "default/p at t=6s (record 4): the update names node n2, bound to " + p_node)
        << compat;
  }
}

// A terminating pod (a deletion mark, no kubelet to finish it) stays in the cache until it is
// deleted, as upstream's informers keep it: its node stays full.
TEST(ReplayEventsTest, ATerminatingPodHoldsItsNodeUntilDeleted) {
  const std::string a =
      R"({"metadata":{"name":"a","namespace":"default","uid":"u-a"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  const std::string a_terminating =
      R"({"metadata":{"name":"a","namespace":"default","uid":"u-a","deletionTimestamp":"2024-01-01T00:00:30Z"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  const std::string b =
      R"({"metadata":{"name":"b","namespace":"default","uid":"u-b"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";
  for (const std::string compat : {"1.27", "1.37"}) {
    std::vector<std::string> b_outcomes;
    for (const trace::Attempt& at : Attempts(
             {Node(
                  R"({"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","pods":"10"}}})"),
              Pod(0, trace::ADDED, a), Pod(1, trace::MODIFIED, a_terminating),
              Pod(2, trace::ADDED, b), Pod(100, trace::DELETED, a_terminating)},
             "default/b", compat)) {
      b_outcomes.push_back(at.result() == trace::SCHEDULED ? "bound " + at.node()
                                                           : "unschedulable");
    }
    ASSERT_FALSE(b_outcomes.empty()) << compat;
    EXPECT_EQ(b_outcomes.front(), "unschedulable") << compat;
    EXPECT_EQ(b_outcomes.back(), "bound n1") << compat;  // after a's deletion
  }
}

}  // namespace schedcheck::replay
