// The CI gate (issue 6 item 4): replays every trace of a corpus folder with the reference and
// with a candidate build, diffs the decisions and explains each trace's first divergence on the
// reference's snapshot, with both sides' configurations.
#ifndef SCHEDCHECK_HARNESS_GATE_GATE_H_
#define SCHEDCHECK_HARNESS_GATE_GATE_H_

#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "harness/diff/report.h"
#include "reference/base/result.h"

namespace schedcheck::gate {

struct GateOptions {
  std::string corpus = "traces/corpus";  // <name>.jsonl or <name>.trace, optional <name>.config.yaml
  std::string candidate = "reference";   // candidates/candidate.h spec
  diff::DiffOptions diff;
};

// The corpus traces, sorted by file name.
Result<std::vector<std::string>> CorpusTraces(const std::string& dir);

// One NamedDiff per trace (named by file name). Errors (exit 2): an unreadable corpus, trace or
// configuration, a bad candidate spec, a replay that fails; each names the file.
Result<std::vector<diff::NamedDiff>> RunGate(const GateOptions& options);

}  // namespace schedcheck::gate

#endif  // SCHEDCHECK_HARNESS_GATE_GATE_H_
