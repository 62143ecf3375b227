#include "harness/protocol/external_replay.h"

#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "harness/protocol/client.h"
#include "harness/protocol/framing.h"
#include "harness/replay/decision_log.h"
#include "nlohmann/json.hpp"

namespace schedcheck::protocol {
namespace {

// The API records of one instant (indices into the trace).
struct Instant {
  int64_t time_ns = 0;
  std::vector<size_t> indices;
};

bool IsObservedBinding(const trace::Record& r) { return r.has_binding() && r.binding().observed(); }

// Groups the API records by time, as Replayer::Run does (same error for times going backwards).
// `follow`: observed bindings after the first event too, in their places (Replayer::Run with
// follow_cluster).
Result<std::vector<Instant>> GroupInstants(const std::vector<trace::Record>& records, bool follow) {
  std::vector<Instant> instants;
  for (size_t i = 0; i < records.size(); ++i) {
    if (!records[i].has_api() && !(follow && !instants.empty() && IsObservedBinding(records[i])))
      continue;
    const int64_t t = records[i].time_ns();
    if (!instants.empty() && t < instants.back().time_ns) {
      const size_t prev = instants.back().indices.back();
      return Error{"record " + std::to_string(i) + ": time goes backwards (" + std::to_string(t) +
                   " ns after " + std::to_string(records[prev].time_ns()) + " ns)"};
    }
    if (instants.empty() || t != instants.back().time_ns) instants.push_back({t, {}});
    instants.back().indices.push_back(i);
  }
  return instants;
}

class Driver {
 public:
  // `client` is the child to talk to: started by Start when null; reset when the child fails, so
  // that a session starts a new one for its next replay.
  Driver(const ExternalReplayOptions& options, ExternalReplay* out, std::unique_ptr<Client>* client)
      : options_(options), out_(out), client_(*client) {}

  // Starts the child if there is none and exchanges Hello / HelloAck.
  bool Start() {
    if (!client_) {
      auto client = Client::Spawn(options_.command, options_.timeout_ms);
      if (!client.ok()) return Fail("starting the child: " + client.message());
      client_ = std::move(*client);
    }
    Request request;
    *request.mutable_hello() = options_.hello;
    request.mutable_hello()->set_protocol_version(kProtocolVersion);
    context_ = "request 1 (Hello)";
    auto response = Exchange(request, Response::kHelloAck);
    if (!response.ok()) return false;
    out_->ack = response->hello_ack();
    if (out_->ack.protocol_version() != kProtocolVersion) {
      return Fail("protocol version mismatch: the harness speaks version " +
                  std::to_string(kProtocolVersion) + ", the child answered version " +
                  std::to_string(out_->ack.protocol_version()));
    }
    return true;
  }

  // Sends one instant's events (times relative to `t0`) and collects the decisions. Following the
  // cluster (`follower`), the instant's observed bindings become the follower's events, decided
  // on the child's state just before the instant (an empty instant 1 ns before, when needed).
  bool SendInstant(const std::vector<trace::Record>& records, const Instant& instant, int64_t t0,
                   replay::ClusterFollower* follower) {
    Request request;
    Events* events = request.mutable_events();
    events->set_time_ns(instant.time_ns - t0);
    events->set_first_index(instant.indices.front());
    if (follower == nullptr) {
      for (size_t i : instant.indices) *events->add_events() = records[i].api();
    } else if (!FollowInstant(records, instant, events, follower)) {
      return false;
    } else if (events->events().empty()) {
      return true;  // only bindings the replay already holds: no instant to run
    }
    context_ = "request " + std::to_string(out_->requests_answered + 1) +
               " (Events at t=" + replay::FormatSeconds(events->time_ns()) + " s, trace record" +
               (instant.indices.size() == 1 ? " " + std::to_string(instant.indices.front())
                                            : "s " + std::to_string(instant.indices.front()) + "-" +
                                                  std::to_string(instant.indices.back())) +
               ")";
    const size_t seen = out_->decisions.size();
    if (!Collect(request, events->time_ns())) return false;
    sent_any_ = true;
    last_sent_ns_ = events->time_ns();
    Note(follower, seen);
    return true;
  }

