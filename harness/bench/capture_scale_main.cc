// The scale of a real capture, the size users bring: a generated day of a large cluster (DayChurn:
// 5,000 nodes, 24 h, about a million API events by default) is replayed once by the reference and
// written as a watch-stream capture with those decisions as the cluster's (harness/bench/
// watch_capture.h). Then the pipeline a user runs on a capture is timed, each step as its own
// `schedcheck` process (wall and CPU time, peak RSS from wait4):
//   schedcheck import --from watch capture.json -o capture.trace
//   schedcheck replay capture.trace -o replay.trace --quiet
//   schedcheck diff replay.trace capture.trace
// The capture's decisions are the reference's own, so the diff must find them equivalent: the
// bench exits 1 otherwise (and 2 when a step fails).
//
//   bazel run -c opt //harness/bench:capture_scale -- [--shape DayChurn|DayChurnLarge] [--nodes N]
//       [--pods N] [--update-period S] [--seed N] [--dir DIR] [--keep]
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "harness/bench/external.h"
#include "harness/bench/watch_capture.h"
#include "harness/replay/replayer.h"
#include "harness/workloads/workloads.h"
#include "reference/api/rfc3339.h"
#include "reference/runtime/profile.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace bench = schedcheck::bench;

struct Step {
  std::string name;
  std::vector<std::string> argv;
  size_t events = 0;  // what the step processes, for events/s
  double wall_s = 0, cpu_s = 0;
  long max_rss_kib = 0;
  int exit_code = -1;
  std::string output;  // the first line it printed
};

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Records in a binary trace, read one at a time (nothing kept: this process must stay small).
size_t CountRecords(const std::string& path) {
  auto reader = schedcheck::trace::TraceReader::Open(path);
  if (!reader.ok()) return 0;
  size_t n = 0;
  const schedcheck::trace::Record* r = nullptr;
  while (reader->NextBorrowed(&r) == schedcheck::trace::ReadStatus::kRecord) ++n;
  return n;
}

// Binding records in a binary decision trace: the pods a replay placed.
size_t CountBindings(const std::string& path) {
  auto reader = schedcheck::trace::TraceReader::Open(path);
  if (!reader.ok()) return 0;
  size_t n = 0;
  const schedcheck::trace::Record* r = nullptr;
  while (reader->NextBorrowed(&r) == schedcheck::trace::ReadStatus::kRecord) {
    n += r->has_binding() ? 1 : 0;
  }
  return n;
}

// VmRSS of this process, MiB.
long ResidentMib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6) / 1024;
  }
  return -1;
}

