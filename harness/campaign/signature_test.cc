// Signatures: the same kind of finding on other names and numbers falls together; another class,
// plugin or outcome does not.
#include "harness/campaign/signature.h"

#include "gtest/gtest.h"

namespace schedcheck::campaign {
namespace {

TEST(Shape, StripsNumberedWordsAndThePod) {
  EXPECT_EQ(Shape("bound to n3"), "bound to #");
  EXPECT_EQ(Shape("0/3 nodes are available: 1 Insufficient cpu."),
            "# nodes are available: # Insufficient cpu.");
  EXPECT_EQ(Shape("pod default/web-7 preempted victims [default/web-7]", "default/web-7"),
            "pod <pod> preempted victims [<pod>]");
  EXPECT_EQ(Shape("node n1: taint"), "node #: taint");
  EXPECT_EQ(Shape("unschedulable"), "unschedulable");
}

diff::Divergence Hard(const std::string& pod, const std::string& a, const std::string& b) {
  diff::Divergence d;
  d.cls = diff::DivergenceClass::kHard;
  d.pod = pod;
  d.what = "outcome";
  d.reference = a;
  d.candidate = b;
  d.plugins = {"NodeResourcesFit"};
  return d;
}

TEST(DivergenceSignature, GroupsByShapeNotByName) {
  const std::string a = DivergenceSignature(
      Hard("default/p1", "bound to n2", "unschedulable: 0/3 nodes are available"));
  const std::string b = DivergenceSignature(
      Hard("other/p7", "bound to n0", "unschedulable: 0/5 nodes are available"));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, "hard outcome [NodeResourcesFit] bound to # | unschedulable: # nodes are available");
  diff::Divergence other_plugin = Hard("default/p1", "bound to n2", "unschedulable: 0/3 nodes");
  other_plugin.plugins = {"TaintToleration"};
  EXPECT_NE(DivergenceSignature(other_plugin),
            DivergenceSignature(Hard("default/p1", "bound to n2", "unschedulable: 0/3 nodes")));
  diff::Divergence requeue = Hard("default/p1", "bound to n2", "unschedulable: 0/3 nodes");
  requeue.cls = diff::DivergenceClass::kRequeue;
  EXPECT_NE(DivergenceSignature(requeue),
            DivergenceSignature(Hard("default/p1", "bound to n2", "unschedulable: 0/3 nodes")));
}

TEST(CrashSignature, FirstLineShaped) {
  EXPECT_EQ(CrashSignature("candidate", "exec:x: the child exited with status 3\nlog follows"),
            "crash candidate: exec:x: the child exited with status #");
  EXPECT_NE(CrashSignature("baseline", "timed out"), CrashSignature("candidate", "timed out"));
}

}  // namespace
}  // namespace schedcheck::campaign
