// bazel run -c opt //harness/bench:bench -- [--workload NAME]... [--nodes N]... [--initial N]
//     [--measured N] [--scale F] [--seed S] [--json FILE] [--no-trace-io] [--no-replay]
// Generates each workload in process, replays it against the reference (percentageOfNodesToScore
// 100, one thread), prints a table (stdout) and optionally JSON; progress goes to stderr.
// Several --nodes values make a sweep (cost per pod per node against cluster size).
#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "harness/bench/alibaba.h"
#include "harness/bench/bench.h"
#include "traces/atomic_file.h"

namespace {

struct Flags {
  std::vector<std::string> workloads;
  std::vector<int64_t> nodes;
  std::optional<int64_t> initial;
  std::optional<int64_t> measured;
  double scale = 1;
  uint64_t seed = 1;
  std::string json;
  bool no_trace_io = false;
  bool no_replay = false;
};

// The Alibaba workloads, when the shared data is present (else a note on stderr, not an error).
int RunAlibaba(const std::vector<std::string>& names, uint64_t seed, std::vector<schedcheck::bench::AlibabaResult>* out) {
  if (names.empty()) return 0;
  const std::string dir = schedcheck::bench::FindAlibabaDir();
  if (dir.empty()) {
    std::cerr << "bench: skipping the Alibaba workloads: no alibaba-gpu-v2023/openb_pod_list_default.csv under "
                 "$SCHEDCHECK_SHARED_DATA, /work/shared/data or ../shared/data\n";
    return 0;
  }
  for (const std::string& name : names) {
    std::cerr << name << ": " << dir << ", seed " << seed << std::endl;
    auto r = schedcheck::bench::RunAlibaba(name, dir, seed);
    if (!r.ok()) {
      std::cerr << "bench: " << r.message() << "\n";
      return 1;
    }
    std::cerr << "  " << r->bound << " pods bound, " << r->replay_seconds << " s replay" << std::endl;
    out->push_back(*r);
  }
  return 0;
}

int Run(const Flags& f) {
  using schedcheck::workloads::ShapeInfo;
  std::vector<const ShapeInfo*> shapes;
  std::vector<std::string> alibaba;
  if (f.workloads.empty()) {
    for (const ShapeInfo& s : schedcheck::workloads::Shapes()) {
      if (s.perf) shapes.push_back(&s);
    }
    alibaba = {schedcheck::bench::kAlibabaPaper130, schedcheck::bench::kAlibabaTimed};
  }
  for (const std::string& name : f.workloads) {
    if (schedcheck::bench::IsAlibabaWorkload(name)) {
      alibaba.push_back(name);
      continue;
    }
    const ShapeInfo* s = schedcheck::workloads::FindShape(name);
    if (s == nullptr) {
      std::cerr << "bench: --workload: unknown \"" << name << "\" (see schedcheck generate --list)\n";
      return 2;
    }
    shapes.push_back(s);
  }
  if (!(f.scale > 0)) {
    std::cerr << "bench: --scale must be positive\n";
    return 2;
  }
  auto scaled = [&](int64_t v) { return static_cast<int64_t>(std::llround(v * f.scale)); };
  std::vector<schedcheck::bench::WorkloadResult> results;
  std::vector<schedcheck::bench::TraceIoResult> io;
  for (const ShapeInfo* shape : shapes) {
    std::vector<int64_t> sweep = f.nodes;
    if (sweep.empty()) sweep.push_back(std::max<int64_t>(1, scaled(shape->defaults.nodes)));
    for (int64_t nodes : sweep) {
      schedcheck::workloads::WorkloadParams p{nodes, f.initial.value_or(scaled(shape->defaults.initial_pods)),
                                              f.measured.value_or(scaled(shape->defaults.measured_pods)), f.seed};
      std::cerr << shape->name << ": " << p.nodes << " nodes, " << p.initial_pods << " initial, " << p.measured_pods
                << " measured pods, seed " << p.seed << std::endl;
      if (!f.no_replay) {
        auto r = schedcheck::bench::RunWorkload(*shape, p, &std::cerr);
        if (!r.ok()) {
          std::cerr << "bench: " << r.message() << "\n";
          return 1;
        }
        results.push_back(*r);
        std::cerr << "  " << r->pods_per_second << " pods/s over " << r->measured_bound << " measured pods, "
                  << r->total_seconds << " s in all" << std::endl;
      }
      if (!f.no_trace_io) {
        auto t = schedcheck::bench::RunTraceIo(*shape, p, "/tmp");
        if (!t.ok()) {
          std::cerr << "bench: trace i/o: " << t.message() << "\n";
          return 1;
        }
        io.push_back(*t);
      }
    }
  }
  std::vector<schedcheck::bench::AlibabaResult> alibaba_results;
  if (int code = RunAlibaba(alibaba, f.seed, &alibaba_results); code != 0) return code;
  std::cout << schedcheck::bench::FormatTable(results, io) << schedcheck::bench::FormatAlibabaTable(alibaba_results);
  if (!f.json.empty()) {
    nlohmann::json doc = schedcheck::bench::ToJson(results, io);
    doc["alibaba"] = schedcheck::bench::AlibabaToJson(alibaba_results);
    std::string text = doc.dump(2) + "\n";
    if (schedcheck::Outcome ok = schedcheck::trace::WriteFileAtomically(f.json, text); !ok) {
      std::cerr << "bench: " << ok.message() << "\n";
      return 2;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedcheck benchmark: scheduler_perf workloads replayed against the reference"};
  Flags f;
  app.add_option("--workload", f.workloads, "workload shape or AlibabaPaper130 / AlibabaTimed, repeatable (default: every scheduler_perf shape, then the Alibaba ones when the shared data is present)");
  app.add_option("--nodes", f.nodes, "node count, repeatable for a sweep (default: the shape's)");
  app.add_option("--initial", f.initial, "initial pods (default: the shape's, times --scale)");
  app.add_option("--measured", f.measured, "measured pods (default: the shape's, times --scale)");
  app.add_option("--scale", f.scale, "multiply the shapes' default sizes (e.g. 0.1 for a quick run)");
  app.add_option("--seed", f.seed, "seed of the generators and the replay (default 1)");
  app.add_option("--json", f.json, "also write the results as JSON to this file");
  app.add_flag("--no-trace-io", f.no_trace_io, "skip the trace encode/decode measurement");
  app.add_flag("--no-replay", f.no_replay, "measure trace encode/decode only");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return Run(f);
}
