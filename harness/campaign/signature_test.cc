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

TEST(CrashSignature, HowTheChildFailedNotTheWording) {
  // One crash, two wordings depending on which end of the pipe the client saw close first.
  const std::string a =
      "candidate exec:exit 3: scheduler command `exit 3`: request 1 (Hello): the child closed its "
      "stdin: the child exited with status 3 (it stopped on an error of its own)";
  const std::string b =
      "candidate exec:exit 3: scheduler command `exit 3`: request 1 (Hello): stdout ended before "
      "an answer; the child exited with status 3 (it stopped on an error of its own)";
  EXPECT_EQ(CrashSignature("candidate", a), "crash candidate at Hello: exited with status 3");
  EXPECT_EQ(CrashSignature("candidate", a), CrashSignature("candidate", b));
  EXPECT_EQ(CrashCause("request 4 (Events at t=10 s, trace record 8): the child was killed by "
                       "signal 11 (SIGSEGV: it crashed)"),
            "at Events: killed by signal 11");
  EXPECT_EQ(CrashCause("request 2 (Events at t=0 s): no answer within 30 s"),
            "at Events: no answer in time");
  EXPECT_EQ(CrashCause("replay failed at record 12: bad pod\nmore"),
            "replay failed at record #: bad pod");
  EXPECT_NE(CrashSignature("baseline", a), CrashSignature("candidate", a));
  EXPECT_NE(CrashSignature("candidate", a),
            CrashSignature("candidate", "request 1 (Hello): the child exited with status 2"));
}

}  // namespace
}  // namespace schedcheck::campaign
