// Replay of a trace in virtual time against the reference scheduler
// (docs/FORMATS.md#replay-conventions). Trace events update the cache and the queue as
// kube-scheduler's informer handlers do; the periodic flushes run on 1 s / 30 s ticks aligned to
// the trace start; a scheduling cycle runs whenever activeQ is non-empty and no cycle is in flight;
// bindings complete after the configured latency. Same trace, configuration and seed:
// byte-identical decisions.
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
#include "harness/replay/summary.h"
#include "reference/api/pod_requests.h"
#include "reference/base/clock.h"
#include "reference/base/feature_gates.h"
#include "reference/cache/cache.h"
#include "reference/engine/engine.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/runtime/framework.h"
#include "reference/runtime/profile.h"
#include "reference/runtime/queue_setup.h"
#include "reference/scheduler/scheduling_cycle.h"
#include "traces/trace.pb.h"

namespace schedcheck::replay {

inline constexpr int64_t kDefaultHorizonNs = 600 * kNanosPerSecond;

// Limits on virtual time (README.md, "Untrusted input"), far beyond any real capture, so that no
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
  std::string compat = "1.27";
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

 private:
  struct Profile;
  struct InFlight;
  struct Binding;
  class VolumeApiImpl;

  explicit Replayer(ReplayOptions options);
  // Both Runs: `next` gives each record (null at the end), valid until `drop_all_but_last` (null
  // when records live for the whole run) is called after each instant's events have run.
  Outcome RunRecords(const std::function<Result<const trace::Record*>()>& next,
                     const std::function<void()>& drop_all_but_last, size_t events_total);
  Outcome Init();

  // Informer handlers (eventhandlers.go).
  Outcome Deliver(const trace::ApiEvent& event, size_t index);
  void AdmitPriority(trace::EventType type, k8s::Pod* pod) const;
  Outcome OnPod(trace::EventType type, reference::PodPtr pod);
  Outcome OnNode(trace::EventType type, reference::NodePtr node);
  // A storage object event: its informer store, then the move upstream's handler for that kind
  // makes when some profile registered the kind with that action (addAllEventHandlers).
  Outcome OnStorage(const trace::ApiEvent& event);
  // A PersistentVolume's or claim's resourceVersion as the adapters' API server stamps it.
  void StampVersion(k8s::ObjectMeta* meta);
  // `objects`: the event's old and new objects (v1.37 queueing hints read them).
  void MoveForStorage(trace::EventType type, std::string_view resource, std::string_view short_name,
                      const k8s::StorageClass* added_class, const reference::EventObjects& objects);
  void AddAssignedPod(const reference::PodPtr& pod);
  void DeleteAssignedPod(const reference::PodPtr& pod);
  void UpdatePendingPod(const reference::PodPtr& old_pod, const reference::PodPtr& new_pod);
  // The same handlers at compat 1.37 (eventhandlers.go at v1.37.2; replay_handlers_v1_37.cc).
  Outcome OnPodV1_37(reference::PodPtr old, reference::PodPtr pod, bool deleted);
  Outcome OnNodeV1_37(trace::EventType type, reference::NodePtr node);
  void UpdatePendingPodV1_37(const reference::PodPtr& old_pod, const reference::PodPtr& new_pod);
  void DeletePendingPodV1_37(const reference::PodPtr& pod, bool in_binding);
  void HandleAssumedPodDeletionV1_37(const std::string& uid);
  void MoveAllV1_37(const reference::ClusterEvent& event, const reference::EventObjects& objects,
                    const reference::PreEnqueueCheck& pre_check = nullptr);
  // The queue of the run's level.
  bool v1_37() const { return queue37_ != nullptr; }
  reference::Nominator& nominator();
  std::optional<reference::QueuedPodInfo> QueuePop();
  void QueueDone(const reference::Pod& pod);

