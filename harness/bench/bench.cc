#include "harness/bench/bench.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <utility>

#include "harness/bench/measured_tracker.h"
#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "reference/k8s/k8s_json.h"
#include "reference/runtime/profile.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace schedcheck::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

const char* SamplingName(Sampling sampling) {
  return sampling == Sampling::kAll ? "100" : "adaptive";
}

Result<BenchConfig> ConfigFor(const workloads::ShapeInfo& shape, Sampling sampling,
                              const std::string& compat) {
  nlohmann::json doc;
  if (!shape.config_yaml.empty()) {
    auto docs =
        k8s::ParseYamlDocuments(shape.config_yaml, std::string(shape.name) + " configuration");
    if (!docs.ok()) return docs.error();
    doc = (*docs)[0].json;
  } else if (sampling == Sampling::kAll) {
    doc = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
           {"kind", "KubeSchedulerConfiguration"}};
  }
  BenchConfig out;
  if (sampling == Sampling::kAll) doc["percentageOfNodesToScore"] = 100;
  if (doc.is_null()) {
    out.config = reference::DefaultConfiguration(compat);  // kube-scheduler's default profile
    return out;
  }
  out.text = doc.dump(2) + "\n";  // JSON is YAML: the child parses the very text the reference does
  auto parsed = reference::ParseSchedulerConfiguration(
      doc, std::string(shape.name) + " configuration", compat);
  if (!parsed.ok()) return parsed.error();
  out.config = std::move(*parsed);
  return out;
}

bool ResetPeakRss() {
  std::ofstream clear("/proc/self/clear_refs");
  if (!clear) return false;
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

int64_t PeakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0)
      return std::stoll(line.substr(6)) * 1024;  // "VmHWM:  1234 kB"
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

Result<WorkloadResult> RunWorkload(const workloads::ShapeInfo& shape,
                                   const workloads::WorkloadParams& params, std::ostream* progress,
                                   Sampling sampling, reference::Engine engine,
                                   const std::string& compat) {
  WorkloadResult result;
  result.engine = engine;
  result.workload = std::string(shape.name);
  result.params = params;
  result.sampling = sampling;
  ResetPeakRss();
  const Clock::time_point gen_start = Clock::now();
  auto workload = workloads::Generate(shape.name, params);
  if (!workload.ok()) return workload.error();
  result.generate_seconds = Seconds(gen_start, Clock::now());
  const std::vector<trace::Record>& records = workload->trace.records;
  result.events = static_cast<int64_t>(records.size());

  replay::ReplayOptions options;
  options.engine = engine;
  options.compat = compat;
  auto config = ConfigFor(shape, sampling, compat);
  if (!config.ok()) return config.error();
  options.config = std::move(config->config);
  options.epoch_unix_ns = *reference::ParseRfc3339(workloads::kStartTime);
  // Decisions are streamed to the tracker, not kept: scheduler_perf measures scheduling, and a
  // retained log (every attempt's full tie set) would dominate memory at 5,000 nodes.
  MeasuredTracker tracker(workload->measured_pods);
  options.on_record = [&tracker](const trace::Record& rec) { tracker.OnRecord(rec); };
  options.retain_log = false;
  options.log_attempts = false;
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return replayer.error();
  replay::Replayer& r = **replayer;

  const Clock::time_point start = Clock::now();
  Clock::time_point measured_start{}, measured_end{}, last_report = start;
  bool measuring = false;
  auto after_instant = [&] {
    if (tracker.TakeNewlyBound()) measured_end = Clock::now();
    if (progress != nullptr && Seconds(last_report, Clock::now()) >= 5) {
      last_report = Clock::now();
      *progress << "  " << shape.name << " " << params.nodes << " nodes: " << tracker.bound() << "/"
                << workload->measured_pods.size() << " measured pods bound, " << std::fixed
                << std::setprecision(1) << Seconds(start, last_report) << " s" << std::endl;
    }
  };
  std::vector<const trace::ApiEvent*> batch;
  for (size_t i = 0; i < records.size();) {
    const int64_t t = records[i].time_ns();
    const size_t first = i;
    batch.clear();
    for (; i < records.size() && records[i].time_ns() == t; ++i) batch.push_back(&records[i].api());
    if (!measuring && t >= workload->measured_start_ns && !workload->measured_pods.empty()) {
      measuring = true;
      measured_start = Clock::now();
    }
    if (Outcome ok = r.ProcessEvents(t, batch, first); !ok)
      return Error{std::string(shape.name) + ": " + ok.message()};
    after_instant();
  }
  // Pods still waiting (preemption, backoff): advance virtual time a second at a time.
  const int64_t last = records.empty() ? 0 : records.back().time_ns();
  for (int64_t t = last + kNanosPerSecond; !tracker.done() && t <= last + replay::kDefaultHorizonNs;
       t += kNanosPerSecond) {
    r.Finish(t);
    after_instant();
  }
  const Clock::time_point end = Clock::now();
  result.total_seconds = Seconds(start, end);
  result.measured_bound = tracker.bound();
  if (result.measured_bound > 0) {
    result.measured_seconds = Seconds(measured_start, measured_end);
    result.pods_per_second =
        result.measured_seconds > 0 ? result.measured_bound / result.measured_seconds : 0;
    result.ns_per_pod_per_node =
        result.measured_seconds * 1e9 / result.measured_bound / params.nodes;
  }
  result.peak_rss_bytes = PeakRssBytes();
  return result;
}

