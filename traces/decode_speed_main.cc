// decode_speed: how fast TraceReader decodes given trace files, by wall clock and by this
// process's CPU time (steadier than the wall clock on a busy machine). A measuring tool only.
//   bazel run -c opt //traces:decode_speed -- [--reps N] [--only MODE] FILE...
// MODE (for profiling one of them): next (Next into one reused Record), borrowed (NextBorrowed)
// or fresh (Next into a new Record each time, as when records are kept).
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "traces/trace_reader.h"

namespace {

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

enum class Mode { kNext, kBorrowed, kFresh };

// Reads `path` once; returns the records read, or -1 after printing the error.
long long DecodeOnce(const std::string& path, Mode mode) {
  auto reader = schedcheck::trace::TraceReader::Open(path);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.message().c_str());
    return -1;
  }
  long long n = 0;
  schedcheck::trace::ReadStatus s;
  if (mode == Mode::kBorrowed) {
    const schedcheck::trace::Record* r = nullptr;
    while ((s = reader->NextBorrowed(&r)) == schedcheck::trace::ReadStatus::kRecord) ++n;
  } else if (mode == Mode::kNext) {
    schedcheck::trace::Record r;
    while ((s = reader->Next(&r)) == schedcheck::trace::ReadStatus::kRecord) ++n;
  } else {
    while (true) {
      schedcheck::trace::Record r;
      if ((s = reader->Next(&r)) != schedcheck::trace::ReadStatus::kRecord) break;
      ++n;
    }
  }
  if (s == schedcheck::trace::ReadStatus::kError) {
    std::fprintf(stderr, "%s\n", reader->error().c_str());
    return -1;
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  std::string only;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else {
      files.push_back(argv[i]);
    }
  }
  std::printf("%-40s %-22s %14s %14s\n", "file", "mode", "wall_events/s", "cpu_events/s");
  for (const std::string& file : files) {
    struct NamedMode {
      const char* key;
      const char* name;
      Mode mode;
    };
    for (const NamedMode& m : {NamedMode{"next", "Next", Mode::kNext},
                               NamedMode{"borrowed", "NextBorrowed", Mode::kBorrowed},
                               NamedMode{"fresh", "Next, new Record each", Mode::kFresh}}) {
      if (!only.empty() && only != m.key) continue;
      long long events = 0;
      const double wall0 = WallSeconds(), cpu0 = CpuSeconds();
      for (int rep = 0; rep < reps; ++rep) {
        const long long n = DecodeOnce(file, m.mode);
        if (n < 0) return 1;
        events += n;
      }
      const double wall = WallSeconds() - wall0, cpu = CpuSeconds() - cpu0;
      std::printf("%-40s %-22s %14.0f %14.0f\n", file.c_str(), m.name, events / wall, events / cpu);
    }
  }
  return 0;
}
