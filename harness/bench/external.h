// The benchmark's side-by-side part: the same generated scheduler_perf workloads replayed by the
// reference in process and by schedulers running as child processes over the external-scheduler
// protocol (harness/protocol/PROTOCOL.md) — the real kube-scheduler adapters
// (//harness/kube:kube-adapter-VERSION) and `schedcheck serve` (the reference behind the same
// protocol, which shows what the protocol itself costs) — measured alike in one run; and a
// campaign of many small traces, each a separate replay, in traces per second.
//
// Measure (both sides): scheduler_perf's — measured pods bound divided by the wall time from the
// moment the instant holding the first measured pod is handed to the scheduler (in process:
// ProcessEvents is called; child: its Events request is sent) to the moment the last measured
// pod's binding is known (in process: the instant that bound it returned; child: the answer
// carrying the binding arrived). A child's time includes the protocol: every event serialized,
// the child's object conversion, and every decision record sent back with its full tie set
// (the in-process reference streams only queue and binding records). After the last trace event,
// the in-process replay advances one second at a time until every measured pod is bound; a child
// gets one Finish request (last event + the default 10-minute horizon).
#ifndef SCHEDCHECK_HARNESS_BENCH_EXTERNAL_H_
#define SCHEDCHECK_HARNESS_BENCH_EXTERNAL_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "harness/bench/adapter_profile.h"
#include "harness/bench/bench.h"
#include "harness/replay/replayer.h"
#include "harness/workloads/workloads.h"
#include "nlohmann/json.hpp"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "traces/trace.pb.h"

