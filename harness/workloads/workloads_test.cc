// The generators: sizes, templates, determinism, and — replaying each shape at a small size —
// that the pods behave as the shape intends (measured pods bound, unblocked only by their event).
#include "harness/workloads/workloads.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

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
  options.compat = "1.27";
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
    // The DRA shapes need DynamicResources, which the reference does not model yet (a pod with
    // claims is rejected in PreFilter); DraShapesCarryTheControllersWrites checks their form and
    // the bench replays them through kube:1.37.
    if (shape.name.substr(0, 3) == "Dra") continue;
    WorkloadParams params = Small();
    // One anti-affinity pod per node: the nodes must outnumber the pods.
    if (shape.name == "SchedulingPodAntiAffinity") params.nodes = 30;
    // One 3000m high-priority pod per 4-cpu node, preempting 900m pods (upstream's 4:1 ratio).
    if (shape.name == "PreemptionBasic")
      params = {.nodes = 6, .initial_pods = 24, .measured_pods = 6};
    // The day shapes read `initial` as seconds between a node's updates: 10 would be 8,640
    // updates a node; their own periods keep the test small.
    if (shape.name.substr(0, 8) == "DayChurn") params.initial_pods = shape.defaults.initial_pods;
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

// The DRA shapes (compat 1.37): every node publishes its devices (one slice, or a counter set and
// a devices slice for DraPartitionable), and every pod names the template and comes after its
// claim made from it (owned by the pod) with its status naming that claim: the ResourceClaim
// controller's writes, which replay does not make.
TEST(WorkloadsTest, DraShapesCarryTheControllersWrites) {
  for (const char* name : {"DraClaimTemplate", "DraManyDevices", "DraPartitionable"}) {
    SCOPED_TRACE(name);
    const std::string shape = name;
    const ShapeInfo* info = FindShape(shape);
    ASSERT_NE(info, nullptr);
    EXPECT_FALSE(info->perf);
    Workload w = MustGenerate(shape, Small());
    EXPECT_EQ(w.trace.header.compat(), "1.37");
    std::map<std::string, int> slices_per_node;
    std::map<std::string, int> devices_per_node;
    std::set<std::string> claims;  // "ns/name" added so far
    int pods = 0, templates = 0, classes = 0;
    for (const trace::Record& r : w.trace.records) {
      const trace::ApiEvent& api = r.api();
      ASSERT_EQ(api.type(), trace::ADDED);
      if (api.has_resource_slice()) {
        const std::string node = api.resource_slice().spec().node_name();
        ++slices_per_node[node];
        devices_per_node[node] += api.resource_slice().spec().devices_size();
      } else if (api.has_resource_claim_template()) {
        ++templates;
      } else if (api.has_device_class()) {
        ++classes;
      } else if (api.has_resource_claim()) {
        const k8s::ResourceClaim& c = api.resource_claim();
        ASSERT_EQ(c.metadata().owner_references_size(), 1);
        const std::string pod = c.metadata().owner_references(0).name();
        EXPECT_EQ(c.metadata().name(), pod + "-resource");
        EXPECT_EQ(c.metadata().owner_references(0).uid(), c.metadata().namespace_() + "/" + pod);
        claims.insert(c.metadata().namespace_() + "/" + c.metadata().name());
      } else if (api.has_pod()) {
        const k8s::Pod& pod = api.pod();
        ++pods;
        ASSERT_EQ(pod.spec().resource_claims_size(), 1);
        EXPECT_EQ(pod.spec().resource_claims(0).resource_claim_template_name(),
                  "test-claim-template");
        ASSERT_EQ(pod.status().resource_claim_statuses_size(), 1);
        const std::string claim = pod.metadata().namespace_() + "/" +
                                  pod.status().resource_claim_statuses(0).resource_claim_name();
        EXPECT_EQ(claims.count(claim), 1u) << claim << " not added before its pod";
        EXPECT_EQ(pod.metadata().uid(), pod.metadata().namespace_() + "/" + pod.metadata().name());
      }
    }
    EXPECT_EQ(pods, 30);
    EXPECT_EQ(templates, 2);  // one per namespace
    EXPECT_EQ(classes, 1);
    ASSERT_EQ(slices_per_node.size(), 6u);
    const int want_devices = shape == "DraManyDevices" ? 64 : shape == "DraClaimTemplate" ? 10 : 2;
    for (const auto& [node, n] : devices_per_node) {
      EXPECT_EQ(slices_per_node[node], shape == "DraPartitionable" ? 2 : 1) << node;
      EXPECT_EQ(n, want_devices) << node;
    }
  }
}