  // Fills `events` with the instant's input events and what the follower makes of its observed
  // bindings.
  bool FollowInstant(const std::vector<trace::Record>& records, const Instant& instant,
                     Events* events, replay::ClusterFollower* follower) {
    const int64_t before = events->time_ns() - 1;
    bool observes = false;
    for (size_t i : instant.indices) observes |= !records[i].has_api();
    if (observes && sent_any_ && before > last_sent_ns_) {
      Request catch_up;
      catch_up.mutable_events()->set_time_ns(before);
      catch_up.mutable_events()->set_first_index(instant.indices.front());
      context_ = "request " + std::to_string(out_->requests_answered + 1) +
                 " (Events at t=" + replay::FormatSeconds(before) +
                 " s, before the observed bindings of trace " + "records from " +
                 std::to_string(instant.indices.front()) + ")";
      const size_t seen = out_->decisions.size();
      if (!Collect(catch_up, before)) return false;
      last_sent_ns_ = before;
      Note(follower, seen);
    }
    std::vector<const trace::Record*> in;
    for (size_t i : instant.indices) in.push_back(&records[i]);
    std::deque<trace::ApiEvent> made;
    std::vector<const trace::ApiEvent*> all;
    follower->FollowInstant(in, events->time_ns(), &made, &all);
    for (const trace::ApiEvent* e : all) *events->add_events() = *e;
    return true;
  }

  // Gives the follower the decisions received since `seen`.
  void Note(replay::ClusterFollower* follower, size_t seen) {
    if (follower == nullptr) return;
    for (size_t i = seen; i < out_->decisions.size(); ++i)
      follower->NoteDecision(out_->decisions[i]);
  }

  bool SendFinish(int64_t end_ns) {
    Request request;
    request.mutable_finish()->set_end_ns(end_ns);
    context_ = "request " + std::to_string(out_->requests_answered + 1) +
               " (Finish at t=" + replay::FormatSeconds(end_ns) + " s)";
    return Collect(request, end_ns);
  }

  bool Close() {
    context_ = "after request " + std::to_string(out_->requests_answered);
    Outcome ok = client_->Close();
    client_.reset();
    if (!ok) return Fail(ok.message());
    return true;
  }

  bool Fail(const std::string& message) {
    out_->status =
        Error{"scheduler command `" + options_.command + "`: " + context_ + ": " + message};
    client_.reset();  // kills a child that is still running; a session starts a new one
    return false;
  }

 private:
  Result<Response> Exchange(const Request& request, Response::BodyCase want) {
    auto response = client_->Call(request);
    if (!response.ok()) {
      Fail(response.message());
      return out_->status.error();
    }
    if (response->has_error()) {
      Fail("the child reported an error: " + response->error().message());
      return out_->status.error();
    }
    if (response->body_case() != want) {
      Fail(std::string("unexpected answer: want ") +
           (want == Response::kHelloAck ? "HelloAck" : "Decisions") + ", got " +
           (response->has_hello_ack() ? "HelloAck" : "Decisions"));
      return out_->status.error();
    }
    ++out_->requests_answered;
    return response;
  }

  // Exchanges a request answered by Decisions; keeps every valid record, checks the rest.
  bool Collect(const Request& request, int64_t limit_ns) {
    auto response = Exchange(request, Response::kDecisions);
    if (!response.ok()) return false;
    if (Outcome ok = AcceptDecisions(response->decisions(), limit_ns, &last_time_ns_, out_,
                                     options_.max_decisions);
        !ok) {
      return Fail(ok.message());
    }
    return true;
  }

