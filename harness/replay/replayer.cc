// Replayer: construction and the virtual-time loop.
#include "harness/replay/replayer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "harness/replay/replayer_internal.h"

namespace schedcheck::replay {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

}  // namespace

Replayer::Replayer(ReplayOptions options, const reference::Features& features)
    : options_(std::move(options)), features_(features) {}

bool HeaderAsksForVolumeControllers(const trace::Header& header) {
  auto label = header.labels().find("volume_controllers");
  return label != header.labels().end() && label->second == "on";
}

Result<std::optional<int64_t>> HeaderVolumeLatency(const trace::Header& header) {
  auto label = header.labels().find("volume_latency");
  if (label == header.labels().end()) return std::optional<int64_t>();
  const std::string& text = label->second;
  char* end = nullptr;
  const double seconds = text.empty() ? -1 : std::strtod(text.c_str(), &end);
  const double max_seconds = static_cast<double>(kMaxDurationNs) / kNanosPerSecond;
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(seconds) || seconds < 0 ||
      seconds > max_seconds) {
    return Error{"header label volume_latency: \"" + text +
                 "\" is not a number of seconds in [0, " +
                 std::to_string(static_cast<int64_t>(max_seconds)) + "]"};
  }
  return std::optional<int64_t>(std::llround(seconds * kNanosPerSecond));
}

Outcome ApplyHeaderVolumeLabels(const trace::Header& header, ReplayOptions* options) {
  options->volume_controllers |= HeaderAsksForVolumeControllers(header);
  Result<std::optional<int64_t>> latency = HeaderVolumeLatency(header);
  if (!latency.ok()) return latency.error();
  if (options->volume_latency_ns == 0 && latency->has_value()) {
    options->volume_latency_ns = **latency;
  }
  return Outcome::Ok();
}

Replayer::~Replayer() = default;

Result<std::unique_ptr<Replayer>> Replayer::Create(ReplayOptions options) {
  auto check = [](const char* what, int64_t v, int64_t max) -> Outcome {
    if (v < 0 || v > max) {
      return Error{std::string(what) + " " + std::to_string(v) + " ns is outside [0, " +
                   std::to_string(max) + " ns]"};
    }
    return Outcome::Ok();
  };
  for (Outcome ok : {check("horizon", options.horizon_ns, kMaxDurationNs),
                     check("cycle latency", options.cycle_latency_ns, kMaxDurationNs),
                     check("bind latency", options.bind_latency_ns, kMaxDurationNs),
                     check("volume latency", options.volume_latency_ns, kMaxDurationNs)}) {
    if (!ok) return ok.error();
  }
  if (options.volume_latency_ns > 0 && !options.volume_controllers) {
    return Error{"a volume latency needs the volume controllers model (--volume-controllers)"};
  }
  const std::optional<reference::CompatLevel> level = reference::ParseCompatLevel(options.compat);
  if (!level || options.compat.empty()) {
    return Error{"compat " + options.compat + " is not implemented (implemented: 1.27, 1.37)"};
  }
  // The run's features, once: every rule the scheduler runs reads them.
  Result<reference::Features> features = reference::FeaturesFor(*level, options.feature_gates);
  if (!features.ok()) return features.error();
  if (options.epoch_unix_ns < -kMaxTraceSpanNs || options.epoch_unix_ns > kMaxTraceSpanNs) {
    return Error{"epoch " + std::to_string(options.epoch_unix_ns) + " ns is outside [-" +
                 std::to_string(kMaxTraceSpanNs) + ", " + std::to_string(kMaxTraceSpanNs) + " ns]"};
  }
  std::unique_ptr<Replayer> r(new Replayer(std::move(options), *features));
  if (Outcome ok = r->Init(); !ok) return ok.error();
  return r;
}

