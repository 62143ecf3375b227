#include "harness/bench/alibaba.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>

#include "harness/bench/bench.h"
#include "harness/replay/replayer.h"
#include "reference/api/quantity.h"
#include "reference/runtime/profile.h"
#include "traces/importers/openb_importer.h"

namespace schedcheck::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The integer value of `key` in a resource map (absent or unparsable: 0; the importer wrote it).
int64_t ResourceValue(const google::protobuf::Map<std::string, std::string>& resources,
                      const std::string& key) {
  auto it = resources.find(key);
  if (it == resources.end()) return 0;
  auto q = reference::Quantity::Parse(it->second);
  return q.ok() ? q->Value() : 0;
}

int64_t PodGpuMilli(const k8s::Pod& pod) {
  int64_t milli = 0;
  for (const k8s::Container& c : pod.spec().containers()) {
    milli += ResourceValue(c.resources().requests(), trace::kGpuMilliResource);
  }
  return milli;
}

std::string PodKey(const k8s::Pod& pod) {
  return pod.metadata().namespace_() + "/" + pod.metadata().name();
}

// Follows GPU allocation through the replay: bindings add the pod's gpu-milli, deletions of
// bound pods subtract it.
class GpuTracker {
 public:
  void AddPod(const k8s::Pod& pod) { milli_[PodKey(pod)] = PodGpuMilli(pod); }
  void Bind(const std::string& pod) {
    auto it = milli_.find(pod);
    if (it == milli_.end() || !bound_.emplace(pod, it->second).second) return;
    allocated_ += it->second;
    ++bindings_;
    peak_ = std::max(peak_, allocated_);
  }
  void Delete(const std::string& pod) {
    auto it = bound_.find(pod);
    if (it == bound_.end()) return;
    allocated_ -= it->second;
    bound_.erase(it);
  }
  int64_t allocated() const { return allocated_; }
  int64_t peak() const { return peak_; }
  int64_t bindings() const { return bindings_; }

 private:
  std::unordered_map<std::string, int64_t> milli_;
  std::unordered_map<std::string, int64_t> bound_;
  int64_t allocated_ = 0, peak_ = 0, bindings_ = 0;
};

Result<trace::Imported> ImportWorkload(const std::string& workload, const std::string& dir,
                                       uint64_t seed) {
  trace::ImportOptions options;
  if (workload == kAlibabaPaper130) {
    options.arrival_only = true;
    options.shuffle_seed = seed;
    options.target_gpu_share = 1.3;
  }
  return trace::ImportOpenb(
      {dir + "/openb_node_list_all_node.csv", dir + "/openb_pod_list_default.csv"}, options);
}

// Replays `records` instant by instant, feeding `gpu`; returns the number of API events.
Result<int64_t> Replay(const trace::Imported& imported, reference::Engine engine, GpuTracker* gpu,
                       int64_t* attempts) {
  replay::ReplayOptions options;
  options.compat = "1.27";
  options.engine = engine;
  options.config = reference::DefaultConfiguration("1.27");
  options.config.percentage_of_nodes_to_score = 100;
  options.epoch_unix_ns = imported.start_unix_ns;
  options.retain_log = false;
  options.log_attempts = false;  // only bindings and pops are counted here
  options.on_record = [gpu, attempts](const trace::Record& r) {
    if (r.has_binding()) gpu->Bind(r.binding().pod());
    if (r.has_queue() && r.queue().to() == "inflight") ++*attempts;
  };
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return replayer.error();
  const std::vector<trace::Record>& records = imported.records;
  std::vector<const trace::ApiEvent*> batch;
  int64_t events = 0;
  for (size_t i = 0; i < records.size();) {
    const int64_t t = records[i].time_ns();
    const size_t first = i;
    batch.clear();
    for (; i < records.size() && records[i].time_ns() == t; ++i) {
      if (!records[i].has_api()) continue;
      const trace::ApiEvent& e = records[i].api();
      if (e.has_pod() && e.type() == trace::DELETED) gpu->Delete(PodKey(e.pod()));
      batch.push_back(&e);
    }
    events += static_cast<int64_t>(batch.size());
    if (Outcome ok = (*replayer)->ProcessEvents(t, batch, first); !ok) return ok.error();
  }
  const int64_t last = records.empty() ? 0 : records.back().time_ns();
  (*replayer)->Finish(last + replay::kDefaultHorizonNs);
  return events;
}

}  // namespace

