// The campaign rows that name builds by spec (harness/candidates, as `schedcheck campaign` does):
// a pair of builds replaying every bench campaign trace and diffing the two logs, the work of a
// differential campaign; and two builds A and B compared round by round on the same traces, so a
// slowdown of one shows as a ratio measured under the same load.
#ifndef SCHEDCHECK_HARNESS_BENCH_CAMPAIGN_RUNS_H_
#define SCHEDCHECK_HARNESS_BENCH_CAMPAIGN_RUNS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/bench/external.h"
#include "reference/base/result.h"

namespace schedcheck::bench {

// "BASELINE,CANDIDATE@COMPAT": e.g. "reference,kube:1.37@1.37", "kube:1.27,kube:1.27@1.27".
struct CampaignPair {
  std::string baseline, candidate, compat;
};
// Errors (bad input) name the text and what is missing.
Result<CampaignPair> ParseCampaignPair(const std::string& text);
// The pairs the bench runs by default: the reference against kube 1.37 at 1.37, and kube 1.27
// against itself at 1.27 (two adapter processes; the campaign's cost with no reference in it).
std::vector<CampaignPair> DefaultCampaignPairs();

// Every trace through both builds (gate::PairReplay: one child per out-of-process side for the
// whole campaign) and the two logs diffed; `divergent` counts the traces that differ. Labelled
// "BASELINE vs CANDIDATE (COMPAT)"; each child's profile is labelled by its side. Errors: a bad
// spec (a kube: adapter that is not built). A failing replay stops the campaign with a note.
Result<CampaignResult> RunCampaignPair(const std::vector<CampaignTrace>& traces,
                                       const CampaignPair& pair, int64_t timeout_ms);

// One build alone over every trace: in process for an in-process spec (the reference or a variant
// of it), else one child for the campaign (RunCampaignExternal).
Result<CampaignResult> RunCampaignBuild(const std::vector<CampaignTrace>& traces,
                                        const std::string& label, const std::string& spec,
                                        const std::string& compat, int64_t timeout_ms);

// Builds A and B over the same traces, alternately (A B, B A, A B, ...) for `rounds` rounds.
struct CompareResult {
  std::string a, b, compat;  // the specs
  std::vector<CampaignResult> a_runs, b_runs;
};
Result<CompareResult> RunCompare(const std::vector<CampaignTrace>& traces, const std::string& a,
                                 const std::string& b, const std::string& compat, int rounds,
                                 int64_t timeout_ms);
// traces/s of A and B (median and range), B / A of the medians and its range within a round, and
// the adapters' shares of each side (their last round).
std::string FormatCompare(const CompareResult& r);
nlohmann::json CompareToJson(const CompareResult& r);

// Median of `v` (the mean of the middle two for an even count); 0 when empty.
double Median(std::vector<double> v);

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_CAMPAIGN_RUNS_H_
