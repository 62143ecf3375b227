// Replay of a trace in virtual time against the reference scheduler
// (docs/FORMATS.md#replay-conventions). Trace events go to the Scheduler's informer handlers
// (reference/scheduler/scheduler.h); the replay owns virtual time and chooses the instants the
// Scheduler's steps run at: the periodic flushes on 1 s / 30 s ticks aligned to the trace start,
// a scheduling cycle whenever activeQ is non-empty and no cycle is in flight, bindings after the
// configured latency. Same trace, configuration and seed: byte-identical decisions.
#ifndef SCHEDCHECK_HARNESS_REPLAY_REPLAYER_H_
#define SCHEDCHECK_HARNESS_REPLAY_REPLAYER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/replay/decision_log.h"
#include "harness/replay/follow_cluster.h"
#include "harness/replay/summary.h"
#include "reference/api/pod_requests.h"
#include "reference/base/clock.h"
#include "reference/base/feature_gates.h"
#include "reference/base/features.h"
#include "reference/engine/engine.h"
#include "reference/runtime/profile.h"
#include "reference/scheduler/scheduler.h"
#include "traces/trace.pb.h"

namespace schedcheck::replay {

inline constexpr int64_t kDefaultHorizonNs = 600 * kNanosPerSecond;

// Limits on virtual time (harness/fuzz/README.md), far beyond any real capture, so that no
// sum the replay forms (a time since the first event + horizon + latencies + the 5-minute
// unschedulable timeout + a flush tick, or + the epoch for plugins reading the clock) can overflow
// int64: event times since the first event are at most kMaxTraceSpanNs (100 years); the horizon
// and the latencies at most kMaxDurationNs (10^9 s); |epoch_unix_ns| at most kMaxTraceSpanNs.
// Larger values are rejected with an error naming the record or option.
inline constexpr int64_t kMaxTraceSpanNs = int64_t{100} * 365 * 24 * 3600 * kNanosPerSecond;
inline constexpr int64_t kMaxDurationNs = int64_t{1'000'000'000} * kNanosPerSecond;

// What a progress callback is told (ReplayOptions::progress).
struct ReplayProgress {
  size_t events_done = 0;   // trace events delivered
  size_t events_total = 0;  // trace events in the input (0: not known)
  // The part of the input file read, 0 to 1, for a caller that reads the file as the replay goes
  // and knows no events_total (the replayer leaves it at -1: not known).
  double input_read = -1;
  int64_t virtual_time_ns = 0;  // the instant just run, since the first event
  size_t pods_bound = 0;        // bindings completed
  bool finished = false;        // the horizon after the last event has run too
};

struct ReplayOptions {
  reference::SchedulerConfiguration config;
  std::string compat;  // "1.27" or "1.37". REQUIRED: there is no default level.
  // `--feature-gates` (compat 1.37 only; reference/base/feature_gates.h); empty: the defaults.
  reference::FeatureGates feature_gates;
  uint64_t seed = 1;
  // Plain rules or the accelerator (reference/engine/engine.h): the same decisions either way.
  reference::Engine engine = reference::Engine::kFast;
  // How long virtual time keeps running after the last trace event: 10 minutes by default, long
  // enough for the 5-minute unschedulable timeout plus its 30 s flush tick to show.
  int64_t horizon_ns = kDefaultHorizonNs;
  int64_t cycle_latency_ns = 0;  // a scheduling cycle's duration
  int64_t bind_latency_ns = 0;   // from assume to the binding being applied
  int64_t epoch_unix_ns = 0;     // the wall-clock instant t = 0 stands for (plugins reading time)
  // The volume controllers (volume_controllers.h; docs/FORMATS.md, "Volume controllers"):
  // VolumeBinding's PreBind writes succeed, and the PV controller and a provisioner answer them
  // at once. Off: no API server holds volumes and the first write fails as NotFound (a captured
  // trace already holds what the controllers wrote).
  bool volume_controllers = false;
  // With volume_controllers: how long after PreBind's writes reach the informers the controllers'
  // answers do (`--volume-latency`). 0: at once, and PreBind decides in no virtual time; more:
  // PreBind polls every second, as upstream, while other pods are scheduled.
  int64_t volume_latency_ns = 0;
  // The plugins frameworks are built from (in-process candidate builds); null = the engine's.
  const reference::Registry* registry = nullptr;
  // Called by Run as the replay advances, for progress reports on a terminal: after the instant
  // that delivers at least `progress_every_events` events since the previous call (and after the
  // last event's instant), then once more with `finished` after the horizon. Counts only grow;
  // the last call has events_done == events_total. Never affects decisions; reads no clock.
  std::function<void(const ReplayProgress&)> progress;
  size_t progress_every_events = 1000;
  // Decision records as they happen; with retain_log = false they are not kept in log().
  std::function<void(const trace::Record&)> on_record;
  bool retain_log = true;
  // False: attempt records are neither kept nor streamed, only queue and binding records (for a
  // consumer that counts bindings, such as the benchmark: a record names every tied node, often
  // thousands). Decisions are the same either way.
  bool log_attempts = true;
  // Follow the cluster (follow_cluster.h): each binding the input observed (a capture's Binding
  // record with `observed`) puts the replay's copy of the pod on the cluster's node, after the
  // replay's own decision; follow_report() classifies them. Off: observed records are ignored.
  bool follow_cluster = false;
  // `--scores K`: each scheduled attempt records the scores of the top K nodes of its score phase
  // (trace.proto Attempt.scores); 0: none. Decisions are the same either way.
  uint32_t record_scores = 0;
};

// Whether the trace header asks for the volume controllers model (label `volume_controllers:
// "on"`): a trace written for it leaves the PV controller's and provisioner's writes out. `replay`,
// `gate`, the candidates and the golden test turn ReplayOptions::volume_controllers on for it, as
// --volume-controllers does.
bool HeaderAsksForVolumeControllers(const trace::Header& header);
// The controllers' latency a trace header asks for (label `volume_latency`, in seconds, e.g.
// "2.5"): nullopt without the label, an error naming the label for a value that is not a
// duration in [0, kMaxDurationNs].
Result<std::optional<int64_t>> HeaderVolumeLatency(const trace::Header& header);
// Applies both labels over the run's flags: the model on when either asks for it; the label's
// latency when the flags gave none.
Outcome ApplyHeaderVolumeLabels(const trace::Header& header, ReplayOptions* options);

// Input updates that named another node, or none, for a pod already bound: nodeName is immutable
// once set (the API server's rule), so the pod stays where it was bound and the update's other
// fields apply (docs/FORMATS.md#replay-conventions).
struct KeptPlacements {
  int64_t count = 0;
  std::vector<std::string> first;  // the first kMaxListed, one line each
  static constexpr size_t kMaxListed = 10;
};

class Replayer {
 public:
  static Result<std::unique_ptr<Replayer>> Create(ReplayOptions options);
  ~Replayer();

  // Replays `records` (API events; decision records in the input are ignored). Errors name the
  // record index and the object (e.g. a pod with an invalid quantity). Equivalent to calling
  // ProcessEvents for each instant's events (times shifted so the first event is at 0), then
  // Finish(last event time + horizon).
  Outcome Run(const std::vector<trace::Record>& records);
  // The same over records pulled one at a time, for traces too large to hold (replay reads its
  // file as it goes): `next` fills *record and returns true, false at the end of the input, or
  // an error that ends the replay. Only the current instant's events are held. Errors about the
  // input (time going backwards, a span beyond kMaxTraceSpanNs) come when the record is reached,
  // worded as Run's. `events_total` goes to the progress callback (0: not known).
  using RecordSource = std::function<Result<bool>(trace::Record* record)>;
  Outcome Run(const RecordSource& next, size_t events_total);

  // Incremental driving, for the external-scheduler protocol. Runs every internal instant (flush
  // ticks, cycle and binding completions) before `t_ns`, then delivers `events` (all stamped
  // `t_ns`, in order) and runs that instant. REQUIRES: t_ns greater than the previous call's.
  // `first_index` numbers the events in error messages. An error when t_ns is negative or above
  // kMaxTraceSpanNs.
  Outcome ProcessEvents(int64_t t_ns, const std::vector<const trace::ApiEvent*>& events,
                        size_t first_index = 0);
  // Runs the internal instants up to and including `end_ns` (at most kMaxTraceSpanNs +
  // kMaxDurationNs: a later end is that one).
  void Finish(int64_t end_ns);

  const DecisionLog& log() const { return log_; }
  DecisionLog& mutable_log() { return log_; }
  // Every move request made, with its event label, for the summary.
  const ClusterEventLog& cluster_events() const { return cluster_events_; }
  // Whether the queue asks QueueingHints (v1.37) when an event arrives.
  bool queueing_hints() const { return features_.scheduler_queueing_hints; }
  // Parallel to cluster_events(): the plugins of the profiles that registered each event.
  const std::vector<std::set<std::string>>& event_registrants() const { return event_registrants_; }
  const KeptPlacements& kept_placements() const { return kept_placements_; }
  // With ReplayOptions::follow_cluster (else empty).
  const FollowReport& follow_report() const { return follower_.report(); }

 private:
  class VolumeApiImpl;

  Replayer(ReplayOptions options, const reference::Features& features);
  // Both Runs: `next` gives each record (null at the end), valid until `drop_all_but_last` (null
  // when records live for the whole run) is called after each instant's events have run.
  Outcome RunRecords(const std::function<Result<const trace::Record*>()>& next,
                     const std::function<void()>& drop_all_but_last, size_t events_total);
  Outcome Init();

  // Following the cluster: brings the replay up to just before `t_ns`, then makes `events` the
  // instant's input events with each observed binding among `records` replaced by the events
  // the follower makes of it (kept in `synthesized`).
  Outcome FollowInstant(int64_t t_ns, const std::vector<const trace::Record*>& records,
                        size_t first_index, std::deque<trace::ApiEvent>* synthesized,
                        std::vector<const trace::ApiEvent*>* events);
  // Trace events → the scheduler's informer handlers (replay_events.cc).
  Outcome Deliver(const trace::ApiEvent& event, size_t index);
  // Keeps a bound pod's node in an input event that names another or none.
  void KeepBoundNode(trace::EventType type, size_t index, k8s::Pod* pod);
  // The Priority admission plugin, for pods as clients wrote them.
  void AdmitPriority(trace::EventType type, k8s::Pod* pod) const;
  // A storage object event (from the trace, or a write of the volume controllers' API server).
  void DeliverStorage(const trace::ApiEvent& event);
  // A PersistentVolume's or claim's resourceVersion as the adapters' API server stamps it.
  void StampVersion(k8s::ObjectMeta* meta);
  // A DRA object to the scheduler at 1.37; what the model does not cover is an input error.
  Outcome DeliverDra(const trace::ApiEvent& event, const std::string& where);
  // The scheduler's attempt, as a decision record.
  void RecordAttempt(const reference::QueuedPodInfo& info, const reference::CycleOutcome& outcome);

  // Virtual time (replayer.cc).
  int64_t NextInstant(int64_t now, int64_t next_event) const;
  // Runs internal instants strictly before `limit_ns`.
  void AdvanceTo(int64_t limit_ns);
  // One instant: its events, finishing cycles and bindings, flushes, then scheduling.
  Outcome ProcessInstant(int64_t t_ns, const std::vector<const trace::ApiEvent*>& events,
                         size_t first_index);
  // Scheduling cycles while activeQ has pods; the instant's duringAttempt events arrive right
  // after the first one's SchedulePod.
  void RunSchedulingAtThisInstant(std::deque<const trace::ApiEvent*>& during_attempt,
                                  size_t* index);
  bool started_ = false;

  ReplayOptions options_;
  // The run's features: FeaturesFor(options_.compat, options_.feature_gates), built once by
  // Create (which reports a level or gate it refuses).
  const reference::Features features_;
  VirtualClock clock_;
  std::unique_ptr<VolumeApiImpl> volume_api_;  // with options_.volume_controllers only
  std::unique_ptr<reference::Scheduler> scheduler_;
  // When the scheduling cycle in flight finishes (cycle_latency_ns after it started).
  std::optional<int64_t> cycle_finish_ns_;
  uint64_t version_stamp_ = 0;  // the last resourceVersion given or stamped (StampVersion)
  DecisionLog log_;
  Outcome deliver_error_;
  ClusterEventLog cluster_events_;
  std::vector<std::set<std::string>> event_registrants_;
  // (registered event, plugin) of every profile, with or without hints as the queue runs.
  std::vector<std::pair<reference::ClusterEvent, std::string>> registrations_;
  std::set<std::string> Registrants(const reference::ClusterEvent& event) const;
  size_t pods_bound_ = 0;  // bindings completed, for progress reports
  KeptPlacements kept_placements_;
  ClusterFollower follower_;  // with options_.follow_cluster
};

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_REPLAYER_H_
