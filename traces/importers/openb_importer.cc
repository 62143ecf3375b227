#include "traces/importers/openb_importer.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "reference/api/rfc3339.h"
#include "reference/base/rand.h"
#include "traces/importers/csv.h"
#include "traces/importers/input_files.h"

namespace schedcheck::trace {
namespace {

constexpr int64_t kNanos = 1000000000;
// creation_time and deletion_time are seconds from the trace's start; a trace spans at most 100
// years (the replayer's kMaxTraceSpanNs), which also keeps start + t * kNanos within int64.
constexpr int64_t kMaxTimeSeconds = int64_t{100} * 365 * 24 * 3600;
constexpr int64_t kMaxResampledPods = 10000000;

struct NodeRow {
  std::string name;
  int64_t cpu_milli = 0, memory_mib = 0, gpu = 0;
  std::string model;
};

struct PodRow {
  std::string name;
  int64_t cpu_milli = 0, memory_mib = 0, num_gpu = 0, gpu_milli = 0;
  std::vector<std::string> gpu_spec;
  std::string qos;
  std::optional<int64_t> creation_s, deletion_s;
};

// Reads one cell; `required` cells must be present and non-empty.
class RowReader {
 public:
  RowReader(const CsvTable& table, size_t row) : table_(table), row_(row) {}

  std::string Text(const char* column) const {
    int c = table_.Column(column);
    return c < 0 ? "" : table_.rows[row_][c];
  }
  Result<std::optional<int64_t>> Int(const char* column, bool required) const {
    std::string s = Text(column);
    if (s.empty()) {
      if (required) return Error{Where(column) + ": missing value"};
      return std::optional<int64_t>();
    }
    size_t used = 0;
    int64_t v = -1;
    try {
      v = std::stoll(s, &used);
    } catch (...) {
    }
    if (used != s.size() || v < 0)
      return Error{Where(column) + ": \"" + s + "\" is not a non-negative integer"};
    return std::optional<int64_t>(v);
  }
  std::string Where(const char* column) const {
    return table_.source + ": line " + std::to_string(table_.lines[row_]) + ": field " + column;
  }

