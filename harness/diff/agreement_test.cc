// Agreement: which side's attempt matches the reference's outcome, and the line saying so.
#include "harness/diff/agreement.h"

#include <gtest/gtest.h>

namespace schedcheck::diff {
namespace {

trace::Attempt Bound(const std::string& node) {
  trace::Attempt a;
  a.set_result(trace::SCHEDULED);
  a.set_node(node);
  return a;
}

trace::Attempt Unschedulable(std::vector<std::string> plugins) {
  trace::Attempt a;
  a.set_result(trace::UNSCHEDULABLE);
  for (const std::string& p : plugins) a.add_unschedulable_plugins(p);
  return a;
}

const SideNames kNames{"baseline", "candidate"};

TEST(AgreementTest, BoundAgreesWithinTheReferencesTieSet) {
  const Placement ref{.bound = true, .node = "n2", .ties = {"n2", "n3"}, .plugins = {}};
  const trace::Attempt n1 = Bound("n1"), n3 = Bound("n3");
  EXPECT_FALSE(Agrees(ref, &n1));
  EXPECT_TRUE(Agrees(ref, &n3));
  EXPECT_FALSE(Agrees(ref, nullptr));
  const trace::Attempt u = Unschedulable({"NodeAffinity"});
  EXPECT_FALSE(Agrees(ref, &u));
  EXPECT_EQ(AgreementText("the reference (default profile)", "default/p", ref, &n1, &n3, kNames),
            "the reference (default profile) places pod default/p on n2 (ties {n2,n3}): agrees "
            "with the candidate\n");
  EXPECT_EQ(AgreementText("R", "default/p", ref, &n3, &n1, kNames),
            "R places pod default/p on n2 (ties {n2,n3}): agrees with the baseline\n");
  EXPECT_EQ(AgreementText("R", "default/p", ref, &n1, nullptr, kNames),
            "R places pod default/p on n2 (ties {n2,n3}): agrees with neither (its tie set: "
            "{n2,n3})\n");
}

TEST(AgreementTest, UnschedulableAgreesOnTheSameRejectingPlugins) {
  const Placement ref{
      .bound = false, .node = "", .ties = {}, .plugins = {"NodeAffinity", "TaintToleration"}};
  const trace::Attempt same = Unschedulable({"TaintToleration", "NodeAffinity"});
  const trace::Attempt other = Unschedulable({"NodeAffinity"});
  const trace::Attempt bound = Bound("n1");
  EXPECT_TRUE(Agrees(ref, &same));
  EXPECT_FALSE(Agrees(ref, &other));
  EXPECT_FALSE(Agrees(ref, &bound));
  EXPECT_EQ(AgreementText("R", "default/p", ref, &same, &same, kNames),
            "R finds pod default/p unschedulable by [NodeAffinity,TaintToleration]: agrees with "
            "both\n");
  EXPECT_EQ(AgreementText("R", "default/p", ref, &other, &bound, kNames),
            "R finds pod default/p unschedulable by [NodeAffinity,TaintToleration]: agrees with "
            "neither\n");
}

TEST(AgreementTest, AttemptAtIndexNamesOnlyAttempts) {
  std::vector<trace::Record> log(2);
  *log[1].mutable_attempt() = Bound("n1");
  EXPECT_EQ(AttemptAtIndex(log, -1), nullptr);
  EXPECT_EQ(AttemptAtIndex(log, 0), nullptr);
  EXPECT_EQ(AttemptAtIndex(log, 2), nullptr);
  ASSERT_NE(AttemptAtIndex(log, 1), nullptr);
  EXPECT_EQ(AttemptAtIndex(log, 1)->node(), "n1");
}

}  // namespace
}  // namespace schedcheck::diff
