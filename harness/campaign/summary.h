// What a campaign found, as data: the parameters, the counts and the groups of findings. It is
// written as DIR/summary.json (the schema: README.md), DIR/summary.md and DIR/junit.xml, all pure
// functions of it (no clock, no paths of the machine), so the same seed and shard give the same
// bytes; `campaign --merge` reads the shards' summary.json back and merges them.
#ifndef SCHEDCHECK_HARNESS_CAMPAIGN_SUMMARY_H_
#define SCHEDCHECK_HARNESS_CAMPAIGN_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::campaign {

inline constexpr int kSummaryFormat = 1;

// Where a group's first trace came from and what it showed.
struct Group {
  std::string id;         // "<first trace index>-<class>": its folder under groups/
  std::string signature;  // signature.h
  std::string cls;        // "hard", "requeue", "soft" or "crash"
  std::vector<std::string> plugins;
  std::vector<int64_t> traces;  // every trace index in the group, ascending
  std::string generator;        // of the first trace
  uint64_t trace_seed = 0;      // of the first trace
  uint64_t replay_seed = 0;     // of the first trace
  // "config.yaml" when the first trace ran a generated configuration (`configs`), else "".
  std::string config;
  std::string first;  // the first trace's first divergence (diff::Describe) or error
  // Minimization of the first trace: "events A → B: <its first divergence>", or why not.
  std::string minimized;
};

// A trace whose generator failed on its seed (skipped, not a finding).
struct Skipped {
  int64_t trace = 0;
  std::string message;
};

// A trace on which an out-of-process build did not repeat itself (exit 3).
struct Nondeterministic {
  int64_t trace = 0;
  std::string message;
};

struct Summary {
  std::string baseline = "reference", candidate;
  std::string baseline_config, candidate_config;  // files named on the command line ("": none)
  std::string compat = "1.27";
  uint64_t seed = 1;
  int64_t traces = 0;  // N: the campaign's traces, 0..N-1
  std::vector<std::string> generators;
  std::vector<std::string> shards;  // "I/N" of each shard run or merged, sorted
  int64_t traces_run = 0, passed = 0;
  std::vector<Group> groups;                       // ordered by first trace index
  std::vector<Skipped> skipped;                    // ordered by trace
  std::vector<Nondeterministic> nondeterministic;  // ordered by trace

  // 3 if any trace was nondeterministic, else 1 if any group, else 0.
  int ExitCode() const;
};

nlohmann::ordered_json ToJson(const Summary& s);
// Errors name `source` and the field that is missing or of the wrong type.
Result<Summary> FromJson(const nlohmann::json& j, const std::string& source);

std::string MarkdownSummary(const Summary& s);
// One <testcase> per group (failing), per nondeterministic trace (an error) and one for the
// traces without findings.
std::string JUnitSummary(const Summary& s);

// The shards' summaries as one: the same parameters required (an error names the first that
// differs and the shard), no shard twice; groups with one signature joined (their traces merged,
// the first trace's details kept). The result equals the unsharded campaign's summary except for
// `shards`.
Result<Summary> Merge(const std::vector<Summary>& shards, const std::vector<std::string>& sources);

}  // namespace schedcheck::campaign

#endif  // SCHEDCHECK_HARNESS_CAMPAIGN_SUMMARY_H_