Outcome Replayer::Init() {
  if (options_.follow_cluster) {
    log_.set_sink([this](const trace::Record& r) {
      follower_.NoteDecision(r);
      if (options_.on_record) options_.on_record(r);
    });
  } else {
    log_.set_sink(options_.on_record);
  }
  log_.set_retain(options_.retain_log);
  if (options_.volume_controllers) volume_api_ = std::make_unique<VolumeApiImpl>(this);
  reference::SchedulerOptions so;
  so.config = options_.config;
  so.features = features_;
  so.registry =
      options_.registry ? options_.registry : &reference::PluginRegistryFor(options_.engine);
  so.pod_scheduler = reference::MakePodScheduler(options_.engine, options_.seed,
                                                 options_.config.percentage_of_nodes_to_score);
  so.pod_scheduler->set_record_details(false);  // decisions need only totals and ties
  so.pod_scheduler->set_record_scores(options_.record_scores);
  so.epoch_unix_ns = options_.epoch_unix_ns;
  so.volume_api = volume_api_.get();
  so.bind_latency_ns = options_.bind_latency_ns;
  so.move_walk = reference::MoveWalkFor(options_.engine);
  reference::SchedulerListener listener;
  listener.queue_transition = [this](const std::string& key, std::string_view from,
                                     std::string_view to, std::string_view cause) {
    log_.AddQueue(clock_.NowNs(), key, from, to, cause);
  };
  listener.attempt = [this](const reference::QueuedPodInfo& info,
                            const reference::CycleOutcome& outcome) {
    RecordAttempt(info, outcome);
  };
  listener.bound = [this](const std::string& key, const std::string& node) {
    log_.AddBinding(clock_.NowNs(), key, node);
    ++pods_bound_;
  };
  listener.move_request = [this](std::string_view label) {
    cluster_events_.emplace_back(clock_.NowNs(), std::string(label));
  };
  listener.move_event = [this](const reference::ClusterEvent& event) {
    event_registrants_.push_back(Registrants(event));
  };
  auto scheduler = reference::Scheduler::New(std::move(so), clock_, std::move(listener));
  if (!scheduler.ok()) return scheduler.error();
  scheduler_ = std::move(*scheduler);
  // Every profile's registrations, once, to tell the summary who registered each move's event.
  for (const reference::Profile& profile : options_.config.profiles) {
    const reference::Framework* fw = scheduler_->FrameworkFor(profile.scheduler_name);
    if (fw == nullptr) continue;
    if (features_.scheduler_queueing_hints) {
      for (const auto& [registered, plugin] : fw->EventRegistrationsWithHints())
        registrations_.push_back({registered.event, plugin});
    } else {
      for (const auto& [registered, plugin] : fw->EventRegistrations())
        registrations_.push_back({registered, plugin});
    }
  }
  return Outcome::Ok();
}

std::set<std::string> Replayer::Registrants(const reference::ClusterEvent& event) const {
  std::set<std::string> out;
  for (const auto& [registered, plugin] : registrations_) {
    const bool match = features_.scheduler_queueing_hints
                           ? reference::MatchClusterEventsV1_37(registered, event)
                           : registered.Covers(event);
    if (match) out.insert(plugin);
  }
  return out;
}

int64_t Replayer::NextInstant(int64_t now, int64_t next_event) const {
  int64_t next = next_event;
  if (cycle_finish_ns_) next = std::min(next, *cycle_finish_ns_);
  if (std::optional<int64_t> binding = scheduler_->NextBindingCycleNs())
    next = std::min(next, *binding);
  if (volume_api_ != nullptr) {
    if (std::optional<int64_t> answers = volume_api_->NextAnswersNs())
      next = std::min(next, *answers);
  }
  if (std::optional<int64_t> flush = scheduler_->queue().NextMoveInstantNs(now))
    next = std::min(next, *flush);
  return next;
}

Outcome Replayer::Run(const std::vector<trace::Record>& records) {
  size_t events = 0;
  for (const trace::Record& r : records) events += r.has_api() ? 1 : 0;
  size_t i = 0;
  return RunRecords(
      [&]() -> Result<const trace::Record*> {
        return i == records.size() ? nullptr : &records[i++];
      },
      nullptr, events);
}

Outcome Replayer::Run(const RecordSource& next, size_t events_total) {
  // The records read since the current instant began (pointers: the events handed to the replay
  // keep their addresses while more are read), and records done with, read over again: a source
  // that assigns over a record reuses its allocations, and destroying a million records one by
  // one costs seconds.
  std::vector<std::unique_ptr<trace::Record>> held, spare;
  return RunRecords(
      [&]() -> Result<const trace::Record*> {
        if (spare.empty()) {
          held.push_back(std::make_unique<trace::Record>());
        } else {
          held.push_back(std::move(spare.back()));
          spare.pop_back();
        }
        trace::Record* r = held.back().get();
        Result<bool> more = next(r);
        if (!more.ok()) return more.error();
        if (!*more) {
          spare.push_back(std::move(held.back()));
          held.pop_back();
          return nullptr;
        }
        return r;
      },
      [&] {
        for (size_t i = 0; i + 1 < held.size(); ++i) spare.push_back(std::move(held[i]));
        held.erase(held.begin(), held.end() - 1);
      },
      events_total);
}

