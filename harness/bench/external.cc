#include "harness/bench/external.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <thread>
#include <utility>

#include "harness/bench/measured_tracker.h"
#include "harness/candidates/kube_adapter.h"
#include "harness/protocol/client.h"
#include "harness/protocol/external_replay.h"
#include "harness/protocol/framing.h"
#include "harness/protocol/protocol.pb.h"
#include "harness/replay/decision_log.h"
#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "reference/runtime/profile.h"

namespace schedcheck::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string ConfigSource(std::string_view shape, Sampling sampling) {
  return "bench " + std::string(shape) + " (percentageOfNodesToScore " + SamplingName(sampling) +
         ")";
}

// The child side of one workload: the request loop of protocol::RunExternalReplay (same instants,
// same times relative to the first event, Finish at the last event + the horizon), with the
// measured pods' bindings watched as each answer arrives.
class ChildDriver {
 public:
  ChildDriver(std::string label, std::string command)
      : label_(std::move(label)), command_(std::move(command)) {}

  Outcome Start(const protocol::Hello& hello, int64_t timeout_ms) {
    auto client = protocol::Client::Spawn(command_, timeout_ms);
    if (!client.ok()) return Fail("starting `" + command_ + "`: " + client.message());
    client_ = std::move(*client);
    protocol::Request request;
    *request.mutable_hello() = hello;
    request.mutable_hello()->set_protocol_version(protocol::kProtocolVersion);
    auto response = Call(request, "Hello");
    if (!response.ok()) return response.error();
    if (!response->has_hello_ack()) return Fail("Hello: the answer is not a HelloAck");
    if (response->hello_ack().protocol_version() != protocol::kProtocolVersion) {
      return Fail("Hello: the child speaks protocol version " +
                  std::to_string(response->hello_ack().protocol_version()) + ", the bench " +
                  std::to_string(protocol::kProtocolVersion));
    }
    return Outcome();
  }

  // Sends `request` (Events or Finish) and hands every decision record to `on_record`.
  template <typename OnRecord>
  Outcome Decide(const protocol::Request& request, const std::string& what, OnRecord on_record) {
    auto response = Call(request, what);
    if (!response.ok()) return response.error();
    if (!response->has_decisions()) return Fail(what + ": the answer is not Decisions");
    for (const trace::Record& r : response->decisions().records()) on_record(r);
    return Outcome();
  }

  Outcome Close() {
    if (Outcome ok = client_->Close(); !ok) return Fail("closing: " + ok.message());
    return Outcome();
  }

 private:
  Result<protocol::Response> Call(const protocol::Request& request, const std::string& what) {
    auto response = client_->Call(request);
    if (!response.ok()) return Fail(what + ": " + response.message());
    if (response->has_error())
      return Fail(what + ": the child reported an error: " + response->error().message());
    return response;
  }

  Error Fail(const std::string& message) const { return Error{label_ + ": " + message}; }

  std::string label_;
  std::string command_;
  std::unique_ptr<protocol::Client> client_;
};

