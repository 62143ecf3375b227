#include "harness/cli/progress_line.h"

#include <gtest/gtest.h>

#include <sstream>

namespace schedcheck::cli {
namespace {

replay::ReplayProgress At(size_t done, int64_t t_s, size_t bound, bool finished = false) {
  return {.events_done = done,
          .events_total = 1000,
          .virtual_time_ns = t_s * kNanosPerSecond,
          .pods_bound = bound,
          .finished = finished};
}

TEST(ProgressLineTest, Format) {
  EXPECT_EQ(ProgressLine::Format(At(250, 3723, 17), 41000.7),
            "replay: 250/1000 events (25%), t=1h02m03s, 17 pods bound, 41000 events/s");
  EXPECT_EQ(ProgressLine::Format(At(0, 42, 0), 0),
            "replay: 0/1000 events (0%), t=42s, 0 pods bound, 0 events/s");
  EXPECT_EQ(ProgressLine::Format(At(1000, 425, 3), 5),
            "replay: 1000/1000 events (100%), t=7m05s, 3 pods bound, 5 events/s");
  EXPECT_EQ(ProgressLine::Format(At(1, 3 * 86400 + 4 * 3600 + 5 * 60 + 6, 0), 1),
            "replay: 1/1000 events (0%), t=3d04h05m, 0 pods bound, 1 events/s");
  replay::ReplayProgress unknown_total = At(250, 42, 3);
  unknown_total.events_total = 0;  // a replay reading its trace as it goes
  EXPECT_EQ(ProgressLine::Format(unknown_total, 9),
            "replay: 250 events, t=42s, 3 pods bound, 9 events/s");
  unknown_total.input_read = 0.375;  // a binary trace read as the replay goes
  EXPECT_EQ(ProgressLine::Format(unknown_total, 9),
            "replay: 250 events (37% of the input), t=42s, 3 pods bound, 9 events/s");
}

// Drawn at most every interval of the (fake) wall clock, the first time only after one interval,
// and erased by the finished update.
TEST(ProgressLineTest, ThrottledByWallTimeAndErasedAtTheEnd) {
  double now = 100;
  std::ostringstream terminal;
  ProgressLine line(
      terminal, [&] { return now; }, 0.5);
  now = 100.2;
  line.Update(At(100, 10, 1));
  EXPECT_EQ(terminal.str(), "");  // before the first interval
  now = 100.5;
  line.Update(At(200, 20, 2));
  EXPECT_EQ(terminal.str(),
            "\r\033[Kreplay: 200/1000 events (20%), t=20s, 2 pods bound, 400 events/s");
  terminal.str("");
  now = 100.9;
  line.Update(At(300, 30, 3));
  EXPECT_EQ(terminal.str(), "");
  now = 101.0;
  line.Update(At(400, 40, 4));
  EXPECT_EQ(terminal.str(),
            "\r\033[Kreplay: 400/1000 events (40%), t=40s, 4 pods bound, 400 events/s");
  terminal.str("");
  line.Update(At(1000, 700, 9, /*finished=*/true));
  EXPECT_EQ(terminal.str(), "\r\033[K");
  terminal.str("");
  line.Clear();  // nothing shown any more
  EXPECT_EQ(terminal.str(), "");
}

TEST(ProgressLineTest, ShortReplayWritesNothing) {
  double now = 0;
  std::ostringstream terminal;
  ProgressLine line(terminal, [&] { return now; });
  now = 0.1;
  line.Update(At(1000, 5, 5));
  line.Update(At(1000, 600, 5, /*finished=*/true));
  EXPECT_EQ(terminal.str(), "");
}

}  // namespace
}  // namespace schedcheck::cli
