#include "harness/gate/pair_replay.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

#include "harness/replay/decision_log.h"

namespace schedcheck::gate {

PairSide ReferenceSide(const reference::SchedulerConfiguration& config,
                       const std::string& config_yaml, const std::string& config_source) {
  return PairSide{.name = "reference",
                  .build = candidates::Candidate{"reference", config, nullptr},
                  .config_yaml = config_yaml,
                  .config_source = config_source};
}

Result<PairSide> LoadSide(const std::string& name, const std::string& spec,
                          const std::string& config_path, const std::string& compat,
                          const k8s::YamlLimits& yaml) {
  auto out_of_process = candidates::IsOutOfProcess(spec);
  if (!out_of_process.ok()) return out_of_process.error();
  PairSide side{.name = name, .build = {}, .config_yaml = "", .config_source = config_path};
  reference::SchedulerConfiguration config = reference::DefaultConfiguration(compat);
  if (!config_path.empty()) {
    if (!*out_of_process) {
      auto parsed = reference::LoadSchedulerConfiguration(config_path, compat, yaml);
      if (!parsed.ok()) return parsed.error();
      config = std::move(*parsed);
    }
    std::ifstream in(config_path, std::ios::binary);
    if (!in) return Error{config_path + ": cannot open the configuration"};
    std::stringstream text;
    text << in.rdbuf();
    side.config_yaml = text.str();
  }
  auto build = candidates::MakeCandidate(spec, config, yaml);
  if (!build.ok()) return build.error();
  side.build = std::move(*build);
  return side;
}

std::string SideLabel(const PairSide& side, bool say_default) {
  std::string label = side.name;
  if (side.build.spec != side.name) label += " " + side.build.spec;
  if (!side.config_source.empty()) return label + " with " + side.config_source;
  return say_default ? label + " (default profile)" : label;
}

PairReplay::PairReplay(PairReplayOptions options) : options_(std::move(options)) {
  Prepare(options_.baseline, &baseline_);
  Prepare(options_.candidate, &candidate_);
}

PairReplay::~PairReplay() = default;

void PairReplay::Prepare(const PairSide& side, Runner* runner) const {
  runner->in_process = options_.replay;
  if (side.build.out_of_process()) {
    runner->hello = protocol::HelloFor(options_.replay, side.config_yaml, side.config_source);
    if (!runner->session) {
      runner->session = std::make_unique<protocol::ReplaySession>(
          side.build.command, options_.timeout_ms, options_.max_decisions);
    }
  } else {
    runner->in_process.config = side.build.config;
    runner->in_process.registry = side.build.registry.get();
  }
}

void PairReplay::SetReplayOptions(const replay::ReplayOptions& replay) {
  options_.replay = replay;
  Prepare(options_.baseline, &baseline_);
  Prepare(options_.candidate, &candidate_);
}

void PairReplay::SetSides(PairSide baseline, PairSide candidate) {
  options_.baseline = std::move(baseline);
  options_.candidate = std::move(candidate);
  Prepare(options_.baseline, &baseline_);
  Prepare(options_.candidate, &candidate_);
}

Result<std::vector<trace::Record>> PairReplay::Replay(Which which,
                                                      const std::vector<trace::Record>& records) {
  Runner& r = runner(which);
  if (r.session) {
    if (r.session->runs_on_child() == 0) ++children_started_;
    protocol::ExternalReplay run = r.session->Replay(records, r.hello);
    if (!run.status.ok()) return run.status.error();
    return std::move(run.decisions);
  }
  auto replayer = replay::Replayer::Create(r.in_process);
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(records); !ok) return ok.error();
  return (*replayer)->log().records();
}

Result<PairLogs> PairReplay::Run(const std::vector<trace::Record>& records) {
  PairLogs out;
  auto baseline = Replay(Which::kBaseline, records);
  if (!baseline.ok()) return Error{options_.baseline.name + " replay: " + baseline.message()};
  out.baseline = std::move(*baseline);
  auto candidate = Replay(Which::kCandidate, records);
  if (!candidate.ok()) return Error{options_.candidate.name + " replay: " + candidate.message()};
  out.candidate = std::move(*candidate);
  out.diff = diff::Diff(out.baseline, out.candidate, options_.diff);
  return out;
}

Outcome PairReplay::Close() {
  Outcome baseline = baseline_.session ? baseline_.session->Close() : Outcome::Ok();
  Outcome candidate = candidate_.session ? candidate_.session->Close() : Outcome::Ok();
  if (!baseline) return Error{options_.baseline.name + ": " + baseline.message()};
  if (!candidate) return Error{options_.candidate.name + ": " + candidate.message()};
  return Outcome::Ok();
}

std::string FirstDifference(const std::vector<trace::Record>& first,
                            const std::vector<trace::Record>& second) {
  const size_t n = std::max(first.size(), second.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string a = i < first.size() ? replay::DecisionJsonLine(first[i]) : "(none)";
    const std::string b = i < second.size() ? replay::DecisionJsonLine(second[i]) : "(none)";
    if (a != b) return "record " + std::to_string(i + 1) + ": " + a + " vs " + b;
  }
  return "";
}

}  // namespace schedcheck::gate
