#include "harness/minimize/pair_replay.h"

#include <utility>

namespace schedcheck::minimize {

PairReplay::PairReplay(PairReplayOptions options) : options_(std::move(options)) {
  candidate_options_ = options_.reference;
  if (options_.candidate.out_of_process()) {
    hello_ = protocol::HelloFor(options_.reference, options_.candidate_config_yaml,
                                options_.candidate_config_source);
    session_ = std::make_unique<protocol::ReplaySession>(
        options_.candidate.command, options_.timeout_ms, options_.max_decisions);
  } else {
    candidate_options_.config = options_.candidate.config;
    candidate_options_.registry = options_.candidate.registry.get();
  }
}

PairReplay::~PairReplay() = default;

Result<std::vector<trace::Record>> PairReplay::ReplayInProcess(
    const replay::ReplayOptions& options, const std::vector<trace::Record>& records) const {
  auto replayer = replay::Replayer::Create(options);
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(records); !ok) return ok.error();
  return (*replayer)->log().records();
}

Result<PairLogs> PairReplay::Run(const std::vector<trace::Record>& records) {
  PairLogs out;
  auto reference = ReplayInProcess(options_.reference, records);
  if (!reference.ok()) return Error{"reference replay: " + reference.message()};
  out.reference = std::move(*reference);
  if (session_) {
    if (session_->runs_on_child() == 0) ++children_started_;
    protocol::ExternalReplay run = session_->Replay(records, hello_);
    if (!run.status.ok()) return Error{"candidate replay: " + run.status.message()};
    out.candidate = std::move(run.decisions);
  } else {
    auto candidate = ReplayInProcess(candidate_options_, records);
    if (!candidate.ok()) return Error{"candidate replay: " + candidate.message()};
    out.candidate = std::move(*candidate);
  }
  out.diff = diff::Diff(out.reference, out.candidate, options_.diff);
  return out;
}

Outcome PairReplay::Close() { return session_ ? session_->Close() : Outcome::Ok(); }

}  // namespace schedcheck::minimize