// The volume shapes: every pod mounts its own claim, created before it (at its instant) and bound
// to a volume of the shape's kind whose claimRef points back at it; the migrated and CSI shapes
// give every node the attach limit and a CSINode; the same seed gives the same trace.
TEST(WorkloadsTest, VolumeShapesBindEveryClaimToItsOwnVolume) {
  for (const char* name :
       {"SchedulingInTreePVs", "SchedulingMigratedInTreePVs", "SchedulingCSIPVs"}) {
    SCOPED_TRACE(name);
    const std::string shape = name;
    const bool csi_nodes = shape != "SchedulingInTreePVs";
    const ShapeInfo* info = FindShape(shape);
    ASSERT_NE(info, nullptr);
    EXPECT_TRUE(info->perf);
    EXPECT_EQ(info->defaults.nodes, 5000);
    EXPECT_EQ(info->defaults.initial_pods, 5000);
    EXPECT_EQ(info->defaults.measured_pods, 1000);
    Workload w = MustGenerate(shape, Small());
    std::map<std::string, const k8s::PersistentVolumeClaim*> claims;  // "ns/name"
    std::map<std::string, const k8s::PersistentVolume*> volumes;
    std::map<std::string, const k8s::CSINode*> csi_nodes_by_name;
    std::map<std::string, int64_t> created;  // object key -> time of its ADDED event
    std::vector<const trace::Record*> pods, nodes;
    for (const trace::Record& r : w.trace.records) {
      ASSERT_EQ(r.api().type(), trace::ADDED);
      if (r.api().has_persistent_volume_claim()) {
        const k8s::PersistentVolumeClaim& c = r.api().persistent_volume_claim();
        const std::string key = c.metadata().namespace_() + "/" + c.metadata().name();
        EXPECT_TRUE(claims.emplace(key, &c).second) << key;
        created["pvc:" + key] = r.time_ns();
      } else if (r.api().has_persistent_volume()) {
        const k8s::PersistentVolume& v = r.api().persistent_volume();
        EXPECT_TRUE(volumes.emplace(v.metadata().name(), &v).second) << v.metadata().name();
        created["pv:" + v.metadata().name()] = r.time_ns();
      } else if (r.api().has_csi_node()) {
        const k8s::CSINode& n = r.api().csi_node();
        EXPECT_TRUE(csi_nodes_by_name.emplace(n.metadata().name(), &n).second);
        EXPECT_EQ(r.time_ns(), 0);
      } else if (r.api().has_pod()) {
        pods.push_back(&r);
      } else if (r.api().has_node()) {
        nodes.push_back(&r);
      }
    }
    ASSERT_EQ(pods.size(), 30u);
    EXPECT_EQ(claims.size(), 30u);
    EXPECT_EQ(volumes.size(), 30u);
    ASSERT_EQ(w.measured_pods.size(), 20u);
    for (const trace::Record* r : pods) {
      const k8s::Pod& pod = r->api().pod();
      const std::string ns = pod.metadata().namespace_();
      SCOPED_TRACE(ns + "/" + pod.metadata().name());
      ASSERT_EQ(pod.spec().volumes_size(), 1);
      const std::string claim_name = pod.spec().volumes(0).persistent_volume_claim().claim_name();
      ASSERT_FALSE(claim_name.empty());
      const std::string claim_key = ns + "/" + claim_name;
      ASSERT_EQ(claims.count(claim_key), 1u);
      const k8s::PersistentVolumeClaim& claim = *claims[claim_key];
      EXPECT_EQ(claim.status().phase(), "Bound");
      EXPECT_EQ(claim.metadata().annotations().at("pv.kubernetes.io/bind-completed"), "true");
      EXPECT_EQ(claim.spec().resources().requests().at("storage"), "1Gi");
      ASSERT_EQ(claim.spec().access_modes_size(), 1);
      EXPECT_EQ(claim.spec().access_modes(0), "ReadOnlyMany");
      const std::string volume_name = claim.spec().volume_name();
      ASSERT_EQ(volumes.count(volume_name), 1u) << volume_name;
      const k8s::PersistentVolume& volume = *volumes[volume_name];
      EXPECT_EQ(volume.status().phase(), "Bound");
      EXPECT_EQ(volume.spec().claim_ref().kind(), "PersistentVolumeClaim");
      EXPECT_EQ(volume.spec().claim_ref().namespace_(), ns);
      EXPECT_EQ(volume.spec().claim_ref().name(), claim_name);
      EXPECT_EQ(volume.spec().capacity().at("storage"), "1Gi");
      EXPECT_EQ(volume.spec().persistent_volume_reclaim_policy(), "Retain");
      if (shape == "SchedulingCSIPVs") {
        EXPECT_EQ(volume.spec().csi().driver(), "ebs.csi.aws.com");
        EXPECT_FALSE(volume.spec().csi().volume_handle().empty());
        EXPECT_FALSE(volume.spec().has_aws_elastic_block_store());
      } else {
        EXPECT_FALSE(volume.spec().aws_elastic_block_store().volume_id().empty());
        EXPECT_FALSE(volume.spec().has_csi());
      }
      // Created at the pod's instant, before it (Finish keeps the order of addition).
      EXPECT_EQ(created["pvc:" + claim_key], r->time_ns());
      EXPECT_EQ(created["pv:" + volume_name], r->time_ns());
    }
    for (size_t i = 1; i < w.trace.records.size(); ++i) {
      const trace::ApiEvent& e = w.trace.records[i].api();
      if (e.has_pod()) {
        EXPECT_TRUE(w.trace.records[i - 1].api().has_persistent_volume()) << "record " << i;
      }
    }
    ASSERT_EQ(nodes.size(), 6u);
    EXPECT_EQ(csi_nodes_by_name.size(), csi_nodes ? 6u : 0u);
    for (const trace::Record* r : nodes) {
      const k8s::Node& node = r->api().node();
      const std::string& node_name = node.metadata().name();
      SCOPED_TRACE(node_name);
      EXPECT_EQ(node.status().capacity().at("cpu"), "4");
      if (!csi_nodes) {
        EXPECT_TRUE(node.status().allocatable().empty());
        continue;
      }
      EXPECT_EQ(node.status().allocatable().at("cpu"), "4");
      EXPECT_EQ(node.status().allocatable().at("memory"), "32Gi");
      EXPECT_EQ(node.status().allocatable().at("pods"), "110");
      EXPECT_EQ(node.status().allocatable().at("attachable-volumes-csi-ebs.csi.aws.com"), "39");
      ASSERT_EQ(csi_nodes_by_name.count(node_name), 1u);
      const k8s::CSINode& csi_node = *csi_nodes_by_name[node_name];
      EXPECT_EQ(
          csi_node.metadata().annotations().at("storage.alpha.kubernetes.io/migrated-plugins"),
          shape == "SchedulingMigratedInTreePVs" ? "kubernetes.io/aws-ebs" : "");
      ASSERT_EQ(csi_node.spec().drivers_size(), 1);
      EXPECT_EQ(csi_node.spec().drivers(0).name(), "ebs.csi.aws.com");
      EXPECT_EQ(csi_node.spec().drivers(0).node_id(), node_name);
      ASSERT_TRUE(csi_node.spec().drivers(0).allocatable().has_count());
      EXPECT_EQ(csi_node.spec().drivers(0).allocatable().count(), 39);
    }

    auto serialize = [](const Workload& x) {
      std::string s;
      for (const trace::Record& r : x.trace.records) s += trace::SerializeDeterministic(r);
      return s;
    };
    EXPECT_TRUE(serialize(MustGenerate(shape, Small(7))) ==
                serialize(MustGenerate(shape, Small(7))));
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
