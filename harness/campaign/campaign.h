// A differential campaign: N generated traces (trace_source.h) replayed by a baseline and a
// candidate build (gate/pair_replay.h, one child process per out-of-process side for the whole
// campaign), each pair of logs diffed; the traces whose first divergence has one signature
// (signature.h) make one group, whose first trace is saved, explained as a diff and minimized
// (harness/minimize), with an HTML report of the minimal trace. A child that fails on a trace
// (crashes, hangs past the timeout, answers garbage) is a finding too, in a "crash" group; the
// next trace starts a new child. A trace that diverges first in a new group is replayed once more
// by each out-of-process side on a second child: a build that does not repeat itself is recorded
// as nondeterministic instead of making a group.
//
// Writes into `out_dir` (which must be new or empty): summary.json, summary.md, junit.xml and
// groups/<id>/ with trace.trace (the first trace), diff.txt, and, when minimized, min.trace,
// min.diff.txt and report.html. Every file is written atomically; none holds a clock reading.
#ifndef SCHEDCHECK_HARNESS_CAMPAIGN_CAMPAIGN_H_
#define SCHEDCHECK_HARNESS_CAMPAIGN_CAMPAIGN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/campaign/summary.h"
#include "reference/base/result.h"

namespace schedcheck::campaign {

struct CampaignOptions {
  std::string baseline = "reference";  // candidates/candidate.h specs
  std::string candidate;
  std::string baseline_config, candidate_config;  // KubeSchedulerConfiguration files, "" default
  std::string compat = "1.27";
  uint64_t seed = 1;
  int64_t traces = 100;
  std::vector<std::string> generators;  // empty: DefaultGenerators()
  int64_t shard = 0, shards = 1;        // this run's traces: k with k mod shards == shard
  std::string out_dir;
  int64_t timeout_ms = 30'000;  // per answer of a child
  int64_t max_replays = 500;    // minimize's budget per group; 0: do not minimize
  // Called after each trace with the number done and the number this shard runs, and the
  // groups so far (progress on stderr; the campaign itself reads no clock).
  std::function<void(int64_t done, int64_t total, size_t groups)> progress;
};

// Errors (exit 2): bad options, an unreadable configuration, a bad spec (a kube: adapter that is
// not built), an out_dir that is not empty or cannot be written. A failing child is a finding,
// not an error.
Result<Summary> RunCampaign(const CampaignOptions& options);

// Writes summary.json, summary.md and junit.xml of `summary` into `dir` (atomically each).
Outcome WriteSummaryFiles(const Summary& summary, const std::string& dir);

// `campaign --merge`: reads each folder's summary.json, merges them (summary.h), copies each
// group's folder from the shard whose first trace the merged group keeps, and writes the merged
// summary files into `out_dir` (new or empty). Errors name the folder and the field.
Result<Summary> MergeCampaigns(const std::vector<std::string>& dirs, const std::string& out_dir);

}  // namespace schedcheck::campaign

#endif  // SCHEDCHECK_HARNESS_CAMPAIGN_CAMPAIGN_H_