 private:
  const CsvTable& table_;
  size_t row_;
};

Outcome RequireColumns(const CsvTable& t, std::initializer_list<const char*> columns) {
  for (const char* c : columns) {
    if (t.Column(c) < 0) return Error{t.source + ": line 1: missing column " + c};
  }
  return Outcome::Ok();
}

// Most GPUs one node or pod may have: far above any machine, and small enough that thousandths of
// GPUs summed over every node of a trace (at most `records` of them) stay within int64.
constexpr int64_t kMaxGpus = 1'000'000;

Outcome CheckGpuCount(const RowReader& r, const char* column, int64_t gpus) {
  if (gpus <= kMaxGpus) return Outcome::Ok();
  return Error{r.Where(column) + ": " + std::to_string(gpus) + " GPUs is more than " +
               std::to_string(kMaxGpus) + ", the most one node or pod may have (kMaxGpus)"};
}

Outcome ReadNodes(const CsvTable& t, std::vector<NodeRow>* out) {
  if (Outcome ok = RequireColumns(t, {"sn", "cpu_milli", "memory_mib", "gpu"}); !ok) return ok;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    RowReader r(t, i);
    NodeRow n{r.Text("sn"), 0, 0, 0, r.Text("model")};
    if (n.name.empty()) return Error{r.Where("sn") + ": missing value"};
    for (auto [column, target] :
         {std::pair{"cpu_milli", &n.cpu_milli}, std::pair{"memory_mib", &n.memory_mib},
          std::pair{"gpu", &n.gpu}}) {
      auto v = r.Int(column, true);
      if (!v.ok()) return v.error();
      *target = **v;
    }
    if (Outcome ok = CheckGpuCount(r, "gpu", n.gpu); !ok) return ok;
    out->push_back(std::move(n));
  }
  return Outcome::Ok();
}

Outcome ReadPods(const CsvTable& t, std::vector<PodRow>* out) {
  if (Outcome ok = RequireColumns(t, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"});
      !ok)
    return ok;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    RowReader r(t, i);
    PodRow p;
    p.name = r.Text("name");
    if (p.name.empty()) return Error{r.Where("name") + ": missing value"};
    p.qos = r.Text("qos");
    for (auto [column, target] :
         {std::pair{"cpu_milli", &p.cpu_milli}, std::pair{"memory_mib", &p.memory_mib},
          std::pair{"num_gpu", &p.num_gpu}, std::pair{"gpu_milli", &p.gpu_milli}}) {
      auto v = r.Int(column, true);
      if (!v.ok()) return v.error();
      *target = **v;
    }
    if (Outcome ok = CheckGpuCount(r, "num_gpu", p.num_gpu); !ok) return ok;
    for (auto [column, target] :
         {std::pair{"creation_time", &p.creation_s}, std::pair{"deletion_time", &p.deletion_s}}) {
      auto v = r.Int(column, false);
      if (!v.ok()) return v.error();
      // Beyond the span a trace may have, and beyond int64 once in nanoseconds.
      if (*v && **v > kMaxTimeSeconds) {
        return Error{r.Where(column) + ": " + std::to_string(**v) +
                     " seconds is more than 100 years, the longest span a trace may have"};
      }
      *target = *v;
    }
    std::string spec = r.Text("gpu_spec");
    for (size_t b = 0; !spec.empty() && b <= spec.size();) {
      size_t e = spec.find('|', b);
      if (e == std::string::npos) e = spec.size();
      if (e > b) p.gpu_spec.push_back(spec.substr(b, e - b));
      b = e + 1;
    }
    out->push_back(std::move(p));
  }
  return Outcome::Ok();
}

// A pod's GPU request in thousandths of a GPU: a share of one GPU (num_gpu == 1 and
// 0 < gpu_milli < 1000) or whole GPUs.
int64_t GpuMilli(const PodRow& p) {
  if (p.num_gpu == 0) return 0;
  if (p.num_gpu == 1 && p.gpu_milli > 0 && p.gpu_milli < 1000) return p.gpu_milli;
  return 1000 * p.num_gpu;
}

k8s::Node MakeNode(const NodeRow& row) {
  k8s::Node node;
  node.set_api_version("v1");
  node.set_kind("Node");
  node.mutable_metadata()->set_name(row.name);
  (*node.mutable_metadata()->mutable_labels())["kubernetes.io/hostname"] = row.name;
  if (row.gpu > 0 && !row.model.empty())
    (*node.mutable_metadata()->mutable_labels())[kGpuModelLabel] = row.model;
  for (auto* list :
       {node.mutable_status()->mutable_capacity(), node.mutable_status()->mutable_allocatable()}) {
    (*list)["cpu"] = std::to_string(row.cpu_milli) + "m";
    (*list)["memory"] = std::to_string(row.memory_mib) + "Mi";
    (*list)["pods"] = "110";
    if (row.gpu > 0) {
      (*list)[kGpuCountResource] = std::to_string(row.gpu);
      (*list)[kGpuMilliResource] = std::to_string(1000 * row.gpu);
    }
  }
  return node;
}

k8s::Pod MakePod(const PodRow& row, const std::string& name, int64_t created_unix_ns) {
  k8s::Pod pod;
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  auto* meta = pod.mutable_metadata();
  meta->set_name(name);
  meta->set_namespace_("default");
  meta->set_creation_timestamp(reference::FormatRfc3339(created_unix_ns));
  if (!row.qos.empty()) (*meta->mutable_labels())[kQosLabel] = row.qos;
  auto* c = pod.mutable_spec()->add_containers();
  c->set_name("main");
  auto* requests = c->mutable_resources()->mutable_requests();
  (*requests)["cpu"] = std::to_string(row.cpu_milli) + "m";
  (*requests)["memory"] = std::to_string(row.memory_mib) + "Mi";
  if (int64_t milli = GpuMilli(row); milli > 0) {
    auto* limits =
        c->mutable_resources()->mutable_limits();  // extended resources: limits = requests
    (*requests)[kGpuMilliResource] = (*limits)[kGpuMilliResource] = std::to_string(milli);
    if (milli >= 1000)
      (*requests)[kGpuCountResource] = (*limits)[kGpuCountResource] = std::to_string(row.num_gpu);
  }
  if (!row.gpu_spec.empty()) {
    auto* term = pod.mutable_spec()
                     ->mutable_affinity()
                     ->mutable_node_affinity()
                     ->mutable_required_during_scheduling_ignored_during_execution()
                     ->add_node_selector_terms();
    auto* req = term->add_match_expressions();
    req->set_key(kGpuModelLabel);
    req->set_operator_("In");
    for (const std::string& model : row.gpu_spec) req->add_values(model);
  }
  return pod;
}

Record PodRecord(EventType type, int64_t time_ns, k8s::Pod pod) {
  Record r;
  r.set_time_ns(time_ns);
  r.mutable_api()->set_type(type);
  *r.mutable_api()->mutable_pod() = std::move(pod);
  return r;
}

}  // namespace

