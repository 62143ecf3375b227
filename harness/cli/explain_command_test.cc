// `schedcheck explain` follows the compatibility level it is given: the same tainted node is
// explained with v1.27's and with v1.37's TaintToleration message, and an unknown level is an
// error naming the flag. Storage objects in the cluster reach the volume plugins. Every error names
// the file it comes from.
#include "harness/cli/explain_command.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>

namespace schedcheck::cli {
namespace {

std::string Write(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string NodeStatus(const std::string& compat) {
  ExplainOptions o;
  o.cluster = {Write("cluster.yaml",
                     "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
                     "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n"
                     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n")};
  o.pod = Write("pod.yaml",
                "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                "spec: {containers: [{name: c}]}\n");
  o.compat = compat;
  auto e = Explain(o);
  EXPECT_TRUE(e.ok()) << e.message();
  return e.ok() ? (*e)["nodes"][0]["status"].dump() : "";
}

TEST(ExplainCommandTest, FollowsTheCompatibilityLevel) {
  EXPECT_NE(NodeStatus("1.27").find("node(s) had untolerated taint {dedicated: gpu}"),
            std::string::npos)
      << NodeStatus("1.27");
  EXPECT_NE(NodeStatus("1.37").find("node(s) had untolerated taint(s)"), std::string::npos)
      << NodeStatus("1.37");
  ExplainOptions o;
  o.cluster = {Write("c.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")};
  o.pod = Write("p.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
  o.compat = "1.35";
  auto e = Explain(o);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.message().find("--compat 1.35"), std::string::npos) << e.message();
}

// Storage objects in the cluster reach the volume plugins: a claim bound to a PV pinned to n2 keeps
// the pod off n1 (VolumeBinding's node affinity conflict, worded per level), and without the
// claim the pod is rejected in PreFilter.
TEST(ExplainCommandTest, ReadsStorageObjects) {
  const std::string nodes =
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
      "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\n"
      "apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
      "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n";
  const std::string storage =
      "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv, resourceVersion: '1'}\n"
      "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce],\n"
      "  claimRef: {namespace: default, name: data, uid: u1},\n"
      "  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions:\n"
      "    [{key: kubernetes.io/hostname, operator: In, values: [n2]}]}]}}}\n"
      "status: {phase: Bound}\n---\n"
      "apiVersion: v1\nkind: PersistentVolumeClaim\n"
      "metadata: {name: data, namespace: default, uid: u1, resourceVersion: '2',\n"
      "  annotations: {pv.kubernetes.io/bind-completed: 'yes'}}\n"
      "spec: {accessModes: [ReadWriteOnce], volumeName: pv, resources: {requests: {storage: "
      "1Gi}}}\n"
      "status: {phase: Bound}\n";
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
      "spec: {containers: [{name: c}], volumes: [{name: d, persistentVolumeClaim: "
      "{claimName: data}}]}\n";
  for (const auto& [compat, conflict] :
       {std::pair{"1.27", "node(s) had volume node affinity conflict"},
        std::pair{"1.37", "node(s) didn't match PersistentVolume's node affinity"}}) {
    ExplainOptions o;
    o.cluster = {Write("storage-cluster.yaml", nodes + "---\n" + storage)};
    o.pod = Write("storage-pod.yaml", pod);
    o.compat = compat;
    auto e = Explain(o);
    ASSERT_TRUE(e.ok()) << e.message();
    const std::string text = e->dump();
    EXPECT_NE(text.find(conflict), std::string::npos) << compat << ": " << text;
    o.cluster = {Write("storage-cluster-no-claim.yaml", nodes)};
    auto missing = Explain(o);
    ASSERT_TRUE(missing.ok()) << missing.message();
    EXPECT_EQ((*missing)["preFilter"]["reasons"][0], "persistentvolumeclaim \"data\" not found")
        << compat << ": " << missing->dump();
  }
}

// Errors found after the manifests are read (a bad node quantity, a node given twice, plugin args
// the plugin refuses) name the file and line of the object, or the configuration file.
TEST(ExplainCommandTest, ErrorsNameTheFile) {
  const std::string node = "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\n";
  const std::string good = Write("good.yaml", node);
  ExplainOptions o;
  o.pod = Write("errors-pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
  o.compat = "1.37";
  auto message = [&o] {
    auto e = Explain(o);
    return e.ok() ? std::string("accepted") : e.message();
  };
  const std::string nan =
      Write("nan.yaml", node +
                            "---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n"
                            "status: {allocatable: {cpu: 'NaN'}}\n");
  o.cluster = {nan};
  EXPECT_EQ(message(), nan +
                           ": line 5: nodes[1] (b): status.allocatable.cpu: invalid quantity "
                           "\"NaN\": no digits");
  const std::string again = Write("again.yaml", "# the same node\n" + node);
  o.cluster = {good, again};
  EXPECT_EQ(message(), again + ": line 2: nodes[1] (node-a): node \"node-a\" already exists (" +
                           good + ": line 1: nodes[0])");
  o.cluster = {good};
  o.config = Write("bad-args.yaml",
                   "apiVersion: kubescheduler.config.k8s.io/v1\n"
                   "kind: KubeSchedulerConfiguration\n"
                   "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n"
                   "  - name: NodeResourcesFit\n"
                   "    args: {scoringStrategy: {type: LeastAllocated, req: 1}}\n");
  EXPECT_EQ(message().rfind(o.config + ": profile \"default-scheduler\": plugin "
                                       "\"NodeResourcesFit\": ",
                            0),
            0u)
      << message();
}

}  // namespace
}  // namespace schedcheck::cli
