#include "harness/cli/progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace schedcheck::cli {
namespace {

constexpr char kEraseLine[] = "\r\033[K";  // carriage return, then erase to the end of the line

// "42s", "7m05s", "1h02m03s", "3d04h05m".
std::string Duration(int64_t ns) {
  int64_t s = ns / kNanosPerSecond;
  char buf[64];
  if (s < 60) {
    std::snprintf(buf, sizeof(buf), "%llds", static_cast<long long>(s));
  } else if (s < 3600) {
    std::snprintf(buf, sizeof(buf), "%lldm%02llds", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  } else if (s < 86400) {
    std::snprintf(buf, sizeof(buf), "%lldh%02lldm%02llds", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%lldd%02lldh%02lldm", static_cast<long long>(s / 86400),
                  static_cast<long long>(s / 3600 % 24), static_cast<long long>(s / 60 % 60));
  }
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& terminal, std::function<double()> now_s,
                           double min_interval_s)
    : terminal_(terminal),
      now_s_(std::move(now_s)),
      min_interval_s_(min_interval_s),
      start_s_(now_s_()) {}

std::string ProgressLine::Format(const replay::ReplayProgress& p, double events_per_s) {
  // A replay reading its trace as it goes does not know the total (events_total 0).
  std::string events = std::to_string(p.events_done);
  if (p.events_total > 0) {
    events += "/" + std::to_string(p.events_total) + " events (" +
              std::to_string(p.events_done * 100 / p.events_total) + "%)";
  } else if (p.input_read >= 0) {
    events +=
        " events (" + std::to_string(static_cast<int>(p.input_read * 100)) + "% of the input)";
  } else {
    events += " events";
  }
  return "replay: " + events + ", t=" + Duration(p.virtual_time_ns) + ", " +
         std::to_string(p.pods_bound) + " pods bound, " +
         std::to_string(static_cast<long long>(events_per_s)) + " events/s";
}

void ProgressLine::Update(const replay::ReplayProgress& p) {
  if (p.finished) return Clear();
  const double now = now_s_();
  // A replay shorter than the interval shows nothing.
  if (now - (drawn_ ? last_draw_s_ : start_s_) < min_interval_s_) return;
  const double elapsed = now - start_s_;
  const double rate = elapsed > 0 ? static_cast<double>(p.events_done) / elapsed : 0;
  terminal_ << kEraseLine << Format(p, rate) << std::flush;
  drawn_ = true;
  last_draw_s_ = now;
}

void ProgressLine::Clear() {
  if (!drawn_) return;
  terminal_ << kEraseLine << std::flush;
  drawn_ = false;
}

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace schedcheck::cli