namespace {

// The pods of the paper's protocol, in arrival order: (row, name).
using Arrivals = std::vector<std::pair<const PodRow*, std::string>>;

Result<Arrivals> Resample(const std::vector<PodRow>& pods, int64_t capacity_milli, double share,
                          uint64_t seed, int64_t max_pods) {
  if (!std::isfinite(share) || share <= 0 || share > 1000)
    return Error{"--target-gpu-share: must be in (0, 1000]"};
  bool any_gpu = false;
  for (const PodRow& p : pods) any_gpu |= GpuMilli(p) > 0;
  if (capacity_milli == 0 || !any_gpu) {
    return Error{"--target-gpu-share: needs nodes with GPUs and pods requesting GPUs"};
  }
  const double target = share * static_cast<double>(capacity_milli);
  Rand rng(seed);
  Arrivals out;
  int64_t requested = 0;
  while (static_cast<double>(requested) < target) {
    if (static_cast<int64_t>(out.size()) >= max_pods) {
      return Error{"--target-gpu-share: more than " + std::to_string(max_pods) +
                   " pods (the smaller of 10,000,000 and the limit records; raise the latter with "
                   "--limit records=N)"};
    }
    const PodRow& p = pods[rng.Uniform(pods.size())];
    out.emplace_back(&p, p.name + "-r" + std::to_string(out.size()));
    requested += GpuMilli(p);
  }
  return out;
}

Arrivals Shuffle(const std::vector<PodRow>& pods, uint64_t seed) {
  Arrivals out;
  for (const PodRow& p : pods) out.emplace_back(&p, p.name);
  Rand rng(seed);
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.Uniform(i)]);
  return out;
}

// Time-ordered replay: ADDED at creation_time, DELETED at deletion_time (unless arrival-only).
void AddTimedPods(const std::vector<PodRow>& pods, int64_t start, bool arrival_only,
                  Imported* out) {
  int64_t untimed = 0, deletions = 0;
  for (const PodRow& p : pods) {
    int64_t created = start + p.creation_s.value_or(0) * kNanos;
    untimed += p.creation_s ? 0 : 1;
    out->records.push_back(PodRecord(ADDED, created, MakePod(p, p.name, created)));
    if (arrival_only || !p.deletion_s) continue;
    int64_t deleted = start + *p.deletion_s * kNanos;
    if (deleted < created) {
      out->warnings.push_back("pod " + p.name +
                              ": deletion_time before creation_time; deleted at creation");
      deleted = created;
    }
    out->records.push_back(PodRecord(DELETED, deleted, MakePod(p, p.name, created)));
    ++deletions;
  }
  AddToLabel(out, "openb.deletions", deletions);
  if (untimed > 0) AddToLabel(out, "openb.pods_without_time", untimed);
}

