#include "harness/protocol/server.h"

#include <utility>
#include <vector>

#include "harness/protocol/framing.h"

namespace schedcheck::protocol {
namespace {

Result<reference::SchedulerConfiguration> ConfigurationFor(const ServeOptions& options,
                                                           const Hello& hello,
                                                           const std::string& compat,
                                                           std::string* source) {
  if (!options.config_path.empty()) {
    *source = options.config_path;
    return reference::LoadSchedulerConfiguration(options.config_path, compat,
                                                 trace::YamlLimitsOf(options.limits));
  }
  if (hello.config_yaml().empty()) {
    *source = "default";
    return reference::DefaultConfiguration(compat);
  }
  *source = hello.config_source().empty() ? "Hello.config_yaml" : hello.config_source();
  return reference::ParseSchedulerConfigurationYaml(hello.config_yaml(), *source, compat,
                                                    trace::YamlLimitsOf(options.limits));
}

}  // namespace

Session::Session(ServeOptions options) : options_(std::move(options)) {}
Session::~Session() = default;

Response Session::Fail(std::string message) {
  failed_ = true;
  Response r;
  r.mutable_error()->set_message(std::move(message));
  return r;
}

Response Session::Handle(const Request& request) {
  if (failed_) return Fail("an earlier request failed; the session cannot go on");
  if (finished_ && !request.has_hello())
    return Fail("request after Finish (only a new Hello may follow)");
  switch (request.body_case()) {
    case Request::kHello:
      if (version_mismatch_) return Fail("a second Hello");
      if (replayer_ != nullptr && !finished_) return Fail("a second Hello before Finish");
      // A Hello after Finish starts a new run in the same process (PROTOCOL.md).
      replayer_.reset();
      finished_ = false;
      sent_records_ = sent_moves_ = 0;
      return OnHello(request.hello());
    case Request::kEvents:
    case Request::kFinish:
      if (version_mismatch_)
        return Fail("protocol version mismatch (see HelloAck); no requests are served");
      if (replayer_ == nullptr) return Fail("the first request must be Hello");
      return request.has_events() ? OnEvents(request.events()) : OnFinish(request.finish());
    case Request::BODY_NOT_SET:
      break;
  }
  return Fail("a Request without a body (unknown request type?)");
}

Response Session::OnHello(const Hello& hello) {
  Response r;
  HelloAck* ack = r.mutable_hello_ack();
  ack->set_protocol_version(kProtocolVersion);
  ack->set_scheduler_name(options_.scheduler_name);
  ack->set_scheduler_version(options_.scheduler_version);
  // The harness reports the mismatch from HelloAck; nothing else is served.
  if (hello.protocol_version() != kProtocolVersion) {
    version_mismatch_ = true;
    return r;
  }
  replay::ReplayOptions options;
  options.compat = hello.compat().empty() ? "1.27" : hello.compat();
  if (options.compat != "1.27" && options.compat != "1.37")
    return Fail("Hello.compat " + options.compat + " is not implemented (implemented: 1.27, 1.37)");
  options.feature_gates.insert(hello.feature_gates().begin(), hello.feature_gates().end());
  std::string source;
  auto config = ConfigurationFor(options_, hello, options.compat, &source);
  if (!config.ok()) return Fail(config.message());
  options.config = std::move(*config);
  options.seed = hello.seed();
  if (hello.cycle_latency_ns() < 0 || hello.bind_latency_ns() < 0 || hello.volume_latency_ns() < 0)
    return Fail("Hello: negative latency");
  options.cycle_latency_ns = hello.cycle_latency_ns();
  options.bind_latency_ns = hello.bind_latency_ns();
  options.epoch_unix_ns = hello.epoch_unix_ns();
  options.volume_controllers = hello.volume_controllers();
  options.volume_latency_ns = hello.volume_latency_ns();
  options.record_scores = hello.record_scores();
  if (hello.horizon_ns() > 0) options.horizon_ns = hello.horizon_ns();
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return Fail(source + ": " + replayer.message());
  replayer_ = std::move(*replayer);
  events_received_ = 0;
  ack->set_config_source(source);
  return r;
}

Response Session::OnEvents(const Events& events) {
  std::vector<const trace::ApiEvent*> batch;
  batch.reserve(events.events_size());
  for (int i = 0; i < events.events_size(); ++i) {
    const trace::ApiEvent& e = events.events(i);
    const std::string where = "Events.events[" + std::to_string(i) + "]";
    if (events_received_++ >= options_.limits.records)
      return Fail(trace::TooManyRecords(where, options_.limits.records).message);
    if (!trace::FitsTrivially(e, e.ByteSizeLong(), options_.limits)) {
      if (Outcome ok = trace::CheckMessageLimits(e, options_.limits, where); !ok)
        return Fail(ok.message());
    }
    batch.push_back(&e);
  }
  if (Outcome ok = replayer_->ProcessEvents(events.time_ns(), batch, events.first_index()); !ok) {
    return Fail(ok.message());
  }
  return NewDecisions();
}

Response Session::OnFinish(const Finish& finish) {
  if (finish.end_ns() < 0 || finish.end_ns() > replay::kMaxTraceSpanNs + replay::kMaxDurationNs) {
    return Fail("Finish.end_ns " + std::to_string(finish.end_ns()) + " is outside [0, " +
                std::to_string(replay::kMaxTraceSpanNs + replay::kMaxDurationNs) + " ns]");
  }
  replayer_->Finish(finish.end_ns());
  finished_ = true;
  return NewDecisions();
}

Response Session::NewDecisions() {
  Response r;
  Decisions* d = r.mutable_decisions();
  const auto& records = replayer_->log().records();
  for (; sent_records_ < records.size(); ++sent_records_)
    *d->add_records() = records[sent_records_];
  const auto& moves = replayer_->cluster_events();
  for (; sent_moves_ < moves.size(); ++sent_moves_) {
    MoveRequest* m = d->add_move_requests();
    m->set_time_ns(moves[sent_moves_].first);
    m->set_event(moves[sent_moves_].second);
    if (sent_moves_ < replayer_->event_registrants().size()) {
      for (const std::string& plugin : replayer_->event_registrants()[sent_moves_])
        m->add_registered_by(plugin);
      m->set_registrations_known(true);
    }
  }
  return r;
}

Outcome Serve(int in_fd, int out_fd, const ServeOptions& options, std::ostream& log) {
  Session session(options);
  for (int index = 1;; ++index) {
    std::string payload;
    IoStatus read = ReadFrame(in_fd, -1, &payload);
    if (read.code == IoCode::kEof && read.partial_bytes == 0) return Outcome::Ok();
    std::string where = "request " + std::to_string(index) + ": ";
    Request request;
    Response response;
    Outcome result = Outcome::Ok();
    if (!read.ok()) {
      result = Error{where + read.message +
                     (read.partial_bytes
                          ? " after " + std::to_string(read.partial_bytes) + " bytes of a frame"
                          : "")};
      response.mutable_error()->set_message(result.message());
    } else if (!request.ParseFromString(payload)) {
      result = Error{where + "unparseable Request (" + std::to_string(payload.size()) + " bytes)"};
      response.mutable_error()->set_message(result.message());
    } else {
      response = session.Handle(request);
      if (response.has_error())
        log << "schedcheck serve: " << where << response.error().message() << "\n";
    }
    std::string bytes;
    response.SerializeToString(&bytes);
    if (IoStatus w = WriteFrame(out_fd, bytes, -1); !w.ok()) {
      result = Error{where + "writing the response: " + w.message};
    }
    if (!result.ok()) {
      log << "schedcheck serve: " << result.message() << "\n";
      return result;
    }
  }
}

}  // namespace schedcheck::protocol