Outcome Replayer::RunRecords(const std::function<Result<const trace::Record*>()>& next,
                             const std::function<void()>& drop_all_but_last, size_t events_total) {
  auto report = [&](size_t done, bool finished) {
    options_.progress({.events_done = done,
                       .events_total = events_total,
                       .virtual_time_ns = clock_.NowNs(),
                       .pods_bound = pods_bound_,
                       .finished = finished});
  };
  // The events of the current instant and the record index of the first. Following the
  // cluster, also the instant's observed bindings, in trace order among its events (`followed`),
  // and the events they become (`synthesized`: their addresses stay while the instant runs).
  std::vector<const trace::ApiEvent*> batch;
  std::vector<const trace::Record*> followed;
  std::deque<trace::ApiEvent> synthesized;
  bool batch_observes = false;
  int64_t batch_ns = 0, t0 = 0;
  // in_batch: the instant's records (events and observed bindings); done: events delivered.
  size_t first = 0, done = 0, reported = 0, in_batch = 0, events_in_batch = 0;
  bool any_event = false;
  auto run_batch = [&]() -> Outcome {
    if (batch_observes) {
      if (Outcome ok = FollowInstant(batch_ns - t0, followed, first, &synthesized, &batch); !ok)
        return ok;
    } else if (options_.follow_cluster) {
      for (const trace::ApiEvent* e : batch) follower_.NoteInput(*e);
    }
    if (!batch.empty()) {
      if (Outcome ok = ProcessEvents(batch_ns - t0, batch, first); !ok) return ok;
    }
    done += events_in_batch;
    events_in_batch = 0;
    batch.clear();
    followed.clear();
    synthesized.clear();
    batch_observes = false;
    in_batch = 0;
    if (options_.progress && done - reported >= options_.progress_every_events) {
      report(done, false);
      reported = done;
    }
    return Outcome::Ok();
  };
  auto observed_binding = [&](const trace::Record& r) {
    return options_.follow_cluster && r.has_binding() && r.binding().observed();
  };
  for (size_t index = 0;; ++index) {
    Result<const trace::Record*> got = next();
    if (!got.ok()) return got.error();
    const trace::Record* record = *got;
    if (record == nullptr) break;
    // Observed bindings before the first event name pods the replay has never seen: the
    // follower has nothing to move, and they would start the replay's clock early.
    if (!record->has_api() && !(any_event && observed_binding(*record))) continue;
    const int64_t t = record->time_ns();
    if (!any_event) {
      t0 = t;
    } else {
      if (t < batch_ns) {
        return Error{"record " + std::to_string(index) + ": time goes backwards (" +
                     std::to_string(t) + " ns after " + std::to_string(batch_ns) + " ns)"};
      }
      int64_t since_start = 0;
      if (__builtin_sub_overflow(t, t0, &since_start) || since_start > kMaxTraceSpanNs) {
        return Error{"record " + std::to_string(index) + ": field timeNs: " + std::to_string(t) +
                     " ns is more than " + std::to_string(kMaxTraceSpanNs / kNanosPerSecond) +
                     " s (100 years) after the first event (" + std::to_string(t0) + " ns)"};
      }
    }
    any_event = true;
    if (in_batch > 0 && t != batch_ns) {
      if (Outcome ok = run_batch(); !ok) return ok;
      if (drop_all_but_last) drop_all_but_last();
    }
    if (in_batch == 0) first = index;
    batch_ns = t;
    ++in_batch;
    if (options_.follow_cluster) followed.push_back(record);
    if (record->has_api()) {
      batch.push_back(&record->api());
      ++events_in_batch;
    } else {
      batch_observes = true;
    }
  }
  if (!any_event) return Outcome::Ok();  // no API event at all
  if (in_batch > 0) {
    if (Outcome ok = run_batch(); !ok) return ok;
  }
  if (options_.progress && done != reported) report(done, false);
  Finish(batch_ns - t0 + options_.horizon_ns);
  if (options_.progress) report(done, true);
  return Outcome::Ok();
}

