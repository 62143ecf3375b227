// `schedcheck explain` follows the compatibility level it is given: the same tainted node is
// explained with v1.27's and with v1.37's TaintToleration message, and an unknown level is an
// error naming the flag.
#include "harness/cli/explain_command.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

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

}  // namespace
}  // namespace schedcheck::cli
