// Score drift (`diff --scores`): a change in scoring that leaves placement unchanged, or moves it
// only among tied nodes, is invisible to the placement diff (diff.h). When both logs recorded
// scores (`replay --scores K`, docs/FORMATS.md#scores), this pure checker compares them on every
// attempt both sides scheduled with the same placement (B's node in A's tie set): a node whose
// total differs, or top-K lists that differ in their nodes or order. It is its own class, kept
// apart from the divergences; whether it fails is the caller's choice (ScoresMode).
#ifndef SCHEDCHECK_HARNESS_DIFF_SCORE_DRIFT_H_
#define SCHEDCHECK_HARNESS_DIFF_SCORE_DRIFT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::diff {

struct ScoreDrift {
  std::string pod;
  int attempt = 0;
  int64_t t_ns = 0;  // A's time of the attempt
  // "total": `node` scored reference_total on A and candidate_total on B; "order": the top-K
  // lists name other nodes or another order with every common node's total equal.
  std::string what;
  std::string node;
  int64_t reference_total = 0;
  int64_t candidate_total = 0;
  // Per plugin of `node` whose weighted score differs: "NodeResourcesFit 62 vs 63" ("-" for a
  // plugin one side did not record).
  std::vector<std::string> plugins;
  std::string reference;  // A's top-K: "n1=250 n3=243 n2=243"
  std::string candidate;  // B's
  int64_t reference_record = -1;
  int64_t candidate_record = -1;
};

struct ScoreDriftResult {
  // At most one drift per pod (its earliest), ordered by time, then pod.
  std::vector<ScoreDrift> drifts;
  size_t attempts_compared = 0;  // attempts both sides scheduled alike with scores on both
  size_t reference_scored = 0;   // A's attempts carrying scores
  size_t candidate_scored = 0;   // B's
};

// Pairs each pod's n-th attempt on A with its n-th on B.
ScoreDriftResult CompareScores(const std::vector<trace::Record>& reference,
                               const std::vector<trace::Record>& candidate);

// "pod default/p at t=3 (attempt 1): score drift: node n2 total 243 vs 250 (NodeResourcesFit 62
// vs 69); reference top n1=250 n2=243; candidate top n2=250 n1=250" — sides named `a` and `b`.
std::string DescribeDrift(const ScoreDrift& d, std::string_view a = "reference",
                          std::string_view b = "candidate");

// `--scores=off|report|fail` (and auto, the default: fail when both logs come from builds of the
// same level, else report).
enum class ScoresMode { kAuto, kOff, kReport, kFail };
Result<ScoresMode> ParseScoresMode(const std::string& text);

// Whether a decision log's header says a build other than the reference made it: a `candidate`
// label other than "reference", or a `scheduler_cmd` label (replay --candidate / --scheduler-cmd).
// A JSON Lines log has no header (an empty one here): not known to be a build.
bool MadeByBuild(const trace::Header& header);

// Whether drift fails under `mode`: always for kFail, never for kOff and kReport; for kAuto when
// both headers say a build made the log and name the same level (header.compat).
bool ScoreDriftFails(ScoresMode mode, const trace::Header& a, const trace::Header& b);

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_SCORE_DRIFT_H_