std::string WithCommas(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string Rate(double v) {
  if (v >= 100) return WithCommas(std::llround(v));
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

std::string Ratio(double num, double den) {
  if (!(num > 0) || !(den > 0)) return "—";
  char buf[32];
  std::snprintf(buf, sizeof(buf), num / den >= 10 ? "%.0f×" : "%.1f×", num / den);
  return buf;
}

std::string Size(const workloads::WorkloadParams& p) {
  return WithCommas(p.nodes) + " / " + WithCommas(p.initial_pods) + " / " +
         WithCommas(p.measured_pods);
}

nlohmann::json ResultJson(const WorkloadResult& w) {
  return {{"nodes", w.params.nodes},
          {"initial_pods", w.params.initial_pods},
          {"measured_pods", w.params.measured_pods},
          {"seed", w.params.seed},
          {"events", w.events},
          {"measured_bound", w.measured_bound},
          {"pods_per_second", w.pods_per_second},
          {"measured_seconds", w.measured_seconds},
          {"total_seconds", w.total_seconds}};
}

bool IsExecutable(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

Result<WorkloadResult> RunWorkloadExternal(const workloads::ShapeInfo& shape,
                                           const workloads::WorkloadParams& params,
                                           Sampling sampling, const std::string& label,
                                           const std::string& command, int64_t timeout_ms,
                                           std::ostream* progress, const std::string& compat) {
  WorkloadResult result;
  result.workload = std::string(shape.name);
  result.params = params;
  result.sampling = sampling;
  const Clock::time_point gen_start = Clock::now();
  auto workload = workloads::Generate(shape.name, params);
  if (!workload.ok()) return workload.error();
  result.generate_seconds = Seconds(gen_start, Clock::now());
  const std::vector<trace::Record>& records = workload->trace.records;
  result.events = static_cast<int64_t>(records.size());
  auto config = ConfigFor(shape, sampling, compat);
  if (!config.ok()) return config.error();

  replay::ReplayOptions options;
  options.compat = compat;
  options.config = config->config;
  options.epoch_unix_ns = *reference::ParseRfc3339(workloads::kStartTime);
  const protocol::Hello hello = protocol::HelloFor(
      options, config->text, config->text.empty() ? "" : ConfigSource(shape.name, sampling));
  MeasuredTracker tracker(workload->measured_pods);
  auto on_record = [&tracker](const trace::Record& r) { tracker.OnRecord(r); };

  const Clock::time_point start = Clock::now();
  Clock::time_point measured_start{}, measured_end{}, last_report = start;
  ChildDriver child(label, command);
  if (Outcome ok = child.Start(hello, timeout_ms); !ok) return ok.error();
  auto after_answer = [&] {
    if (tracker.TakeNewlyBound()) measured_end = Clock::now();
    if (progress != nullptr && Seconds(last_report, Clock::now()) >= 5) {
      last_report = Clock::now();
      *progress << "  " << label << ": " << shape.name << " " << params.nodes
                << " nodes: " << tracker.bound() << "/" << workload->measured_pods.size()
                << " measured pods bound, " << std::fixed << std::setprecision(1)
                << Seconds(start, last_report) << " s" << std::endl;
    }
  };
  bool measuring = false;
  int64_t t0 = 0, last = 0;
  bool any = false;
  for (size_t i = 0; i < records.size();) {
    if (!records[i].has_api()) {
      ++i;
      continue;
    }
    const int64_t t = records[i].time_ns();
    if (!any) t0 = t;
    any = true;
    last = t;
    protocol::Request request;
    protocol::Events* events = request.mutable_events();
    events->set_time_ns(t - t0);
    events->set_first_index(i);
    for (; i < records.size() && records[i].time_ns() == t; ++i) {
      if (records[i].has_api()) *events->add_events() = records[i].api();
    }
    if (!measuring && t >= workload->measured_start_ns && !workload->measured_pods.empty()) {
      measuring = true;
      measured_start = Clock::now();
    }
    const std::string what = "Events at t=" + replay::FormatSeconds(t - t0) + " s";
    if (Outcome ok = child.Decide(request, what, on_record); !ok) return ok.error();
    after_answer();
  }
  if (any) {
    protocol::Request request;
    request.mutable_finish()->set_end_ns(last - t0 + hello.horizon_ns());
    if (Outcome ok = child.Decide(request, "Finish", on_record); !ok) return ok.error();
    after_answer();
  }
  if (Outcome ok = child.Close(); !ok) return ok.error();
  result.total_seconds = Seconds(start, Clock::now());
  result.measured_bound = tracker.bound();
  if (result.measured_bound > 0) {
    result.measured_seconds = Seconds(measured_start, measured_end);
    result.pods_per_second =
        result.measured_seconds > 0 ? result.measured_bound / result.measured_seconds : 0;
    result.ns_per_pod_per_node =
        result.measured_seconds * 1e9 / result.measured_bound / params.nodes;
  }
  return result;
}

Result<SideBySideRow> RunSideBySide(const workloads::ShapeInfo& shape,
                                    const workloads::WorkloadParams& params, Sampling sampling,
                                    const std::vector<ChildScheduler>& children, int64_t timeout_ms,
                                    std::ostream* progress, reference::Engine engine,
                                    const std::string& compat) {
  SideBySideRow row;
  row.workload = std::string(shape.name);
  row.sampling = sampling;
  row.params = params;
  auto reference = RunWorkload(shape, params, progress, sampling, engine, compat);
  if (!reference.ok()) return reference.error();
  row.reference = std::move(*reference);
  if (progress != nullptr) {
    *progress << "  reference (" << reference::EngineName(engine)
              << "): " << row.reference.pods_per_second << " pods/s over "
              << row.reference.measured_bound << " measured pods" << std::endl;
  }
  for (const ChildScheduler& c : children) {
    ChildRun run{.label = c.label, .upstream = c.upstream, .result = std::nullopt, .note = c.note};
    if (!c.command.empty()) {
      auto r = RunWorkloadExternal(shape, params, sampling, c.label, c.command, timeout_ms,
                                   progress, compat);
      if (r.ok()) {
        run.result = std::move(*r);
        if (progress != nullptr) {
          *progress << "  " << c.label << ": " << run.result->pods_per_second << " pods/s over "
                    << run.result->measured_bound << " measured pods, " << run.result->total_seconds
                    << " s in all" << std::endl;
        }
      } else {
        run.note = "failed: " + r.message();
        if (progress != nullptr) *progress << "  " << run.note << std::endl;
      }
    }
    row.children.push_back(std::move(run));
  }
  return row;
}

std::string FormatSideBySide(const std::vector<SideBySideRow>& rows, double kube_scale,
                             const std::string& load_before) {
  if (rows.empty()) return "";
  // Columns: every child label in order of first appearance; ratios for the upstream ones.
  // A child that never ran (not built) keeps its pods/s column, with a note, but no ratios.
  std::vector<std::string> labels, upstream;
  std::string serve;
  for (const SideBySideRow& row : rows) {
    for (const ChildRun& c : row.children) {
      if (std::find(labels.begin(), labels.end(), c.label) == labels.end())
        labels.push_back(c.label);
    }
  }
  for (const std::string& l : labels) {
    bool ran = false, is_upstream = false;
    for (const SideBySideRow& row : rows) {
      for (const ChildRun& c : row.children) {
        if (c.label != l) continue;
        ran = ran || c.result.has_value();
        is_upstream = c.upstream;
      }
    }
    if (!ran) continue;
    if (is_upstream)
      upstream.push_back(l);
    else if (serve.empty())
      serve = l;
  }
  std::string out =
      "side by side: pods/s over the measured pods; every side of a row at the size under "
      "\"compared at\"\n\n";
  out +=
      "| sampling | workload | ref pods/s at full size (nodes / initial / measured) | compared at "
      "(nodes / initial / measured) | ref";
  for (const std::string& l : labels) out += " | " + l;
  for (const std::string& l : upstream) out += " | ref / " + l;
  if (!serve.empty()) {
    for (const std::string& l : upstream) out += " | " + serve + " / " + l;
  }
  out += " |\n|---|---|---|---|---";
  for (size_t i = 0; i < labels.size() + upstream.size() * (serve.empty() ? 1 : 2); ++i)
    out += "|---";
  out += "|\n";
  std::vector<std::string> notes;
  auto child = [](const SideBySideRow& row, const std::string& label) -> const ChildRun* {
    for (const ChildRun& c : row.children) {
      if (c.label == label) return &c;
    }
    return nullptr;
  };
  auto rate = [&](const SideBySideRow& row, const std::string& label) -> double {
    const ChildRun* c = child(row, label);
    return c != nullptr && c->result ? c->result->pods_per_second : 0;
  };
  for (const SideBySideRow& row : rows) {
    out += std::string("| ") + SamplingName(row.sampling) + " | " + row.workload + " | ";
    out += row.reference_full ? Rate(row.reference_full->pods_per_second) + " (" +
                                    Size(row.reference_full->params) + ")"
                              : "(as compared)";
    out += " | " + Size(row.params) + " | " + Rate(row.reference.pods_per_second);
    for (const std::string& l : labels) {
      const ChildRun* c = child(row, l);
      if (c == nullptr) {
        out += " | ";
      } else if (c->result) {
        out += " | " + Rate(c->result->pods_per_second);
        if (c->result->measured_bound != row.reference.measured_bound) {
          out += " (bound " + WithCommas(c->result->measured_bound) + ", ref " +
                 WithCommas(row.reference.measured_bound) + ")";
        }
      } else {
        const std::string note = l + ": " + c->note;
        if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
        out += c->note.rfind("failed", 0) == 0 ? " | failed" : " | —";
      }
    }
    for (const std::string& l : upstream)
      out += " | " + Ratio(row.reference.pods_per_second, rate(row, l));
    if (!serve.empty()) {
      for (const std::string& l : upstream) out += " | " + Ratio(rate(row, serve), rate(row, l));
    }
    out += " |\n";
  }
  char scale[64];
  std::snprintf(scale, sizeof(scale), "%g", kube_scale);
  out +=
      "\nMeasure: measured pods bound / wall time from handing over the instant of the first "
      "measured pod to\n"
      "learning the last measured pod's binding (scheduler_perf's), the same for every side. "
      "\"compared at\" = the\n"
      "bench's size times --kube-scale " +
      std::string(scale) + "; the reference (in process, engine " +
      std::string(reference::EngineName(rows.front().reference.engine)) +
      ") is run again at that size for the ratios.\n"
      "Children run over the protocol (one process per replay; events serialized, every attempt "
      "sent back with its\n"
      "full tie set); ";
  if (!serve.empty()) {
    out += "\"" + serve +
           "\" is the reference behind the same protocol (`schedcheck serve`), so \"" + serve +
           " / kube\" compares like with like.\n";
  } else {
    out += "the in-process reference streams only queue and binding records.\n";
  }
  out +=
      "sampling: \"adaptive\" = percentageOfNodesToScore unset (upstream's default: max(5, 50 - "
      "nodes/125) % of the\n"
      "nodes, at least 100); \"100\" = every feasible node scored. Machine: " +
      MachineNote() +
      (load_before.empty() ? std::string() : " (before the side by side: " + load_before + ")") +
      "; other processes may have been running.\n";
  for (const std::string& n : notes) out += "note: " + n + "\n";
  return out;
}

nlohmann::json SideBySideToJson(const std::vector<SideBySideRow>& rows, double kube_scale) {
  nlohmann::json doc = {
      {"kube_scale", kube_scale}, {"machine", MachineNote()}, {"rows", nlohmann::json::array()}};
  for (const SideBySideRow& row : rows) {
    nlohmann::json r = {{"workload", row.workload},
                        {"percentage_of_nodes_to_score", row.sampling == Sampling::kAll ? 100 : 0},
                        {"reference", ResultJson(row.reference)},
                        {"reference_engine", reference::EngineName(row.reference.engine)},
                        {"children", nlohmann::json::array()}};
    if (row.reference_full) r["reference_full_size"] = ResultJson(*row.reference_full);
    for (const ChildRun& c : row.children) {
      nlohmann::json j = {{"label", c.label}, {"upstream", c.upstream}};
      if (c.result) j["result"] = ResultJson(*c.result);
      if (!c.note.empty()) j["note"] = c.note;
      if (c.result && c.result->pods_per_second > 0) {
        j["reference_ratio"] = row.reference.pods_per_second / c.result->pods_per_second;
      }
      r["children"].push_back(std::move(j));
    }
    doc["rows"].push_back(std::move(r));
  }
  return doc;
}

const std::vector<std::string_view>& CampaignShapes() {
  static const auto* shapes = new std::vector<std::string_view>{
      "SchedulingBasic",
      "SchedulingNodeAffinity",
      "SchedulingPodAntiAffinity",
      "SchedulingPodAffinity",
      "TopologySpreading",
      "PreferredTopologySpreading",
      "Unschedulable",
      "MixedChurn",
      "PreemptionBasic",
      "SchedulingInTreePVs",
      "SchedulingMigratedInTreePVs",
      "SchedulingCSIPVs",
      "RequeueNodeAdd",
      "RequeuePodDelete",
      "RequeueTaintRemoval",
      "RequeueGateRemoval",
  };
  return *shapes;
}

Result<std::vector<CampaignTrace>> CampaignTraces(int count, uint64_t seed) {
  std::vector<const workloads::ShapeInfo*> shapes;
  for (std::string_view name : CampaignShapes()) {
    const workloads::ShapeInfo* shape = workloads::FindShape(name);
    if (shape == nullptr) return Error{"campaign shape " + std::string(name) + ": unknown"};
    shapes.push_back(shape);
  }
  std::vector<CampaignTrace> out;
  for (int i = 0; i < count; ++i) {
    const workloads::ShapeInfo& shape = *shapes[i % shapes.size()];
    workloads::WorkloadParams p = shape.defaults;
    p.seed = seed + i;
    if (shape.perf) {
      p.nodes = 5 + (i * 7) % 20;
      const double f = static_cast<double>(p.nodes) / shape.defaults.nodes;
      p.initial_pods = std::llround(shape.defaults.initial_pods * f);
      p.measured_pods = std::max<int64_t>(1, std::llround(shape.defaults.measured_pods * f));
    }
    const std::string name =
        std::string(shape.name) + "/" + std::to_string(p.nodes) + "n/s" + std::to_string(p.seed);
    auto w = workloads::Generate(shape.name, p);
    if (!w.ok()) return Error{name + ": " + w.message()};
    const int64_t records = static_cast<int64_t>(w->trace.records.size());
    if (p.nodes > kCampaignMaxNodes || records > kCampaignMaxRecords) {
      return Error{"campaign trace " + name + " is not small: " + std::to_string(p.nodes) +
                   " nodes, " + std::to_string(records) + " records (at most " +
                   std::to_string(kCampaignMaxNodes) + " and " +
                   std::to_string(kCampaignMaxRecords) + ")"};
    }
    auto config = ConfigFor(shape, Sampling::kAdaptive);
    if (!config.ok()) return config.error();
    out.push_back({name, config->text, std::move(config->config), std::move(w->trace.records)});
  }
  return out;
}

namespace {

void Count(const std::vector<trace::Record>& decisions, CampaignResult* out) {
  for (const trace::Record& r : decisions) {
    out->attempts += r.has_attempt();
    out->bindings += r.has_binding();
  }
}

void Finish(CampaignResult* out, Clock::time_point start) {
  out->seconds = Seconds(start, Clock::now());
  out->traces_per_second = out->seconds > 0 ? out->traces / out->seconds : 0;
}

}  // namespace

replay::ReplayOptions CampaignReplayOptions(const CampaignTrace& t, const std::string& compat) {
  replay::ReplayOptions options;
  options.compat = compat;
  options.config = t.config_text.empty() ? reference::DefaultConfiguration(compat) : t.config;
  options.epoch_unix_ns = *reference::ParseRfc3339(workloads::kStartTime);
  return options;
}

void TakeProfile(const std::string& path, const std::string& label, CampaignResult* out) {
  auto p = ReadAdapterProfile(path);
  std::remove(path.c_str());
  if (!p.ok()) return;  // a child that keeps no profile
  p->label = label;
  out->profiles.push_back(std::move(*p));
}

Result<CampaignResult> RunCampaignReference(const std::vector<CampaignTrace>& traces,
                                            reference::Engine engine, const std::string& compat) {
  CampaignResult out;
  out.label = "reference (in process, " + std::string(reference::EngineName(engine)) + ")";
  const Clock::time_point start = Clock::now();
  for (const CampaignTrace& t : traces) {
    replay::ReplayOptions options = CampaignReplayOptions(t, compat);
    options.engine = engine;
    auto replayer = replay::Replayer::Create(std::move(options));
    if (!replayer.ok()) return Error{t.name + ": " + replayer.message()};
    if (Outcome ok = (*replayer)->Run(t.records); !ok) return Error{t.name + ": " + ok.message()};
    Count((*replayer)->log().records(), &out);
    out.events += static_cast<int64_t>(t.records.size());
    ++out.traces;
  }
  Finish(&out, start);
  return out;
}

CampaignResult RunCampaignExternal(const std::vector<CampaignTrace>& traces,
                                   const std::string& label, const std::string& command,
                                   int64_t timeout_ms, const std::string& compat) {
  CampaignResult out;
  out.label = label;
  const Clock::time_point start = Clock::now();
  // One child serves every trace (a new Hello after each Finish), as campaigns run.
  const std::string profile = NewProfilePath();
  protocol::ReplaySession session(WithProfile(command, profile), timeout_ms);
  for (const CampaignTrace& t : traces) {
    const bool starts_child = session.runs_on_child() == 0;
    protocol::ExternalReplay run = session.Replay(
        t.records, protocol::HelloFor(CampaignReplayOptions(t, compat), t.config_text,
                                      t.config_text.empty() ? "" : "bench campaign"));
    if (starts_child) ++out.processes_started;
    if (!run.status.ok()) {
      out.note = "failed on " + t.name + ": " + run.status.message();
      break;
    }
    Count(run.decisions, &out);
    out.events += static_cast<int64_t>(t.records.size());
    ++out.traces;
  }
  if (Outcome ok = session.Close(); !ok && out.note.empty())
    out.note = "closing the child: " + ok.message();
  Finish(&out, start);
  out.child_cpu_seconds = static_cast<double>(session.closed_children_cpu_ns()) / 1e9;
  TakeProfile(profile, label, &out);
  return out;
}

std::string FormatCampaign(const std::vector<CampaignResult>& results) {
  if (results.empty()) return "";
  std::string out = "random-trace campaign: traces per second (" +
                    std::to_string(results.front().traces) +
                    " small generated traces, each a separate replay; a pair replays each trace "
                    "through both builds and diffs the logs)\n\n"
                    "| scheduler | traces | traces/s | ms per trace | attempts | bindings | "
                    "processes started | traces that differ | ref speed-up |\n"
                    "|---|---|---|---|---|---|---|---|---|\n";
  const double ref = results.front().traces_per_second;
  std::vector<std::string> notes;
  std::vector<AdapterProfile> profiles;
  for (const CampaignResult& r : results) {
    char ms[32];
    std::snprintf(ms, sizeof(ms), "%.2f", r.traces > 0 ? r.seconds * 1000 / r.traces : 0.0);
    out += "| " + r.label + " | " + std::to_string(r.traces) + " | " + Rate(r.traces_per_second) +
           " | " + ms + " | " + WithCommas(r.attempts) + " | " + WithCommas(r.bindings) + " | " +
           (r.processes_started == 0 ? std::string("0 (in process)")
                                     : std::to_string(r.processes_started)) +
           " | " + (r.divergent < 0 ? std::string("—") : WithCommas(r.divergent)) + " | " +
           (&r == &results.front() ? std::string("—") : Ratio(ref, r.traces_per_second)) + " |\n";
    if (!r.note.empty()) notes.push_back(r.label + ": " + r.note);
    for (AdapterProfile p : r.profiles) {
      if (p.label != r.label) p.label = r.label + ": " + p.label;
      profiles.push_back(std::move(p));
    }
  }
  out +=
      "\nOne child process serves a whole campaign (protocol::ReplaySession: a new Hello after "
      "each Finish); its start is included in the time.\n";
  for (const std::string& n : notes) out += "note: " + n + "\n";
  if (!profiles.empty()) out += "\n" + FormatShares(profiles, results.front().traces);
  return out;
}

nlohmann::json CampaignToJson(const std::vector<CampaignResult>& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const CampaignResult& r : results) {
    nlohmann::json j = {{"label", r.label},
                        {"traces", r.traces},
                        {"events", r.events},
                        {"attempts", r.attempts},
                        {"bindings", r.bindings},
                        {"seconds", r.seconds},
                        {"traces_per_second", r.traces_per_second},
                        {"processes_started", r.processes_started}};
    if (r.divergent >= 0) j["divergent"] = r.divergent;
    if (r.child_cpu_seconds > 0) j["child_cpu_seconds"] = r.child_cpu_seconds;
    if (!r.note.empty()) j["note"] = r.note;
    for (const AdapterProfile& p : r.profiles) j["profiles"].push_back(ProfileToJson(p));
    out.push_back(std::move(j));
  }
  return out;
}

std::string FindSchedcheck() {
  const candidates::AdapterSearch search = candidates::AdapterSearch::FromEnvironment();
  std::vector<std::string> paths;
  if (!search.executable.empty()) {
    paths.push_back((std::filesystem::path(search.executable).parent_path().parent_path() / "cli" /
                     "schedcheck")
                        .string());
  }
  for (const std::string& dir : search.runfiles_dirs)
    paths.push_back(dir + "/schedcheck/harness/cli/schedcheck");
  for (const std::string& p : paths) {
    if (IsExecutable(p)) return p;
  }
  return "";
}

std::string LoadAverage() {
  std::ifstream loadavg("/proc/loadavg");
  std::string a, b, c;
  if (loadavg >> a >> b >> c) return "load average " + a + " " + b + " " + c;
  return "";
}

std::string MachineNote() {
  std::string out = std::to_string(std::thread::hardware_concurrency()) + " cores";
  if (std::string load = LoadAverage(); !load.empty()) out += ", " + load;
  return out;
}

}  // namespace schedcheck::bench
