#include "harness/gate/gate.h"

#include <algorithm>
#include <filesystem>

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "traces/trace_file.h"

namespace schedcheck::gate {
namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<diff::NamedDiff> GateOne(const std::string& path, const GateOptions& o) {
  const std::string name = fs::path(path).filename().string();
  auto trace = trace::LoadTrace(path);
  if (!trace.ok()) return trace.error();
  const std::string stem = (fs::path(path).parent_path() / fs::path(path).stem()).string();
  reference::SchedulerConfiguration base = reference::DefaultConfiguration("1.27");
  if (fs::exists(stem + ".config.yaml")) {
    auto config = reference::LoadSchedulerConfiguration(stem + ".config.yaml", "1.27");
    if (!config.ok()) return config.error();
    base = std::move(*config);
  }
  auto reference = candidates::MakeCandidate("reference", base);
  auto candidate = candidates::MakeCandidate(o.candidate, base);
  if (!candidate.ok()) return candidate.error();
  auto ref_log = candidates::ReplayCandidate(*reference, *trace);
  if (!ref_log.ok()) return Error{path + ": reference replay: " + ref_log.message()};
  auto cand_log = candidates::ReplayCandidate(*candidate, *trace);
  if (!cand_log.ok()) return Error{path + ": candidate replay: " + cand_log.message()};
  diff::NamedDiff out{name, diff::Diff(*ref_log, *cand_log, o.diff), "", ""};
  if (!out.result.divergences.empty()) {
    auto text = diff::ExplainAt(*trace, *ref_log, out.result.divergences.front(),
                                {{"reference", base}, {"candidate " + o.candidate, candidate->config}});
    out.explanation = text.ok() ? *text : "(no explanation: " + text.message() + ")\n";
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
    if (entry.is_regular_file() && (EndsWith(p, ".jsonl") || EndsWith(p, ".trace"))) out.push_back(p);
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