  const ExternalReplayOptions& options_;
  ExternalReplay* out_;
  std::unique_ptr<Client>& client_;
  std::string context_;
  int64_t last_time_ns_ = 0;
  bool sent_any_ = false;     // an Events request was answered
  int64_t last_sent_ns_ = 0;  // the time of the last one
};

}  // namespace

Outcome AcceptDecisions(const Decisions& d, int64_t limit_ns, int64_t* last_time_ns,
                        ExternalReplay* out, int64_t max_decisions) {
  for (int i = 0; i < d.records_size(); ++i) {
    const trace::Record& r = d.records(i);
    std::string where = "Decisions.records[" + std::to_string(i) + "]: ";
    if (static_cast<int64_t>(out->decisions.size()) >= max_decisions) {
      return Error{where + "more than " + std::to_string(max_decisions) +
                   " decision records in the run, the limit records=" +
                   std::to_string(max_decisions) + " (raise it with --limit records=N)"};
    }
    if (!r.has_attempt() && !r.has_queue() && !r.has_binding()) {
      return Error{where + "not an attempt, queue or binding record"};
    }
    if (r.time_ns() < *last_time_ns || r.time_ns() > limit_ns) {
      return Error{where + "time " + replay::FormatSeconds(r.time_ns()) + " s is outside [" +
                   replay::FormatSeconds(*last_time_ns) + " s, " + replay::FormatSeconds(limit_ns) +
                   " s]"};
    }
    *last_time_ns = r.time_ns();
    out->decisions.push_back(r);
  }
  for (const MoveRequest& m : d.move_requests()) {
    out->cluster_events.emplace_back(m.time_ns(), m.event());
    out->event_registrants.emplace_back(m.registered_by().begin(), m.registered_by().end());
    out->registrants_known &= m.registrations_known();
  }
  return Outcome::Ok();
}

std::string IncompleteJsonLine(const ExternalReplay& run) {
  const int64_t t = run.decisions.empty() ? 0 : run.decisions.back().time_ns();
  const std::string reason = nlohmann::json(run.status.message())
                                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "{\"t\":" + replay::FormatSeconds(t) + ",\"type\":\"incomplete\",\"reason\":" + reason +
         ",\"decisions\":" + std::to_string(run.decisions.size()) + "}\n";
}

Hello HelloFor(const replay::ReplayOptions& options, const std::string& config_yaml,
               const std::string& config_source) {
  Hello hello;
  hello.set_compat(options.compat);
  hello.set_seed(options.seed);
  hello.set_config_yaml(config_yaml);
  hello.set_config_source(config_source);
  hello.set_cycle_latency_ns(options.cycle_latency_ns);
  hello.set_bind_latency_ns(options.bind_latency_ns);
  hello.set_epoch_unix_ns(options.epoch_unix_ns);
  hello.set_horizon_ns(options.horizon_ns);
  hello.set_volume_controllers(options.volume_controllers);
  hello.set_volume_latency_ns(options.volume_latency_ns);
  hello.set_record_scores(options.record_scores);
  for (const auto& [name, value] : options.feature_gates)
    (*hello.mutable_feature_gates())[name] = value;
  return hello;
}

// One replay over `*client` (started when null). `close`: close the child afterwards.
static ExternalReplay RunOn(std::unique_ptr<Client>* client,
                            const std::vector<trace::Record>& records,
                            const ExternalReplayOptions& options, bool close) {
  ExternalReplay out;
  auto instants = GroupInstants(records, options.follow_cluster);
  if (!instants.ok()) {
    out.bad_input = true;
    out.status = instants.error();
    return out;
  }
  Driver driver(options, &out, client);
  if (!driver.Start()) return out;
  if (!instants->empty()) {
    const int64_t t0 = instants->front().time_ns;
    std::optional<replay::ClusterFollower> follower;
    if (options.follow_cluster) follower.emplace();
    for (const Instant& instant : *instants) {
      const bool sent = driver.SendInstant(records, instant, t0, follower ? &*follower : nullptr);
      if (follower) out.follow = follower->report();
      if (!sent) return out;
    }
    if (!driver.SendFinish(instants->back().time_ns - t0 + options.hello.horizon_ns())) return out;
  } else if (!close) {
    // A run without events is Hello only; a kept child needs its Finish before the next Hello.
    if (!driver.SendFinish(0)) return out;
  }
  if (close) driver.Close();
  return out;
}

ExternalReplay RunExternalReplay(const std::vector<trace::Record>& records,
                                 const ExternalReplayOptions& options) {
  std::unique_ptr<Client> client;
  return RunOn(&client, records, options, /*close=*/true);
}

ReplaySession::ReplaySession(std::string command, int64_t timeout_ms, int64_t max_decisions)
    : command_(std::move(command)), timeout_ms_(timeout_ms), max_decisions_(max_decisions) {}

ReplaySession::~ReplaySession() = default;

ExternalReplay ReplaySession::Replay(const std::vector<trace::Record>& records,
                                     const Hello& hello) {
  ExternalReplayOptions options;
  options.command = command_;
  options.timeout_ms = timeout_ms_;
  options.max_decisions = max_decisions_;
  options.hello = hello;
  const bool fresh = client_ == nullptr;
  ExternalReplay out = RunOn(&client_, records, options, /*close=*/false);
  runs_on_child_ = client_ == nullptr ? 0 : (fresh ? 1 : runs_on_child_ + 1);
  return out;
}

Outcome ReplaySession::Close() {
  if (!client_) return Outcome::Ok();
  Outcome ok = client_->Close();
  if (client_->cpu_ns() > 0) closed_children_cpu_ns_ += client_->cpu_ns();
  client_.reset();
  return ok;
}

}  // namespace schedcheck::protocol
