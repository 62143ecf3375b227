#include "harness/gate/gate.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "traces/trace_file.h"

namespace schedcheck::gate {
namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<diff::NamedDiff> GateOne(const std::string& path, const GateOptions& o) {
  const std::string name = fs::path(path).filename().string();
  auto trace = trace::LoadTrace(path, o.limits);
  if (!trace.ok()) return trace.error();
  const std::string stem = (fs::path(path).parent_path() / fs::path(path).stem()).string();
  reference::SchedulerConfiguration base = reference::DefaultConfiguration(o.compat);
  candidates::CandidateReplayOptions replay_options{.config_yaml = "",
                                                    .config_source = "",
                                                    .timeout_ms = o.timeout_ms,
                                                    .engine = o.engine,
                                                    .compat = o.compat,
                                                    .feature_gates = o.feature_gates,
                                                    .volume_controllers = o.volume_controllers,
                                                    .volume_latency_ns = o.volume_latency_ns};
  if (fs::exists(stem + ".config.yaml")) {
    auto config = reference::LoadSchedulerConfiguration(stem + ".config.yaml", o.compat,
                                                        trace::YamlLimitsOf(o.limits));
    if (!config.ok()) return config.error();
    base = std::move(*config);
    // An out-of-process candidate is sent the text, as `replay --config` sends it.
    std::ifstream in(stem + ".config.yaml", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    replay_options.config_yaml = text.str();
    replay_options.config_source = stem + ".config.yaml";
  }
  auto reference = candidates::MakeCandidate("reference", base);
  auto candidate = candidates::MakeCandidate(o.candidate, base, trace::YamlLimitsOf(o.limits));
  if (!candidate.ok()) return candidate.error();
  auto ref_log = candidates::ReplayCandidate(*reference, *trace,
                                             {.engine = o.engine,
                                              .compat = o.compat,
                                              .feature_gates = o.feature_gates,
                                              .volume_controllers = o.volume_controllers,
                                              .volume_latency_ns = o.volume_latency_ns});
  if (!ref_log.ok()) return Error{path + ": reference replay: " + ref_log.message()};
  auto cand_log = candidates::ReplayCandidate(*candidate, *trace, replay_options);
  if (!cand_log.ok()) {
    // The reference replayed this trace, so the child failed: report it here and go on.
    if (candidate->out_of_process())
      return diff::NamedDiff{name, {}, "", "candidate " + o.candidate + ": " + cand_log.message()};
    return Error{path + ": candidate replay: " + cand_log.message()};
  }
  diff::NamedDiff out{name, diff::Diff(*ref_log, *cand_log, o.diff), "", ""};
  if (!out.result.divergences.empty()) {
    const std::string label = "candidate " + o.candidate;
    std::vector<diff::ExplainSide> sides = {{"reference", base}};
    if (!candidate->out_of_process()) sides.push_back({label, candidate->config});
    diff::ExplainOptions explain;
    explain.compat = o.compat;
    explain.feature_gates = o.feature_gates;
    auto text = diff::ExplainAt(*trace, *ref_log, out.result.divergences.front(), sides, explain);
    out.explanation = text.ok() ? *text : "(no explanation: " + text.message() + ")\n";
    if (candidate->out_of_process())
      out.explanation += candidates::OutOfProcessExplainNote(label, o.candidate);
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> CorpusTraces(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir + ": not a directory"};
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string p = entry.path().string();
    if (entry.is_regular_file() && (EndsWith(p, ".jsonl") || EndsWith(p, ".trace")))
      out.push_back(p);
  }
  if (ec) return Error{dir + ": " + ec.message()};
  std::sort(out.begin(), out.end());
  if (out.empty()) return Error{dir + ": no traces (*.jsonl, *.trace)"};
  return out;
}

Result<std::vector<diff::NamedDiff>> RunGate(const GateOptions& options) {
  auto traces = CorpusTraces(options.corpus);
  if (!traces.ok()) return traces.error();
  std::vector<diff::NamedDiff> out;
  for (const std::string& path : *traces) {
    auto one = GateOne(path, options);
    if (!one.ok()) return one.error();
    out.push_back(std::move(*one));
  }
  return out;
}

}  // namespace schedcheck::gate
