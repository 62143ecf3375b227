#include "reference/accel/fit_error_text.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace schedcheck::reference {
namespace {

TEST(FastFitErrorMessage, CountsSharedAndEqualReasonListsAlike) {
  const Status cpu(Code::kUnschedulable, std::vector<std::string>{"Insufficient cpu"});
  Diagnosis d;
  d.node_to_status["a"] = cpu;  // two copies share one list
  d.node_to_status["b"] = cpu;
  d.node_to_status["c"] = Status(
      Code::kUnschedulable, std::vector<std::string>{"Insufficient cpu", "Insufficient memory"});
  d.node_to_status["d"] = Status(Code::kUnschedulableAndUnresolvable,
                                 "node(s) didn't match Pod's node affinity/selector");
  d.post_filter_msg = "preemption: 0/4 nodes are available";
  const std::string want =
      "0/4 nodes are available: 1 Insufficient memory, 1 node(s) didn't match Pod's node "
      "affinity/selector, 3 Insufficient cpu. preemption: 0/4 nodes are available.";
  EXPECT_EQ(FitErrorMessage(4, d), want);
  EXPECT_EQ(FastFitErrorMessage(4, d), want);
}

// Statuses destroyed right after they are counted: the allocator hands their lists' addresses to
// the next ones, which must still count under their own reasons.
TEST(ReasonCounter, CountsStatusesGoneAfterwards) {
  ReasonCounter counter;
  for (int i = 0; i < 50; ++i) {
    const Status status(Code::kUnschedulable, "reason " + std::to_string(i % 5));
    counter.Add(status);
  }
  std::map<std::string, int> want;
  for (int i = 0; i < 5; ++i) want["reason " + std::to_string(i)] = 10;
  EXPECT_EQ(counter.ReasonCounts(), want);
}

TEST(FastFitErrorMessage, PreFilterMessageAsThePlainOne) {
  Diagnosis d;
  d.pre_filter_msg = "node(s) didn't satisfy plugin(s) [NodeAffinity]";
  d.node_to_status["a"] = Status(Code::kUnschedulableAndUnresolvable, d.pre_filter_msg);
  EXPECT_EQ(FastFitErrorMessage(1, d), FitErrorMessage(1, d));
}

// Random diagnoses: statuses drawn from a few shared ones, fresh ones with equal text, several
// reasons per status and statuses without reasons.
RC_GTEST_PROP(FastFitErrorMessage, EqualsThePlainText, ()) {
  const std::vector<std::string> texts = {
      "Insufficient cpu", "Insufficient memory", "node(s) had untolerated taint {a: b}",
      "node(s) didn't have free ports for the requested pod ports"};
  auto reasons_gen = rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(texts));
  std::vector<Status> shared;
  const int num_shared = *rc::gen::inRange(1, 4);
  for (int i = 0; i < num_shared; ++i) {
    shared.emplace_back(Code::kUnschedulable, *reasons_gen);
  }
  Diagnosis d;
  const int nodes = *rc::gen::inRange(0, 60);
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "n" + std::to_string(i);
    if (*rc::gen::arbitrary<bool>()) {
      d.node_to_status[name] = shared[*rc::gen::inRange<size_t>(0, shared.size())];
    } else {
      d.node_to_status[name] = Status(Code::kUnschedulable, *reasons_gen);
    }
  }
  if (*rc::gen::arbitrary<bool>()) d.post_filter_msg = "preemption: not helpful";
  d.post_filter_msg_verbatim = *rc::gen::arbitrary<bool>();  // v1.37's form
  RC_ASSERT(FastFitErrorMessage(nodes, d) == FitErrorMessage(nodes, d));
}

}  // namespace
}  // namespace schedcheck::reference