Outcome ReadTables(const std::vector<std::string>& files, std::vector<NodeRow>* nodes,
                   std::vector<PodRow>* pods) {
  for (const std::string& file : files) {
    auto table = ReadCsvFile(file);
    if (!table.ok()) return table.error();
    Outcome ok;
    if (table->Column("sn") >= 0) {
      ok = ReadNodes(*table, nodes);
    } else if (table->Column("name") >= 0 && table->Column("num_gpu") >= 0) {
      ok = ReadPods(*table, pods);
    } else {
      ok = Error{
          file +
          ": line 1: neither an openb node list (sn,cpu_milli,memory_mib,gpu,model) nor a pod list "
          "(name,cpu_milli,memory_mib,num_gpu,gpu_milli,...)"};
    }
    if (!ok) return ok;
  }
  return Outcome::Ok();
}

}  // namespace

Result<Imported> ImportOpenb(const std::vector<std::string>& inputs, const ImportOptions& options) {
  auto files = ExpandInputs(inputs, {".csv"});
  if (!files.ok()) return files.error();
  std::vector<NodeRow> nodes;
  std::vector<PodRow> pods;
  if (Outcome ok = ReadTables(*files, &nodes, &pods); !ok) return ok.error();
  Imported out;
  const int64_t start = options.start_unix_ns.value_or(0);
  int64_t capacity_milli = 0;
  for (const NodeRow& n : nodes) {
    capacity_milli += 1000 * n.gpu;
    Record r;
    r.set_time_ns(start);
    r.mutable_api()->set_type(ADDED);
    *r.mutable_api()->mutable_node() = MakeNode(n);
    out.records.push_back(std::move(r));
  }
  std::optional<Arrivals> arrivals;
  if (options.target_gpu_share) {
    out.seed = options.shuffle_seed.value_or(1);
    auto resampled = Resample(pods, capacity_milli, *options.target_gpu_share, out.seed,
                              std::min(kMaxResampledPods, options.limits.records));
    if (!resampled.ok()) return resampled.error();
    arrivals = std::move(*resampled);
    out.labels["openb.protocol"] = "resampled";
    out.labels["openb.target_gpu_share"] = std::to_string(*options.target_gpu_share);
  } else if (options.shuffle_seed) {
    out.seed = *options.shuffle_seed;
    arrivals = Shuffle(pods, out.seed);
    out.labels["openb.protocol"] = "shuffled";
  }
  int64_t requested_milli = 0;
  if (arrivals) {  // the paper's protocol: every pod arrives at t = 0, in this order, and stays
    for (const auto& [row, name] : *arrivals) {
      out.records.push_back(PodRecord(ADDED, start, MakePod(*row, name, start)));
      requested_milli += GpuMilli(*row);
    }
  } else {
    out.labels["openb.protocol"] = options.arrival_only ? "arrival-only" : "timed";
    AddTimedPods(pods, start, options.arrival_only, &out);
    for (const PodRow& p : pods) requested_milli += GpuMilli(p);
  }
  AddToLabel(&out, "openb.node_rows", static_cast<int64_t>(nodes.size()));
  AddToLabel(&out, "openb.pod_rows", static_cast<int64_t>(pods.size()));
  AddToLabel(&out, "openb.pods", static_cast<int64_t>(arrivals ? arrivals->size() : pods.size()));
  AddToLabel(&out, "openb.gpu_capacity_milli", capacity_milli);
  AddToLabel(&out, "openb.gpu_requested_milli", requested_milli);
  if (Outcome ok = Finalize(start, &out); !ok) return ok.error();
  return out;
}

std::string FindOpenbDataDir(const std::vector<std::string>& extra_roots) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("SCHEDCHECK_SHARED_DATA")) roots.push_back(env);
  roots.push_back("/work/shared/data");
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    roots.push_back(fs::path(ws) / "../shared/data");
  for (const std::string& r : extra_roots) roots.push_back(r);
  roots.push_back("../shared/data");
  std::error_code ec;
  for (const fs::path& root : roots) {
    for (const fs::path& dir : {root / "alibaba-gpu-v2023", root}) {
      if (fs::exists(dir / "openb_pod_list_default.csv", ec) &&
          fs::exists(dir / "openb_node_list_all_node.csv", ec)) {
        return dir.string();
      }
    }
  }
  return "";
}

}  // namespace schedcheck::trace
