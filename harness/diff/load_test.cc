// LoadDecisions refuses what it must not compare: an incomplete log in each form, and a log whose
// bindings contradict its attempts, naming the file, the pod and the record.
#include "harness/diff/load.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "traces/trace_writer.h"

namespace schedcheck::diff {
namespace {

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

constexpr char kScheduled[] =
    R"({"t":1,"type":"attempt","pod":"default/p","attempt":1,"result":"Scheduled","node":"n1","ties":["n1"]})"
    "\n";
constexpr char kBound[] = R"({"t":1,"type":"bind","pod":"default/p","node":"n1"})"
                          "\n";

trace::Record Scheduled(const std::string& pod, const std::string& node) {
  trace::Record r;
  r.set_time_ns(1'000'000'000);
  r.mutable_attempt()->set_pod(pod);
  r.mutable_attempt()->set_attempt(1);
  r.mutable_attempt()->set_result(trace::SCHEDULED);
  r.mutable_attempt()->set_node(node);
  return r;
}

trace::Record Bound(const std::string& pod, const std::string& node) {
  trace::Record r;
  r.set_time_ns(1'000'000'000);
  r.mutable_binding()->set_pod(pod);
  r.mutable_binding()->set_node(node);
  return r;
}

std::string Refusal(const std::string& path) {
  auto r = LoadDecisions(path);
  return r.ok() ? "accepted" : r.message();
}

TEST(LoadTest, ACompleteLogIsAcceptedInEachForm) {
  Write(Tmp("ok.jsonl"), std::string(kScheduled) + kBound);
  EXPECT_EQ(Refusal(Tmp("ok.jsonl")), "accepted");
  trace::Trace t;
  t.header.set_compat("1.37");
  t.records = {Scheduled("default/p", "n1"), Bound("default/p", "n1")};
  ASSERT_TRUE(trace::WriteTrace(Tmp("ok.bin"), t).ok());
  std::string level;
  auto r = LoadDecisions(Tmp("ok.bin"), {}, &level);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->size(), 2u);
  EXPECT_EQ(level, "1.37");
}

TEST(LoadTest, AnIncompleteLogIsRefusedInEachForm) {
  // JSON Lines: the "incomplete" line the replay writes when its scheduler process failed.
  Write(
      Tmp("cut.jsonl"),
      std::string(kScheduled) + kBound +
          R"({"t":1,"type":"incomplete","reason":"the child exited with status 1","decisions":2})" +
          "\n");
  EXPECT_EQ(Refusal(Tmp("cut.jsonl")),
            Tmp("cut.jsonl") +
                ":3: the decision log is incomplete (the child exited with status 1): the run did "
                "not finish, so its decisions are not compared");
  // Binary (replay -o): the header label "incomplete".
  trace::Trace t;
  (*t.header.mutable_labels())["incomplete"] = "the child exited with status 1";
  t.records = {Scheduled("default/p", "n1"), Bound("default/p", "n1")};
  ASSERT_TRUE(trace::WriteTrace(Tmp("cut.bin"), t).ok());
  const std::string want =
      ": the decision log is incomplete (header label incomplete: the child exited with status "
      "1): the run did not finish, so its decisions are not compared";
  EXPECT_EQ(Refusal(Tmp("cut.bin")), Tmp("cut.bin") + want);
  // The JSON Lines form of that trace (trace cat).
  Write(
      Tmp("cut-trace.jsonl"),
      R"({"header":{"formatVersion":1,"labels":{"incomplete":"the child exited with status 1"}}})"
      "\n"
      R"({"attempt":{"pod":"default/p","attempt":1,"result":"SCHEDULED","node":"n1"},"timeNs":"1"})"
      "\n");
  EXPECT_EQ(Refusal(Tmp("cut-trace.jsonl")), Tmp("cut-trace.jsonl") + want);
}

TEST(LoadTest, BindingsThatContradictTheAttemptsAreRefused) {
  // A bind naming a node the attempt did not choose (here one that exists nowhere).
  Write(
      Tmp("other-node.jsonl"),
      std::string(kScheduled) + R"({"t":2,"type":"bind","pod":"default/p","node":"ghost"})" + "\n");
  EXPECT_EQ(Refusal(Tmp("other-node.jsonl")),
            Tmp("other-node.jsonl") + ":2: pod default/p is bound to ghost, but its attempt 1 (" +
                Tmp("other-node.jsonl") +
                ":1) scheduled it to n1: the log's bindings contradict its attempts, so it is not "
                "compared");
  // A bind of a pod no attempt scheduled.
  Write(Tmp("no-attempt.jsonl"), std::string(kScheduled) + kBound +
                                     R"({"t":2,"type":"bind","pod":"default/q","node":"n1"})" +
                                     "\n");
  EXPECT_EQ(Refusal(Tmp("no-attempt.jsonl"))
                .rfind(Tmp("no-attempt.jsonl") + ":3: pod default/q is bound to n1 at t=2, but "
                                                 "no attempt before it scheduled the pod",
                       0),
            0u)
      << Refusal(Tmp("no-attempt.jsonl"));
  // Scheduled pods but no bind record at all (the binds stripped from a log).
  Write(
      Tmp("no-binds.jsonl"),
      std::string("\n") + kScheduled +
          R"({"t":2,"type":"attempt","pod":"default/q","attempt":1,"result":"Scheduled","node":"n2"})" +
          "\n");
  EXPECT_EQ(
      Refusal(Tmp("no-binds.jsonl"))
          .rfind(Tmp("no-binds.jsonl") +
                     ":2: pod default/p was scheduled to n1, but the log has no bind record at all "
                     "(2 scheduled pod(s) never bound)",
                 0),
      0u)
      << Refusal(Tmp("no-binds.jsonl"));
  // The binary form names the record's position in the file.
  trace::Trace t;
  t.records = {Scheduled("default/p", "n1"), Bound("default/p", "n9")};
  ASSERT_TRUE(trace::WriteTrace(Tmp("other-node.bin"), t).ok());
  EXPECT_EQ(Refusal(Tmp("other-node.bin"))
                .rfind(Tmp("other-node.bin") +
                           ": record 2: pod default/p is bound to n9, but "
                           "its attempt 1 (" +
                           Tmp("other-node.bin") + ": record 1)",
                       0),
            0u)
      << Refusal(Tmp("other-node.bin"));
}

TEST(LoadTest, WhatAReplayDoesWriteIsAccepted) {
  // A failed binding cycle (Scheduled, then Error), a pod still binding at the end of the log,
  // a pod bound twice (deleted and created again), and a capture's observed bind without any
  // attempt.
  Write(
      Tmp("replay.jsonl"),
      std::string(kScheduled) + kBound +
          R"({"t":2,"type":"attempt","pod":"default/v","attempt":1,"result":"Scheduled","node":"n1"})"
          "\n"
          R"({"t":2,"type":"attempt","pod":"default/v","attempt":1,"result":"Error","message":"m"})"
          "\n"
          R"({"t":3,"type":"attempt","pod":"default/p","attempt":1,"result":"Scheduled","node":"n2"})"
          "\n"
          R"({"t":3,"type":"bind","pod":"default/p","node":"n2"})"
          "\n"
          R"({"t":4,"type":"attempt","pod":"default/w","attempt":1,"result":"Scheduled","node":"n2"})"
          "\n");
  EXPECT_EQ(Refusal(Tmp("replay.jsonl")), "accepted");
  EXPECT_EQ(Refusal("harness/diff/testdata/capture.jsonl"), "accepted");
}

}  // namespace
}  // namespace schedcheck::diff
