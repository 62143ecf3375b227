// Replayer::Run over a record source (the replay command reading a binary trace as it goes) makes
// the decisions Run over the whole trace makes, and stops on the source's errors and on bad times
// with Run's wording.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "harness/workloads/workloads.h"

namespace schedcheck::replay {
namespace {

std::unique_ptr<Replayer> NewReplayer() {
  ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  return std::move(*replayer);
}

// Hands out copies of `records`, then the end (or `error` after `fail_after` records).
Replayer::RecordSource Source(const std::vector<trace::Record>& records, size_t* handed,
                              size_t fail_after = SIZE_MAX) {
  return [&records, handed, fail_after](trace::Record* record) -> Result<bool> {
    if (*handed == fail_after) return Error{"input: byte 99: truncated"};
    if (*handed == records.size()) return false;
    *record = records[(*handed)++];
    return true;
  };
}

std::vector<std::string> Lines(const std::vector<trace::Record>& log) {
  std::vector<std::string> out;
  for (const trace::Record& r : log) out.push_back(r.ShortDebugString());
  return out;
}

TEST(StreamingReplayTest, SameDecisionsAsTheWholeTrace) {
  // Churn: many instants, several events at some of them, deletions and node updates.
  for (const char* shape : {"MixedChurn", "PreemptionBasic", "Unschedulable"}) {
    SCOPED_TRACE(shape);
    auto w = workloads::Generate(shape, {.nodes = 20, .initial_pods = 30, .measured_pods = 40});
    ASSERT_TRUE(w.ok()) << w.message();
    const std::vector<trace::Record>& records = w->trace.records;
    auto whole = NewReplayer();
    ASSERT_TRUE(whole->Run(records));
    auto streamed = NewReplayer();
    size_t handed = 0;
    Outcome ok = streamed->Run(Source(records, &handed), records.size());
    ASSERT_TRUE(ok) << ok.message();
    EXPECT_EQ(handed, records.size());
    ASSERT_GT(whole->log().records().size(), records.size() / 2);
    EXPECT_EQ(Lines(streamed->log().records()), Lines(whole->log().records()));
  }
}

TEST(StreamingReplayTest, TheSourcesErrorEndsTheReplay) {
  auto w =
      workloads::Generate("SchedulingBasic", {.nodes = 5, .initial_pods = 5, .measured_pods = 5});
  ASSERT_TRUE(w.ok()) << w.message();
  auto replayer = NewReplayer();
  size_t handed = 0;
  Outcome ok = replayer->Run(Source(w->trace.records, &handed, 7), 0);
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.message(), "input: byte 99: truncated");
  EXPECT_EQ(handed, 7u);
}

TEST(StreamingReplayTest, TimeGoingBackwardsIsNamedAsRunNamesIt) {
  auto w =
      workloads::Generate("SchedulingBasic", {.nodes = 3, .initial_pods = 2, .measured_pods = 2});
  ASSERT_TRUE(w.ok()) << w.message();
  std::vector<trace::Record> records = w->trace.records;
  ASSERT_GT(records.size(), 6u);
  records[6].set_time_ns(records[5].time_ns() - 1);
  auto whole = NewReplayer();
  Outcome want = whole->Run(records);
  ASSERT_FALSE(want);
  EXPECT_NE(want.message().find("record 6: time goes backwards"), std::string::npos)
      << want.message();
  auto streamed = NewReplayer();
  size_t handed = 0;
  Outcome got = streamed->Run(Source(records, &handed), 0);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.message(), want.message());
}

}  // namespace
}  // namespace schedcheck::replay