bool IsAlibabaWorkload(const std::string& name) {
  return name == kAlibabaPaper130 || name == kAlibabaTimed;
}

std::string FindAlibabaDir() { return trace::FindOpenbDataDir(); }

Result<AlibabaResult> RunAlibaba(const std::string& workload, const std::string& dir, uint64_t seed,
                                 reference::Engine engine) {
  if (!IsAlibabaWorkload(workload)) return Error{"unknown Alibaba workload \"" + workload + "\""};
  AlibabaResult result;
  result.workload = workload;
  result.engine = engine;
  ResetPeakRss();
  const Clock::time_point t0 = Clock::now();
  auto imported = ImportWorkload(workload, dir, seed);
  if (!imported.ok()) return imported.error();
  const Clock::time_point t1 = Clock::now();
  result.import_seconds = Seconds(t0, t1);
  GpuTracker gpu;
  for (const trace::Record& r : imported->records) {
    if (!r.has_api() || r.api().type() != trace::ADDED) continue;
    if (r.api().has_node()) {
      ++result.nodes;
      result.gpu_capacity_milli +=
          ResourceValue(r.api().node().status().allocatable(), trace::kGpuMilliResource);
    } else if (r.api().has_pod()) {
      ++result.pods;
      gpu.AddPod(r.api().pod());
    }
  }
  const Clock::time_point t2 = Clock::now();
  auto events = Replay(*imported, engine, &gpu, &result.attempts);
  if (!events.ok()) return Error{workload + ": " + events.message()};
  result.replay_seconds = Seconds(t2, Clock::now());
  result.events = *events;
  result.bound = gpu.bindings();
  result.gpu_allocated_milli = gpu.allocated();
  result.gpu_peak_allocated_milli = gpu.peak();
  if (result.gpu_capacity_milli > 0) {
    result.gpu_allocation_ratio = static_cast<double>(gpu.allocated()) / result.gpu_capacity_milli;
    result.gpu_peak_allocation_ratio = static_cast<double>(gpu.peak()) / result.gpu_capacity_milli;
  }
  result.peak_rss_bytes = PeakRssBytes();
  return result;
}

std::string FormatAlibabaTable(const std::vector<AlibabaResult>& results) {
  if (results.empty()) return "";
  std::string out =
      "\nalibaba            engine    nodes    pods  events   bound  attempts  import_s  replay_s  "
      "gpu_alloc  gpu_peak  "
      "peak_rss_MiB\n";
  for (const AlibabaResult& r : results) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "%-18s %6s %8lld %7lld %7lld %7lld %9lld %9.3f %9.3f %9.1f%% %8.1f%% %13.1f\n",
                  r.workload.c_str(), std::string(reference::EngineName(r.engine)).c_str(),
                  static_cast<long long>(r.nodes), static_cast<long long>(r.pods),
                  static_cast<long long>(r.events), static_cast<long long>(r.bound),
                  static_cast<long long>(r.attempts), r.import_seconds, r.replay_seconds,
                  100 * r.gpu_allocation_ratio, 100 * r.gpu_peak_allocation_ratio,
                  r.peak_rss_bytes / 1048576.0);
    out += line;
  }
  return out;
}

nlohmann::json AlibabaToJson(const std::vector<AlibabaResult>& results) {
  nlohmann::json list = nlohmann::json::array();
  for (const AlibabaResult& r : results) {
    list.push_back({{"workload", r.workload},
                    {"engine", reference::EngineName(r.engine)},
                    {"nodes", r.nodes},
                    {"pods", r.pods},
                    {"events", r.events},
                    {"bound", r.bound},
                    {"attempts", r.attempts},
                    {"import_seconds", r.import_seconds},
                    {"replay_seconds", r.replay_seconds},
                    {"gpu_capacity_milli", r.gpu_capacity_milli},
                    {"gpu_allocated_milli", r.gpu_allocated_milli},
                    {"gpu_peak_allocated_milli", r.gpu_peak_allocated_milli},
                    {"gpu_allocation_ratio", r.gpu_allocation_ratio},
                    {"gpu_peak_allocation_ratio", r.gpu_peak_allocation_ratio},
                    {"peak_rss_bytes", r.peak_rss_bytes}});
  }
  return list;
}

}  // namespace schedcheck::bench
