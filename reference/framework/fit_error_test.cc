#include "reference/framework/fit_error.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(FitErrorMessageTest, HistogramSortedAsStrings) {
  Diagnosis d;
  for (int i = 0; i < 10; ++i)
    d.node_to_status["a" + std::to_string(i)] = Status(Code::kUnschedulable, "x");
  d.node_to_status["b"] =
      Status(Code::kUnschedulable, std::vector<std::string>{"y", "Insufficient cpu"});
  d.node_to_status["c"] = Status(Code::kUnschedulable, "y");
  EXPECT_EQ(FitErrorMessage(12, d), "0/12 nodes are available: 1 Insufficient cpu, 10 x, 2 y.");
  d.post_filter_msg =
      "preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.";
  EXPECT_EQ(FitErrorMessage(12, d),
            "0/12 nodes are available: 1 Insufficient cpu, 10 x, 2 y. preemption: 0/12 nodes are "
            "available: "
            "12 Preemption is not helpful for scheduling..");
  Diagnosis pre;
  pre.pre_filter_msg = "pod affinity terms conflict";
  pre.node_to_status["n"] =
      Status(Code::kUnschedulableAndUnresolvable, "pod affinity terms conflict");
  EXPECT_EQ(FitErrorMessage(3, pre), "0/3 nodes are available: pod affinity terms conflict.");
}

}  // namespace
}  // namespace schedcheck::reference
