// The progress line of a long replay on a terminal, so that a run of minutes is not silent: events
// delivered / total, virtual time, pods bound and events per second of wall time, redrawn in place
// on stderr at most every `min_interval_s` of wall time and erased when the replay is done, so that
// nothing of it remains in the terminal or reaches any output. The wall clock is read here only,
// through the injected `now_s` (the replayer itself stays deterministic and only reports counts).
#ifndef SCHEDCHECK_HARNESS_CLI_PROGRESS_LINE_H_
#define SCHEDCHECK_HARNESS_CLI_PROGRESS_LINE_H_

#include <functional>
#include <ostream>
#include <string>

#include "harness/replay/replayer.h"

namespace schedcheck::cli {

class ProgressLine {
 public:
  // `now_s`: a monotonic wall clock in seconds (std::chrono::steady_clock in the CLI).
  ProgressLine(std::ostream& terminal, std::function<double()> now_s, double min_interval_s = 0.5);

  // Redraws the line when `min_interval_s` passed since the last drawing (or, for the first one,
  // since construction: a short replay shows nothing); a `finished` update erases it instead.
  void Update(const replay::ReplayProgress& p);
  // Erases the line if one is shown (for an error ending the replay early).
  void Clear();

  // The line's text, without terminal control characters:
  // "replay: 12000/50000 events (24%), t=1h02m03s, 3170 pods bound, 41000 events/s".
  static std::string Format(const replay::ReplayProgress& p, double events_per_s);

 private:
  std::ostream& terminal_;
  std::function<double()> now_s_;
  double min_interval_s_;
  double start_s_;
  double last_draw_s_ = 0;
  bool drawn_ = false;
};

// True when file descriptor 2 is a terminal: where the progress line goes, unless --no-progress.
bool StderrIsTerminal();

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_PROGRESS_LINE_H_