namespace schedcheck::bench {

// A scheduler the side-by-side runs as a child process.
struct ChildScheduler {
  std::string label;      // "kube 1.27", "ref via serve"
  std::string command;    // run as `/bin/sh -c command`; empty: unavailable (see note)
  std::string note;       // why it is unavailable ("not built: bazel build ...")
  bool upstream = false;  // a real kube-scheduler: gets the ratio columns
};

// Replays the workload against the child `command`, measured as above. Errors: generation, the
// child's failure (naming `label` and the request), or a protocol violation.
Result<WorkloadResult> RunWorkloadExternal(const workloads::ShapeInfo& shape,
                                           const workloads::WorkloadParams& params,
                                           Sampling sampling, const std::string& label,
                                           const std::string& command, int64_t timeout_ms,
                                           std::ostream* progress,
                                           const std::string& compat = "1.27");

struct ChildRun {
  std::string label;
  bool upstream = false;
  std::optional<WorkloadResult> result;  // nullopt: see note
  std::string note;                      // unavailable, or the failure
};

// One shape and sampling, every side at the same size (`params`).
struct SideBySideRow {
  std::string workload;
  Sampling sampling = Sampling::kAll;
  // The reference at the bench's own size (the first table), when it differs from `params`.
  std::optional<WorkloadResult> reference_full;
  workloads::WorkloadParams params;
  WorkloadResult reference;  // in process, at `params`
  std::vector<ChildRun> children;
};

// Runs the reference (in process, `engine`), then each child in order, at `params`. A child that
// fails or is unavailable gets a note (the row still counts); the reference failing is an error.
Result<SideBySideRow> RunSideBySide(const workloads::ShapeInfo& shape,
                                    const workloads::WorkloadParams& params, Sampling sampling,
                                    const std::vector<ChildScheduler>& children, int64_t timeout_ms,
                                    std::ostream* progress,
                                    reference::Engine engine = reference::Engine::kFast,
                                    const std::string& compat = "1.27");

// A markdown table (pods/s per side, ratios reference / each upstream child that ran) plus its
// notes; `load_before` (LoadAverage() when the runs started) goes into the machine note.
std::string FormatSideBySide(const std::vector<SideBySideRow>& rows, double kube_scale,
                             const std::string& load_before = "");
nlohmann::json SideBySideToJson(const std::vector<SideBySideRow>& rows, double kube_scale);

// A small generated trace of the random-trace campaign.
struct CampaignTrace {
  std::string name;         // "SchedulingBasic/12n/s7"
  std::string config_text;  // Hello.config_yaml (empty: the default profile)
  reference::SchedulerConfiguration config;
  std::vector<trace::Record> records;
};

// The shapes the campaign draws from, in order: the twelve scheduler_perf shapes (scaled down to
// 5-24 nodes, their pods alike) and the four requeue shapes at their own small defaults (3 nodes).
// An explicit list, so that a new shape joins the campaign only when someone puts it here: the
// shapes left out are RequeueMissingRegistration (it needs the CreationDelay plugin, which a kube
// adapter does not have) and DayChurn (a day of a 5,000-node cluster, the capture-scale bench's).
const std::vector<std::string_view>& CampaignShapes();

// What makes a campaign trace small, checked on every trace CampaignTraces makes: a campaign
// measures the cost of many short replays (process reuse, Hello, framing), not of one long one.
inline constexpr int64_t kCampaignMaxNodes = 24;
inline constexpr int64_t kCampaignMaxRecords = 2'000;

// `count` small traces cycling through CampaignShapes(), with seeds seed, seed+1, ... Errors: a
// generator failure, or a trace above the caps (naming the shape and its size).
Result<std::vector<CampaignTrace>> CampaignTraces(int count, uint64_t seed);

struct CampaignResult {
  std::string label;
  int traces = 0;
  int64_t events = 0;    // API events replayed, all traces
  int64_t attempts = 0;  // scheduling attempts in the decision logs
  int64_t bindings = 0;  // bindings in the decision logs
  double seconds = 0;    // wall time of the whole campaign (trace generation excluded)
  double traces_per_second = 0;
  int processes_started = 0;  // child processes (0: in process)
  std::string note;           // a failure: the campaign stopped there
  int64_t divergent = -1;     // a pair of builds: traces whose two logs differ (else -1)
  // One child alone: its CPU seconds (user and system, from the kernel when it was reaped), any
  // build, profile or not; 0 in process or for a pair.
  double child_cpu_seconds = 0;
  std::vector<AdapterProfile> profiles;  // the children's own profiles, when they wrote one
};

// Every trace replayed in process by `engine`, one Replayer per trace, keeping the full decision
// log as a campaign that diffs the logs would. Labelled "reference (in process, ENGINE)".
Result<CampaignResult> RunCampaignReference(const std::vector<CampaignTrace>& traces,
                                            reference::Engine engine = reference::Engine::kFast,
                                            const std::string& compat = "1.27");
// Every trace replayed by the child, one process for the whole campaign (protocol::ReplaySession,
// a new Hello per trace); the child is asked for its profile (adapter_profile.h).
CampaignResult RunCampaignExternal(const std::vector<CampaignTrace>& traces,
                                   const std::string& label, const std::string& command,
                                   int64_t timeout_ms, const std::string& compat = "1.27");

// How a campaign trace is replayed at `compat`: its configuration (the default profile at that
// level when the trace has none of its own) and the workloads' epoch.
replay::ReplayOptions CampaignReplayOptions(const CampaignTrace& t, const std::string& compat);
// Reads the child's profile at `path` into out->profiles as `label`, and removes the file;
// nothing when the child wrote none.
void TakeProfile(const std::string& path, const std::string& label, CampaignResult* out);

std::string FormatCampaign(const std::vector<CampaignResult>& results);
nlohmann::json CampaignToJson(const std::vector<CampaignResult>& results);

// `schedcheck`'s path for the "ref via serve" side: <exe dir>/../cli/schedcheck (bazel-bin's
// layout), else the runfiles ($RUNFILES_DIR, $TEST_SRCDIR, <exe>.runfiles) +
// /schedcheck/harness/cli/ schedcheck. Empty when not found.
std::string FindSchedcheck();

// "2 cores, load average 1.52 1.40 1.10" (from /proc), for the output's notes.
std::string MachineNote();
// "load average 1.52 1.40 1.10"; empty where /proc/loadavg is missing.
std::string LoadAverage();

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_EXTERNAL_H_
