#include "harness/cli/campaign_command.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "harness/campaign/campaign.h"
#include "harness/campaign/trace_source.h"
#include "harness/candidates/candidate.h"
#include "harness/cli/progress_line.h"
#include "harness/cli/seed_option.h"

namespace schedcheck::cli {
namespace {

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "I/N" with 0 <= I < N.
bool ParseShard(const std::string& text, int64_t* shard, int64_t* shards) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return false;
  try {
    size_t used = 0;
    *shard = std::stoll(text.substr(0, slash), &used);
    if (used != slash) return false;
    *shards = std::stoll(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) return false;
  } catch (const std::exception&) {
    return false;
  }
  return *shards >= 1 && *shard >= 0 && *shard < *shards;
}

void PrintResult(const campaign::Summary& s, std::ostream& out, const std::string& dir) {
  for (const campaign::Group& g : s.groups) {
    out << "GROUP " << g.id << " (" << g.traces.size() << " trace(s)): " << g.first << "\n";
  }
  for (const campaign::Nondeterministic& n : s.nondeterministic)
    out << "NONDETERMINISTIC trace " << n.trace << ": " << n.message << "\n";
  out << s.passed << " of " << s.traces_run << " traces without findings, " << s.groups.size()
      << " group(s) of findings";
  if (!s.skipped.empty()) out << ", " << s.skipped.size() << " trace(s) skipped";
  out << "; wrote " << dir << "/summary.md, summary.json, junit.xml\n";
}

}  // namespace

int RunCampaignCommand(const CampaignCommandOptions& o, std::ostream& out, std::ostream& err,
                       bool terminal) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck campaign: " << message << "\n";
    return 2;
  };
  if (!o.merge.empty()) {
    auto merged = campaign::MergeCampaigns(o.merge, o.out);
    if (!merged.ok()) return fail(merged.message());
    PrintResult(*merged, out, o.out);
    return merged->ExitCode();
  }
  if (o.candidate.empty()) return fail("--candidate is required (or --merge DIR...)");
  campaign::CampaignOptions c;
  c.baseline = o.baseline;
  c.candidate = o.candidate;
  c.baseline_config = o.baseline_config;
  c.candidate_config = o.candidate_config;
  c.compat = o.compat;
  c.seed = o.seed;
  c.traces = o.traces;
  c.generators = o.generators;
  if (!ParseShard(o.shard, &c.shard, &c.shards))
    return fail("--shard " + o.shard + ": expected I/N with 0 <= I < N, e.g. 0/4");
  c.out_dir = o.out;
  c.max_replays = o.max_replays;
  const double timeout = o.scheduler_timeout_seconds;
  if (!std::isfinite(timeout) || timeout < 0.001 || timeout > 1e9)
    return fail("--scheduler-timeout: must be between 0.001 and 1e9 seconds");
  c.timeout_ms = static_cast<int64_t>(std::llround(timeout * 1e3));
  const double start = NowSeconds();
  if (!o.no_progress) {
    c.progress = [&, last = 0.0](int64_t done, int64_t total, size_t groups) mutable {
      const double elapsed = NowSeconds() - start;
      const std::string line = "campaign: " + std::to_string(done) + "/" + std::to_string(total) +
                               " traces, " + std::to_string(groups) + " group(s), " +
                               std::to_string(static_cast<int>(done / std::max(elapsed, 1e-3))) +
                               " traces/s";
      if (terminal) {
        if (elapsed - last < 0.5 && done != total) return;
        last = elapsed;
        err << "\r\033[K" << line << (done == total ? "\n" : "") << std::flush;
      } else if (done % 25 == 0 || done == total) {
        err << line << "\n";
      }
    };
  }
  auto summary = campaign::RunCampaign(c);
  if (!summary.ok()) return fail(summary.message());
  PrintResult(*summary, out, o.out);
  return summary->ExitCode();
}

void AddCampaignCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "campaign",
      "Replay generated traces through a baseline and a candidate build, group the divergences "
      "by signature and minimize each group");
  auto o = std::make_shared<CampaignCommandOptions>();
  cmd->add_option("--candidate", o->candidate,
                  "candidate build (" + candidates::CandidateHelp() + ")");
  cmd->add_option("--baseline", o->baseline,
                  "the build the candidate is compared with, same specs; default reference");
  cmd->add_option("--baseline-config", o->baseline_config,
                  "the baseline's KubeSchedulerConfiguration (default profile if absent); an "
                  "exec:/kube: side is sent it unparsed");
  cmd->add_option("--candidate-config", o->candidate_config, "the candidate's, likewise");
  cmd->add_option("--compat", o->compat, "the level both sides replay at: 1.27 (default) or 1.37");
  cmd->add_option("--traces", o->traces, "traces in the campaign, numbered 0..N-1 (default 100)");
  AddSeedOption(cmd, "--seed", &o->seed,
                "the campaign's seed; trace k's own seed derives from it and k (default 1)");
  std::string names;
  for (const std::string& n : campaign::GeneratorNames()) names += (names.empty() ? "" : ",") + n;
  cmd->add_option("--generators", o->generators,
                  "comma-separated generators to draw from (default all: " + names +
                      "); add configs to give each trace a generated scheduler configuration, "
                      "both sides")
      ->delimiter(',');
  cmd->add_option("--shard", o->shard,
                  "I/N: run the traces k with k mod N = I (default 0/1); merge with --merge");
  cmd->add_option("--out", o->out, "a new or empty folder for the results (default campaign)");
  cmd->add_option("--max-replays", o->max_replays,
                  "minimize's budget of replays per group (default 500; 0: do not minimize)");
  cmd->add_option(
      "--scheduler-timeout", o->scheduler_timeout_seconds,
      "real-time seconds to wait for each answer of an exec:/kube: side's child (default 30); a "
      "child that takes longer is a finding (a crash group)");
  cmd->add_option("--merge", o->merge,
                  "merge these shard folders (each a campaign's --out) into --out instead of "
                  "running")
      ->expected(1, -1);
  cmd->add_flag("--no-progress", o->no_progress, "no progress lines on stderr");
  cmd->callback(
      [=] { *exit_code = RunCampaignCommand(*o, std::cout, std::cerr, StderrIsTerminal()); });
}

}  // namespace schedcheck::cli