namespace {

// Reads the whole trace at `path`, parsing every record in full; returns the number of records
// read. Uses NextBorrowed (each record assigned over the previous one in a reader-owned Record),
// the fast path for callers that inspect each record and move on.
Result<int64_t> DecodeOnce(const std::string& path) {
  auto reader = trace::TraceReader::Open(path);
  if (!reader.ok()) return reader.error();
  const trace::Record* record = nullptr;
  int64_t read = 0;
  trace::ReadStatus status;
  while ((status = reader->NextBorrowed(&record)) == trace::ReadStatus::kRecord) ++read;
  if (status == trace::ReadStatus::kError) return Error{reader->error()};
  return read;
}

// Decodes `path` repeatedly for at least `min_seconds`; returns events per second.
Result<double> DecodeRate(const std::string& path, int64_t events, double min_seconds) {
  int64_t decoded = 0;
  const Clock::time_point start = Clock::now();
  Clock::time_point now = start;
  for (int rep = 0; rep == 0 || Seconds(start, now) < min_seconds; ++rep) {
    Result<int64_t> read = DecodeOnce(path);
    if (!read.ok()) return read.error();
    if (*read != events) {
      return Error{path + ": read " + std::to_string(*read) + " of " + std::to_string(events) +
                   " records"};
    }
    decoded += *read;
    now = Clock::now();
  }
  return decoded / std::max(Seconds(start, now), 1e-9);
}

}  // namespace

// Encode and decode are each repeated until kMinIoSeconds have passed (small traces take well
// under a millisecond, too little for a steady figure); rates are over all repetitions.
Result<TraceIoResult> RunTraceIo(const workloads::ShapeInfo& shape,
                                 const workloads::WorkloadParams& params, const std::string& dir) {
  constexpr double kMinIoSeconds = 0.3;
  auto workload = workloads::Generate(shape.name, params);
  if (!workload.ok()) return workload.error();
  TraceIoResult result;
  result.workload = std::string(shape.name);
  result.events = static_cast<int64_t>(workload->trace.records.size());
  const std::string path = dir + "/schedcheck-bench-" + std::to_string(getpid()) + ".trace";
  int64_t encoded = 0;
  const Clock::time_point t0 = Clock::now();
  Clock::time_point t1 = t0;
  for (int rep = 0; rep == 0 || Seconds(t0, t1) < kMinIoSeconds; ++rep) {
    if (Outcome ok = trace::WriteTrace(path, workload->trace); !ok) return ok.error();
    encoded += result.events;
    t1 = Clock::now();
  }
  std::error_code ec;
  Result<double> decode = DecodeRate(path, result.events, kMinIoSeconds);
  result.bytes = static_cast<int64_t>(std::filesystem::file_size(path, ec));
  std::filesystem::remove(path, ec);
  if (!decode.ok()) return decode.error();
  result.encode_events_per_second = encoded / std::max(Seconds(t0, t1), 1e-9);
  result.decode_events_per_second = *decode;
  result.bytes_per_event =
      result.events > 0 ? static_cast<double>(result.bytes) / result.events : 0;
  return result;
}

}  // namespace schedcheck::bench
