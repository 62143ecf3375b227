// `schedcheck campaign --candidate SPEC [--baseline SPEC] [--compat L] [--traces N] [--seed S]
// [--generators a,b] [--shard I/N] [--out DIR] [--baseline-config F] [--candidate-config F]
// [--max-replays N] [--scheduler-timeout S]` and `schedcheck campaign --merge DIR... --out DIR`:
// a differential campaign on generated traces (harness/campaign/README.md). Exit 0 no finding,
// 1 findings, 3 a build not deterministic on some trace, 2 bad input.
#ifndef SCHEDCHECK_HARNESS_CLI_CAMPAIGN_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_CAMPAIGN_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct CampaignCommandOptions {
  std::string baseline = "reference";
  std::string candidate;
  std::string baseline_config, candidate_config;
  std::string compat = "1.27";
  int64_t traces = 100;
  uint64_t seed = 1;
  std::vector<std::string> generators;  // empty: all
  std::string shard = "0/1";
  std::string out = "campaign";
  int64_t max_replays = 500;
  double scheduler_timeout_seconds = 30;
  std::vector<std::string> merge;  // `--merge DIR...`: merge these shard folders instead
  bool no_progress = false;        // `--no-progress`: no progress lines on stderr
};

// `terminal`: whether `err` is a terminal (a redrawn line) or not (a line per 25 traces).
int RunCampaignCommand(const CampaignCommandOptions& options, std::ostream& out, std::ostream& err,
                       bool terminal);
void AddCampaignCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_CAMPAIGN_COMMAND_H_
