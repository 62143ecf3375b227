// The generators: sizes, templates, determinism, and — replaying each shape at a small size —
// that the pods behave as the shape intends (measured pods bound, unblocked only by their event).
#include "harness/workloads/workloads.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::workloads {
namespace {

WorkloadParams Small(uint64_t seed = 1) {
  return {.nodes = 6, .initial_pods = 10, .measured_pods = 20, .seed = seed};
}

Workload MustGenerate(std::string_view shape, const WorkloadParams& p) {
  auto w = Generate(shape, p);
  EXPECT_TRUE(w.ok()) << w.message();
  return w.ok() ? std::move(*w) : Workload{};
}

// Replays the workload; returns pod key -> virtual time of its binding.
std::map<std::string, int64_t> BindTimes(const ShapeInfo& shape, const Workload& w) {
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration("1.27");
  if (!shape.config_yaml.empty()) {
    auto docs = k8s::ParseYamlDocuments(shape.config_yaml, "config");
    EXPECT_TRUE(docs.ok());
    auto config = reference::ParseSchedulerConfiguration((*docs)[0].json, "config", "1.27");
    EXPECT_TRUE(config.ok()) << config.message();
    options.config = *config;
  }
  options.epoch_unix_ns = *reference::ParseRfc3339(kStartTime);
  auto replayer = replay::Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  Outcome ok = (*replayer)->Run(w.trace.records);
  EXPECT_TRUE(ok.ok()) << ok.message();
  std::map<std::string, int64_t> bound;
  for (const trace::Record& r : (*replayer)->log().records()) {
    if (r.has_binding()) bound[r.binding().pod()] = r.time_ns();
  }
  return bound;
}

TEST(WorkloadsTest, SizesNamespacesAndTimeline) {
  Workload w = MustGenerate("SchedulingBasic", Small());
  std::map<std::string, int> kinds;
  int64_t previous = 0;
  for (const trace::Record& r : w.trace.records) {
    ASSERT_TRUE(r.has_api());
    EXPECT_GE(r.time_ns(), previous);
    previous = r.time_ns();
    if (r.api().has_node()) ++kinds["node"];
    if (r.api().has_namespace_()) ++kinds["namespace"];
    if (r.api().has_pod()) ++kinds[r.api().pod().metadata().namespace_()];
  }
  EXPECT_EQ(kinds, (std::map<std::string, int>{
                       {"namespace", 2}, {"node", 6}, {"sched-0", 10}, {"sched-1", 20}}));
  ASSERT_EQ(w.measured_pods.size(), 20u);
  EXPECT_EQ(w.measured_pods.front(), "sched-1/pod-0");
  EXPECT_EQ(w.measured_start_ns, 3'000'000'000);  // initial pods end at 1.009 s
  EXPECT_EQ(w.trace.header.labels().at("start_time"), kStartTime);
  EXPECT_EQ(w.trace.header.seed(), 1u);
}

TEST(WorkloadsTest, TemplatesCarryUpstreamValues) {
  Workload w = MustGenerate("TopologySpreading", Small());
  const k8s::Node& node = w.trace.records[2].api().node();
  EXPECT_EQ(node.status().capacity().at("cpu"), "4");
  EXPECT_EQ(node.status().capacity().at("memory"), "32Gi");
  EXPECT_EQ(node.status().capacity().at("pods"), "110");
  EXPECT_EQ(node.metadata().labels().count("topology.kubernetes.io/zone"), 1u);
  const k8s::Pod& pod = w.trace.records.back().api().pod();
  EXPECT_EQ(pod.spec().containers(0).resources().requests().at("cpu"), "100m");
  EXPECT_EQ(pod.spec().containers(0).resources().requests().at("memory"), "500Mi");
  ASSERT_EQ(pod.spec().topology_spread_constraints_size(), 1);
  EXPECT_EQ(pod.spec().topology_spread_constraints(0).max_skew(), 5);
  EXPECT_EQ(pod.spec().topology_spread_constraints(0).when_unsatisfiable(), "DoNotSchedule");
}

TEST(WorkloadsTest, SameSeedSameTraceOtherSeedOtherZones) {
  auto serialize = [](const Workload& w) {
    std::string s;
    for (const trace::Record& r : w.trace.records) s += trace::SerializeDeterministic(r);
    return s;
  };
  Workload a = MustGenerate("TopologySpreading", Small(7));
  Workload b = MustGenerate("TopologySpreading", Small(7));
  Workload c = MustGenerate("TopologySpreading", Small(8));
  EXPECT_TRUE(serialize(a) == serialize(b));
  EXPECT_FALSE(serialize(a) == serialize(c));
}

TEST(WorkloadsTest, BadParametersAreNamed) {
  auto unknown = Generate("Nope", Small());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("shape: unknown \"Nope\""), std::string::npos);
  auto nodes = Generate("SchedulingBasic", {.nodes = 0});
  ASSERT_FALSE(nodes.ok());
  EXPECT_NE(nodes.message().find("nodes: 0 is out of range"), std::string::npos);
  auto measured = Generate("SchedulingBasic", {.nodes = 1, .measured_pods = -1});
  ASSERT_FALSE(measured.ok());
  EXPECT_NE(measured.message().find("measured: -1"), std::string::npos);
}

// Every shape replays; every measured pod is bound; pods of requeue shapes only after the first
// unblocking event (which comes at least 10 s after the measured pods arrive).
TEST(WorkloadsTest, EveryShapeReplaysAndBindsItsMeasuredPods) {
  for (const ShapeInfo& shape : Shapes()) {
    SCOPED_TRACE(std::string(shape.name));
    WorkloadParams params = Small();
    // One anti-affinity pod per node: the nodes must outnumber the pods.
    if (shape.name == "SchedulingPodAntiAffinity") params.nodes = 30;
    // One 3000m high-priority pod per 4-cpu node, preempting 900m pods (upstream's 4:1 ratio).
    if (shape.name == "PreemptionBasic")
      params = {.nodes = 6, .initial_pods = 24, .measured_pods = 6};
    Workload w = MustGenerate(shape.name, params);
    std::map<std::string, int64_t> bound = BindTimes(shape, w);
    int64_t last_arrival = w.measured_start_ns + (params.measured_pods - 1) * 1'000'000;
    for (const std::string& pod : w.measured_pods) {
      ASSERT_EQ(bound.count(pod), 1u) << pod << " was not bound";
      if (!shape.perf) {
        EXPECT_GE(bound[pod], last_arrival + 10'000'000'000) << pod;
      } else if (shape.name != "PreemptionBasic") {
        EXPECT_LE(bound[pod], last_arrival) << pod;
      }
    }
    for (const auto& [pod, t] : bound) {
      EXPECT_EQ(pod.find("pod-h-"), std::string::npos) << "a 9-cpu pod fits no node: " << pod;
    }
  }
}

TEST(WorkloadsTest, MissingRegistrationWaitsForTheLeftoverFlush) {
  const ShapeInfo* shape = FindShape("RequeueMissingRegistration");
  ASSERT_NE(shape, nullptr);
  Workload w = MustGenerate(shape->name, Small());
  std::map<std::string, int64_t> bound = BindTimes(*shape, w);
  for (const std::string& pod : w.measured_pods) {
    // Rejected at about 3 s; moved by the first 30 s tick more than 300 s later.
    EXPECT_EQ(bound[pod], 330'000'000'000) << pod;
  }
}

}  // namespace
}  // namespace schedcheck::workloads