// Runs argv with stdout into `out_path`; fills the times, peak RSS and exit code.
void Run(Step* step, const std::string& out_path) {
  std::cout.flush();  // or the child inherits the buffered lines and prints them again
  const Clock::time_point start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(out_path.c_str(), "w", stdout);
    if (f == nullptr) _exit(127);
    std::vector<char*> args;
    for (std::string& a : step->argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || wait4(pid, &status, 0, &usage) < 0) return;
  step->wall_s = Seconds(start, Clock::now());
  step->cpu_s = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
                usage.ru_stime.tv_usec / 1e6;
  step->max_rss_kib = usage.ru_maxrss;
  step->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(out_path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && step->output.empty()) step->output = line;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Capture-scale bench: import, replay and diff a generated day of a large cluster"};
  std::string shape = "DayChurn";
  std::optional<int64_t> nodes, pods, update_period;
  uint64_t seed = 1;
  std::string dir, candidate = "kube:1.37";
  double kube_slice_s = 0;
  bool keep = false;
  app.add_option("--shape", shape,
                 "DayChurn (default: 5000 nodes, 150000 pods, updates every 780 s) or "
                 "DayChurnLarge (100000 nodes, 1000000 pods, every 7200 s; zones, racks, sizes, "
                 "taints, GPUs)");
  app.add_option("--nodes", nodes, "nodes (default: the shape's)");
  app.add_option("--pods", pods, "pods arriving over the day (default: the shape's)");
  app.add_option("--update-period", update_period,
                 "seconds between a node's label updates (default: the shape's)");
  app.add_option("--seed", seed, "seed of the generator (default 1)");
  app.add_option("--kube-slice", kube_slice_s,
                 "also replay the day's first SECONDS (the whole cluster, the pods of that "
                 "while) by the reference and by --candidate, each its own process at level 1.37, "
                 "for the pods/s ratio and a diff (default 0: not run)");
  app.add_option("--candidate", candidate,
                 "the real scheduler beside for --kube-slice (default kube:1.37)");
  app.add_option("--dir", dir, "scratch folder (default: a new one under $TMPDIR or /tmp)");
  app.add_flag("--keep", keep, "keep the scratch folder");
  CLI11_PARSE(app, argc, argv);
  const schedcheck::workloads::ShapeInfo* info = schedcheck::workloads::FindShape(shape);
  if (info == nullptr || (shape != "DayChurn" && shape != "DayChurnLarge")) {
    std::cerr << "capture_scale: --shape " << shape << ": DayChurn or DayChurnLarge\n";
    return 2;
  }
  schedcheck::workloads::WorkloadParams params = info->defaults;
  params.nodes = nodes.value_or(params.nodes);
  params.measured_pods = pods.value_or(params.measured_pods);
  params.initial_pods = update_period.value_or(params.initial_pods);
  params.seed = seed;

  const std::string schedcheck = bench::FindSchedcheck();
  if (schedcheck.empty()) {
    std::cerr << "capture_scale: schedcheck not found (bazel build //harness/cli:schedcheck)\n";
    return 2;
  }
  if (dir.empty()) {
    std::string tmpl = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                       "/schedcheck-capture-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::cerr << "capture_scale: cannot create a scratch folder under " << tmpl << "\n";
      return 2;
    }
    dir = tmpl;
  }
  std::filesystem::create_directories(dir);

  // 1. The truth: the workload replayed once by the reference, in process (not timed as a step).
  const Clock::time_point gen_start = Clock::now();
  auto workload = schedcheck::workloads::Generate(shape, params);
  if (!workload.ok()) {
    std::cerr << "capture_scale: " << workload.message() << "\n";
    return 2;
  }
  schedcheck::replay::ReplayOptions options;
  options.compat = "1.27";
  options.config = schedcheck::reference::DefaultConfiguration("1.27");
  options.epoch_unix_ns = *schedcheck::reference::ParseRfc3339(schedcheck::workloads::kStartTime);
  std::vector<schedcheck::trace::Record> decisions;  // bindings and failed attempts (without ties)
  options.retain_log = false;
  options.on_record = [&decisions](const schedcheck::trace::Record& r) {
    if (r.has_binding() ||
        (r.has_attempt() && r.attempt().result() == schedcheck::trace::UNSCHEDULABLE)) {
      decisions.push_back(r);
      if (decisions.back().has_attempt()) decisions.back().mutable_attempt()->clear_ties();
    }
  };
  auto replayer = schedcheck::replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) {
    std::cerr << "capture_scale: " << replayer.message() << "\n";
    return 2;
  }
  if (auto ok = (*replayer)->Run(workload->trace.records); !ok) {
    std::cerr << "capture_scale: replaying the workload: " << ok.message() << "\n";
    return 2;
  }
  // The slice for the real scheduler: every record before the slice's end, as generated.
  const std::string slice = dir + "/slice.trace";
  if (kube_slice_s > 0) {
    schedcheck::trace::Trace part;
    part.header = workload->trace.header;
    const auto end_ns = static_cast<int64_t>(kube_slice_s * 1e9);
    for (const schedcheck::trace::Record& r : workload->trace.records) {
      if (r.time_ns() < end_ns) part.records.push_back(r);
    }
    if (auto ok = schedcheck::trace::WriteTrace(slice, part); !ok) {
      std::cerr << "capture_scale: " << ok.message() << "\n";
      return 2;
    }
  }
  const std::string capture = dir + "/capture.json";
  auto counts = bench::WriteWatchCapture(workload->trace, decisions, capture);
  if (!counts.ok()) {
    std::cerr << "capture_scale: " << counts.message() << "\n";
    return 2;
  }
  const double gen_s = Seconds(gen_start, Clock::now());
  const auto capture_bytes = std::filesystem::file_size(capture);
  std::cout << shape << ": " << params.nodes << " nodes, " << params.measured_pods
            << " pods over 24 h, node updates every " << params.initial_pods << " s, seed "
            << params.seed << "\n"
            << "capture: " << counts->lines << " API events (" << counts->bindings << " bindings, "
            << counts->failed_scheduling << " FailedScheduling events), "
            << capture_bytes / (1 << 20) << " MiB; made in " << std::fixed << std::setprecision(1)
            << gen_s << " s (not part of the pipeline)\n";
  // Linux's wait4 reports a child's peak RSS as at least this process's resident size when it
  // forked (exec records the copied address space's high-water mark): give back what the truth
  // took, and say what remains.
  workload = schedcheck::Error{"released"};
  replayer = schedcheck::Error{"released"};
  decisions.clear();
  decisions.shrink_to_fit();
  malloc_trim(0);
  std::cout << "bench process: " << ResidentMib()
            << " MiB resident while the steps run (a floor for their peak RSS)\n";

  // 2. The pipeline, one process per step.
  const std::string captured = dir + "/capture.trace", replayed = dir + "/replay.trace";
  std::vector<Step> steps = {
      {"import",
       {schedcheck, "import", "--from", "watch", capture, "-o", captured, "--quiet"},
       counts->lines},
      {"replay", {schedcheck, "replay", captured, "-o", replayed, "--quiet", "--no-progress"}, 0},
      {"diff", {schedcheck, "diff", replayed, captured}, 0},
  };
  for (Step& s : steps) {
    if (s.name == "replay" || s.name == "diff") {
      s.events = CountRecords(s.name == "replay" ? captured : replayed);
    }
    Run(&s, dir + "/" + s.name + ".out");
    const bool ok = s.exit_code == 0;
    std::cout << std::left << std::setw(7) << s.name << std::right << std::setw(10) << s.events
              << " records  " << std::setw(7) << std::setprecision(1) << s.wall_s << " s wall  "
              << std::setw(7) << s.cpu_s << " s cpu  " << std::setw(10) << std::setprecision(0)
              << (s.wall_s > 0 ? s.events / s.wall_s : 0) << " records/s  peak RSS "
              << s.max_rss_kib / 1024 << " MiB"
              << (ok ? "" : "  exit " + std::to_string(s.exit_code)) << "\n";
    if (!ok) {
      std::cerr << "capture_scale: " << s.name << " failed (exit " << s.exit_code
                << "): " << s.output << "\n"
                << "  outputs kept in " << dir << "\n";
      return s.name == "diff" && s.exit_code == 1 ? 1 : 2;
    }
  }
  double wall = 0, cpu = 0;
  long rss = 0;
  for (const Step& s : steps) {
    wall += s.wall_s;
    cpu += s.cpu_s;
    rss = std::max(rss, s.max_rss_kib);
  }
  std::cout << "pipeline: " << std::setprecision(1) << wall << " s wall, " << cpu
            << " s cpu, peak RSS " << rss / 1024 << " MiB (" << bench::MachineNote()
            << ")\ndiff: " << steps.back().output << "\n";
  if (kube_slice_s > 0) {
    // The same slice through the reference and through the real scheduler, for the ratio.
    std::vector<Step> sides = {
        {"slice-ref",
         {schedcheck, "replay", slice, "--compat", "1.37", "-o", dir + "/slice-ref.trace",
          "--quiet", "--no-progress"},
         0},
        {"slice-" + candidate,
         {schedcheck, "replay", slice, "--compat", "1.37", "--candidate", candidate, "-o",
          dir + "/slice-kube.trace", "--quiet", "--no-progress"},
         0},
    };
    double pods_per_s[2] = {0, 0};
    for (size_t i = 0; i < sides.size(); ++i) {
      Step& s = sides[i];
      Run(&s, dir + "/slice-" + std::to_string(i) + ".out");
      s.events = CountBindings(i == 0 ? dir + "/slice-ref.trace" : dir + "/slice-kube.trace");
      pods_per_s[i] = s.wall_s > 0 ? s.events / s.wall_s : 0;
      std::cout << s.name << ": " << s.events << " pods bound in " << std::setprecision(1)
                << s.wall_s << " s wall, " << s.cpu_s << " s cpu, " << std::setprecision(0)
                << pods_per_s[i] << " pods/s, peak RSS " << s.max_rss_kib / 1024 << " MiB"
                << (s.exit_code == 0 ? ""
                                     : "  exit " + std::to_string(s.exit_code) + ": " + s.output)
                << "\n";
    }
    // Both at level 1.37, so the diff compares like with like; its verdict is printed, not judged.
    Step agree{"slice-diff",
               {schedcheck, "diff", dir + "/slice-ref.trace", dir + "/slice-kube.trace"}};
    Run(&agree, dir + "/slice-diff.out");
    std::cout << "slice diff: " << agree.output << "\n";
    if (pods_per_s[1] > 0) {
      std::cout << "slice ratio (reference / " << candidate << ", pods/s): " << std::setprecision(1)
                << pods_per_s[0] / pods_per_s[1] << "\n";
    }
  }
  if (!keep) std::filesystem::remove_all(dir);
  return 0;
}