Outcome Replayer::FollowInstant(int64_t t_ns, const std::vector<const trace::Record*>& records,
                                size_t first_index, std::deque<trace::ApiEvent>* synthesized,
                                std::vector<const trace::ApiEvent*>* events) {
  // The replay's decisions up to just before the instant are the ones to compare: run the
  // instants before it (an extra instant 1 ns before, where nothing is delivered).
  if (started_ && t_ns - 1 > clock_.NowNs()) {
    if (Outcome ok = ProcessEvents(t_ns - 1, {}, first_index); !ok) return ok;
  }
  follower_.FollowInstant(records, t_ns, synthesized, events);
  return Outcome::Ok();
}

Outcome Replayer::ProcessEvents(int64_t t_ns, const std::vector<const trace::ApiEvent*>& events,
                                size_t first_index) {
  if (t_ns < 0 || t_ns > kMaxTraceSpanNs) {
    return Error{"record " + std::to_string(first_index) + ": instant " + std::to_string(t_ns) +
                 " ns is outside [0, " + std::to_string(kMaxTraceSpanNs) + " ns] (100 years)"};
  }
  if (started_ && t_ns <= clock_.NowNs()) {
    return Error{"record " + std::to_string(first_index) + ": instant " + std::to_string(t_ns) +
                 " ns is not after the previous one (" + std::to_string(clock_.NowNs()) + " ns)"};
  }
  AdvanceTo(t_ns);
  return ProcessInstant(t_ns, events, first_index);
}

void Replayer::Finish(int64_t end_ns) {
  constexpr int64_t kLastEndNs = kMaxTraceSpanNs + kMaxDurationNs;
  AdvanceTo(end_ns >= kLastEndNs ? kLastEndNs + 1 : end_ns + 1);
}

void Replayer::AdvanceTo(int64_t limit_ns) {
  while (true) {
    int64_t t = started_ ? NextInstant(clock_.NowNs(), kNever) : 0;
    if (t == kNever || t >= limit_ns) return;
    (void)ProcessInstant(t, {}, 0);
  }
}

Outcome Replayer::ProcessInstant(int64_t now, const std::vector<const trace::ApiEvent*>& events,
                                 size_t first_index) {
  started_ = true;
  clock_.SetNs(now);
  // 1. Trace events stamped with this instant, in order; duringAttempt ones wait for the first
  //    scheduling cycle of the instant.
  std::deque<const trace::ApiEvent*> during;
  size_t index = first_index, first_during = 0;
  for (const trace::ApiEvent* e : events) {
    if (e->during_attempt()) {
      if (during.empty()) first_during = index;
      during.push_back(e);
    } else if (Outcome ok = Deliver(*e, index); !ok) {
      return ok;
    }
    ++index;
  }
  // 2. The volume controllers' answers due now, then a cycle or bindings finishing now (a
  //    binding waiting in PreBind takes its next look).
  if (volume_api_ != nullptr) volume_api_->AnswerDue(now);
  if (cycle_finish_ns_ == now) {
    cycle_finish_ns_.reset();
    scheduler_->FinishSchedulingCycle();
  }
  scheduler_->RunBindingCyclesDue();
  // 3. The periodic flushes due now: backoff, then leftover.
  if (now % reference::kBackoffQFlushPeriodNs == 0) scheduler_->FlushBackoffQCompleted();
  if (now % reference::kUnschedulableFlushPeriodNs == 0)
    scheduler_->FlushUnschedulablePodsLeftover();
  // 4. Scheduling cycles while activeQ has pods.
  RunSchedulingAtThisInstant(during, &first_during);
  if (!deliver_error_.ok()) return deliver_error_;
  return Outcome::Ok();
}

void Replayer::RunSchedulingAtThisInstant(std::deque<const trace::ApiEvent*>& during,
                                          size_t* index) {
  auto deliver_during = [&] {
    while (!during.empty()) {
      if (Outcome ok = Deliver(*during.front(), *index); !ok && deliver_error_.ok())
        deliver_error_ = ok;
      during.pop_front();
      ++*index;
    }
  };
  while (true) {
    while (!cycle_finish_ns_) {
      // Events that overlap the attempt arrive right after its SchedulePod (filtering and
      // scoring), before PostFilter, assume and the outcome apply.
      if (!scheduler_->StartSchedulingCycle(deliver_during)) break;
      if (options_.cycle_latency_ns > 0) {
        cycle_finish_ns_ = clock_.NowNs() + options_.cycle_latency_ns;
        return;
      }
      scheduler_->FinishSchedulingCycle();
      scheduler_->RunNewBindingCyclesDue();
    }
    if (during.empty()) return;
    deliver_during();  // no cycle ran at this instant: deliver, then schedule again
  }
}

}  // namespace schedcheck::replay