  // Scheduling and binding cycles.
  Profile* ProfileFor(const reference::Pod& pod);
  // Pops the next pod and runs its scheduling cycle; `after_schedule_pod` runs inside it, right
  // after SchedulePod (RunSchedulingCycle).
  bool StartCycle(const std::function<void()>& after_schedule_pod = nullptr);
  void FinishCycle();
  void HandleFailure(const reference::QueuedPodInfo& info, const reference::CycleOutcome& outcome);
  void ApplyPreemption(const reference::Pod& preemptor, const reference::CycleOutcome& outcome);
  // Runs a binding cycle due now: from its start, or, when it waits in PreBind, its next look.
  void CompleteBinding(Binding binding);
  // PreBind returned Wait: the binding looks again a poll interval later.
  void WaitInPreBind(Binding binding);
  // v1.37: delivers the binding cycle's nominatedNodeName patch after a failed binding.
  void ApplyExpectationNomination(const Binding& binding);
  void RecordAttempt(const reference::QueuedPodInfo& info, const reference::CycleOutcome& outcome);
  void RunSchedulingAtThisInstant(std::deque<const trace::ApiEvent*>& during_attempt,
                                  size_t* index);

  int64_t NextInstant(int64_t now, int64_t next_event) const;
  // The next backoff or leftover flush tick after `now` at which the 1.37 queue would move a pod.
  int64_t NextQueueInstantV1_37(int64_t now) const;
  // Runs internal instants strictly before `limit_ns`.
  void AdvanceTo(int64_t limit_ns);
  // One instant: its events, finishing cycles and bindings, flushes, then scheduling.
  Outcome ProcessInstant(int64_t t_ns, const std::vector<const trace::ApiEvent*>& events,
                         size_t first_index);
  bool started_ = false;

  ReplayOptions options_;
  VirtualClock clock_;
  reference::Cache cache_;
  reference::Snapshot snapshot_;
  reference::ClusterObjects objects_;
  // The actions the profiles register per resource (upstream's unionedGVKs): which informer
  // handlers exist.
  std::map<std::string, uint32_t, std::less<>> registered_actions_;
  std::vector<std::unique_ptr<Profile>> profiles_;
  std::unique_ptr<reference::SchedulingQueue> queue_;         // compat 1.27
  std::unique_ptr<reference::SchedulingQueueV1_37> queue37_;  // compat 1.37
  std::unique_ptr<reference::PodScheduler> scheduler_;
  std::map<std::string, reference::PodPtr> api_pods_;  // by "ns/name": what the API server holds
  // api_pods_ as the plugins' pod lister (Handle::pods).
  class ApiPodLister final : public reference::PodLister {
   public:
    explicit ApiPodLister(const std::map<std::string, reference::PodPtr>& pods) : pods_(pods) {}
    reference::PodPtr Get(const std::string& key) const override {
      auto it = pods_.find(key);
      return it == pods_.end() ? nullptr : it->second;
    }

   private:
    const std::map<std::string, reference::PodPtr>& pods_;
  };
  ApiPodLister api_pod_lister_{api_pods_};
  std::map<std::string, reference::NodePtr> api_nodes_;  // by name
  std::unique_ptr<InFlight> in_flight_;
  uint64_t version_stamp_ = 0;  // the last resourceVersion given or stamped (StampVersion)
  std::unique_ptr<VolumeApiImpl> volume_api_;  // with options_.volume_controllers only
  std::vector<Binding> bindings_;              // in start order
  DecisionLog log_;
  Outcome deliver_error_;
  ClusterEventLog cluster_events_;
  std::set<std::string> async_preemptions_;  // v1.37: Handle::async_preemptions
  // v1.37: how pods' requests are counted under the run's gates (BuildPod, update events).
  reference::PodResourceGates pod_resource_gates_;
  // v1.37's GenericWorkload gate: new pending pods are UnscheduledPodAdd events, and the batch
  // serves pods of the same cycle (pod groups themselves are not modelled).
  bool generic_workload_ = false;
  size_t pods_bound_ = 0;  // bindings completed, for progress reports
  void MoveAll(const reference::ClusterEvent& event,
               const std::function<bool(const reference::Pod&)>& pre_check = nullptr);
};

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_REPLAYER_H_
