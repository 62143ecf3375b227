#include "harness/campaign/campaign.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "harness/campaign/config_source.h"
#include "harness/campaign/signature.h"
#include "harness/campaign/trace_source.h"
#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "harness/diff/report.h"
#include "harness/gate/pair_replay.h"
#include "harness/minimize/ddmin.h"
#include "harness/minimize/minimize.h"
#include "harness/report/html_report.h"
#include "reference/runtime/profile.h"
#include "traces/atomic_file.h"
#include "traces/trace_writer.h"

namespace schedcheck::campaign {
namespace {

namespace fs = std::filesystem;

const diff::SideNames kNames{"baseline", "candidate"};

// `dir` must not exist, or be an empty folder; it is created.
Outcome PrepareOutDir(const std::string& dir) {
  if (dir.empty()) return Error{"--out: no folder given"};
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return Error{"--out " + dir + ": exists and is not a folder"};
    if (!fs::is_empty(dir, ec))
      return Error{"--out " + dir + ": the folder is not empty (a campaign writes a new one)"};
  }
  fs::create_directories(dir, ec);
  if (ec) return Error{"--out " + dir + ": " + ec.message()};
  return Outcome::Ok();
}

Result<gate::PairReplayOptions> PairOptions(const CampaignOptions& o) {
  gate::PairReplayOptions p;
  p.replay.compat = o.compat;
  p.timeout_ms = o.timeout_ms;
  auto baseline = gate::LoadSide("baseline", o.baseline, o.baseline_config, o.compat, {});
  if (!baseline.ok()) return Error{"--baseline: " + baseline.message()};
  auto candidate = gate::LoadSide("candidate", o.candidate, o.candidate_config, o.compat, {});
  if (!candidate.ok()) return Error{"--candidate: " + candidate.message()};
  p.baseline = std::move(*baseline);
  p.candidate = std::move(*candidate);
  return p;
}

// The name a generated configuration has in Hello, explanations and the group's folder.
constexpr char kConfigFile[] = "config.yaml";

// Both sides with the generated configuration `yaml`: an in-process spec applies to it parsed, an
// exec:/kube: child is sent its text.
Result<std::pair<gate::PairSide, gate::PairSide>> SidesWith(const CampaignOptions& o,
                                                            const std::string& yaml) {
  auto config = reference::ParseSchedulerConfigurationYaml(yaml, kConfigFile, o.compat);
  if (!config.ok()) return config.error();
  auto side = [&](const std::string& name, const std::string& spec) -> Result<gate::PairSide> {
    auto build = candidates::MakeCandidate(spec, *config);
    if (!build.ok())
      return Error{name + " " + spec + " with the generated configuration: " + build.message()};
    return gate::PairSide{name, std::move(*build), yaml, kConfigFile};
  };
  auto baseline = side("baseline", o.baseline);
  if (!baseline.ok()) return baseline.error();
  auto candidate = side("candidate", o.candidate);
  if (!candidate.ok()) return candidate.error();
  return std::pair{std::move(*baseline), std::move(*candidate)};
}

replay::ReplayOptions ReplayFor(const gate::PairReplayOptions& base, const TraceSpec& spec) {
  replay::ReplayOptions r = base.replay;
  r.seed = spec.replay_seed;
  return r;
}

// The trace as a file: its records and a header naming where it came from.
trace::Trace AsTrace(const std::vector<trace::Record>& records, const TraceSpec& spec,
                     const CampaignOptions& o) {
  trace::Trace t{{}, records};
  t.header.set_producer("schedcheck campaign");
  t.header.set_compat(o.compat);
  t.header.set_seed(spec.replay_seed);
  auto& labels = *t.header.mutable_labels();
  labels["campaign_seed"] = std::to_string(o.seed);
  labels["trace_index"] = std::to_string(spec.index);
  labels["trace_seed"] = std::to_string(spec.seed);
  labels["generator"] = spec.generator;
  return t;
}

// The command that shrinks or replays the saved trace again outside the campaign.
std::string ReproLine(const CampaignOptions& o, const TraceSpec& spec, const std::string& file,
                      bool generated_config) {
  std::string line = "schedcheck minimize " + file + " --candidate " + o.candidate +
                     " --baseline " + o.baseline + " --compat " + o.compat + " --seed " +
                     std::to_string(spec.replay_seed);
  if (generated_config) line += std::string(" --config ") + kConfigFile;
  if (!o.baseline_config.empty()) line += " --baseline-config " + o.baseline_config;
  if (!o.candidate_config.empty()) line += " --candidate-config " + o.candidate_config;
  return line;
}

// One trace through both sides: the logs and their diff, or which side failed and how.
struct PairOutcome {
  gate::PairLogs logs;
  std::string crash_side;  // "" when both replayed
  std::string crash_message;
};

PairOutcome ReplayPair(gate::PairReplay& pair, const std::vector<trace::Record>& records) {
  PairOutcome out;
  for (gate::Which which : {gate::Which::kBaseline, gate::Which::kCandidate}) {
    auto log = pair.Replay(which, records);
    if (!log.ok()) {
      const gate::PairSide& side = pair.side(which);
      out.crash_side = side.name;
      out.crash_message = side.name + " " + side.build.spec + ": " + log.message();
      return out;
    }
    (which == gate::Which::kBaseline ? out.logs.baseline : out.logs.candidate) = std::move(*log);
  }
  out.logs.diff = diff::Diff(out.logs.baseline, out.logs.candidate, pair.options().diff);
  return out;
}

// Whether an out-of-process side repeats itself on `records` in another process (`second`):
// "" when each does, else the first difference.
std::string Nondeterminism(gate::PairReplay& second, const gate::PairLogs& logs,
                           const std::vector<trace::Record>& records) {
  for (gate::Which which : {gate::Which::kBaseline, gate::Which::kCandidate}) {
    const gate::PairSide& side = second.side(which);
    if (!side.build.out_of_process()) continue;
    auto again = second.Replay(which, records);
    // A failure the second time is not a different log of a run that finished: leave it.
    if (!again.ok()) continue;
    const std::string at = gate::FirstDifference(
        which == gate::Which::kBaseline ? logs.baseline : logs.candidate, *again);
    if (!at.empty())
      return "build " + side.build.spec + " is not deterministic: first difference at " + at;
  }
  return "";
}

// The per-plugin explanation of `d` for the in-process sides (a note for the others).
std::string Explain(const trace::Trace& t, const gate::PairLogs& logs, const diff::Divergence& d,
                    const gate::PairReplay& pair, const std::string& compat) {
  std::vector<diff::ExplainSide> sides;
  std::string notes;
  for (gate::Which which : {gate::Which::kBaseline, gate::Which::kCandidate}) {
    const gate::PairSide& side = pair.side(which);
    if (side.build.out_of_process()) {
      notes += candidates::OutOfProcessExplainNote(gate::SideLabel(side), side.build.spec);
    } else {
      sides.push_back({gate::SideLabel(side), side.build.config});
    }
  }
  if (sides.empty()) return notes;
  diff::ExplainOptions explain;
  explain.compat = compat;
  explain.snapshot_side = "baseline";
  auto text = diff::ExplainAt(t, logs.baseline, d, sides, explain);
  return (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + notes;
}

Outcome WriteText(const fs::path& path, const std::string& text) {
  return trace::WriteFileAtomically(path.string(), text);
}

// Minimizes a divergence group's first trace into `dir`: min.trace, min.diff.txt, report.html.
// Returns the line the summary keeps.
std::string MinimizeGroup(gate::PairReplay& pair, const trace::Trace& first,
                          const CampaignOptions& o, const fs::path& dir) {
  minimize::DiffOracle oracle =
      [&](const std::vector<trace::Record>& records) -> Result<minimize::Verdict> {
    auto logs = pair.Run(records);
    if (!logs.ok()) return logs.error();
    return minimize::VerdictOf(logs->baseline, std::move(logs->diff));
  };
  auto m = minimize::Minimize(first.records, oracle, {.max_replays = o.max_replays});
  if (!m.ok()) return "not minimized: " + m.message();
  if (!m->diverges) return "not minimized: the trace did not diverge when replayed again";
  trace::Trace minimal{first.header, m->records};
  (*minimal.header.mutable_labels())["minimized"] = "true";
  auto logs = pair.Run(minimal.records);
  if (!logs.ok()) return "not minimized: replaying the minimal trace again: " + logs.message();
  if (!minimize::SameDivergence(logs->diff, m->target))
    return "not minimized: the minimal trace did not diverge the same way when replayed again";
  const diff::Divergence& d = logs->diff.divergences.front();
  const std::string explanation = Explain(minimal, *logs, d, pair, o.compat);
  const minimize::MinimizeStats& s = m->stats;
  std::ostringstream text;
  text << "target (the first trace's first divergence): " << diff::Describe(m->target, kNames)
       << "\nevents " << s.events_before << " → " << s.events_after << ", objects "
       << s.objects_before << " → " << s.objects_after << ", fields " << s.fields_before << " → "
       << s.fields_after << ", replays " << s.replays
       << (s.budget_exhausted ? " (budget reached: may not be 1-minimal)" : "")
       << "\n\ndivergences of the minimal trace:\n";
  for (const diff::Divergence& x : logs->diff.divergences)
    text << "  " << diff::Describe(x, kNames) << "\n";
  text << "\n" << explanation;
  report::ReportInput input;
  input.title = "group " + dir.filename().string() + ": minimal trace";
  input.reference = {gate::SideLabel(pair.side(gate::Which::kBaseline)), logs->baseline};
  input.candidate = {gate::SideLabel(pair.side(gate::Which::kCandidate)), logs->candidate};
  input.result = logs->diff;
  input.explanation = explanation;
  auto html = report::RenderHtmlReport(input);
  for (Outcome ok : {trace::WriteTrace((dir / "min.trace").string(), minimal),
                     WriteText(dir / "min.diff.txt", text.str()),
                     html.ok() ? WriteText(dir / "report.html", *html) : Outcome(html.error())}) {
    if (!ok) return "not minimized: " + ok.message();
  }
  return "events " + std::to_string(s.events_before) + " → " + std::to_string(s.events_after) +
         ": " + diff::Describe(d, kNames);
}

// The replays a crash group's minimization may spend: each may wait for a hanging child's timeout.
constexpr int64_t kMaxCrashReplays = 100;

// Minimizes a crash group's first trace by its events (ddmin): the smallest sublist on which a
// side still fails with the same signature. Writes min.trace and min.diff.txt (the error).
std::string MinimizeCrash(gate::PairReplay& pair, const trace::Trace& first,
                          const std::string& signature, const CampaignOptions& o,
                          const fs::path& dir) {
  auto subset_of = [&](const std::vector<size_t>& kept) {
    std::vector<trace::Record> out;
    for (size_t i : kept) out.push_back(first.records[i]);
    return out;
  };
  std::string last_error;
  minimize::SubsetTest still_crashes = [&](const std::vector<size_t>& kept) {
    PairOutcome run = ReplayPair(pair, subset_of(kept));
    if (run.crash_side.empty() || CrashSignature(run.crash_side, run.crash_message) != signature) {
      return false;
    }
    last_error = run.crash_message;
    return true;
  };
  std::vector<size_t> all(first.records.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  minimize::Budget budget(std::min(o.max_replays, kMaxCrashReplays));
  minimize::SubsetTest counted = [&](const std::vector<size_t>& kept) {
    return budget.Take() && still_crashes(kept);
  };
  if (!counted(all)) return "not minimized: the crash did not come back on the first trace";
  const minimize::DdminResult r = minimize::Ddmin(all, counted, budget);
  trace::Trace minimal{first.header, subset_of(r.kept)};
  (*minimal.header.mutable_labels())["minimized"] = "true";
  const std::string events =
      "events " + std::to_string(first.records.size()) + " → " + std::to_string(r.kept.size());
  std::ostringstream text;
  text << "the first trace's failure, reduced by its events (" << events << ", replays "
       << budget.spent() << (r.budget_exhausted ? ", budget reached: may not be 1-minimal" : "")
       << ")\nsignature: " << signature << "\nlast failure: " << last_error << "\n";
  for (Outcome ok : {trace::WriteTrace((dir / "min.trace").string(), minimal),
                     WriteText(dir / "min.diff.txt", text.str())}) {
    if (!ok) return "not minimized: " + ok.message();
  }
  return events + ": " + CrashCause(last_error);
}

// Saves a new group's first trace and its diff (or error) into groups/<id>/.
Outcome WriteGroupFirst(const fs::path& dir, const trace::Trace& t, const PairOutcome& run,
                        const CampaignOptions& o, const TraceSpec& spec, const std::string& config,
                        const std::string& explanation) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir.string() + ": " + ec.message()};
  if (!config.empty()) {
    if (Outcome ok = WriteText(dir / kConfigFile, config); !ok) return ok;
  }
  if (Outcome ok = trace::WriteTrace((dir / "trace.trace").string(), t); !ok) return ok;
  std::ostringstream text;
  text << "trace " << spec.index << " of campaign seed " << o.seed << " (generator "
       << spec.generator << ", trace seed " << spec.seed << ", replay seed " << spec.replay_seed
       << ")\n"
       << (config.empty() ? "" : "both sides ran the generated configuration config.yaml\n")
       << "reproduce: " << ReproLine(o, spec, "trace.trace", !config.empty()) << "\n\n";
  if (!run.crash_side.empty()) {
    text << "the " << run.crash_side << "'s replay failed: " << run.crash_message << "\n";
  } else {
    diff::ReportOptions ro;
    ro.sides = kNames;
    text << diff::TextReport(
        {"trace " + std::to_string(spec.index), run.logs.diff, explanation, ""}, ro);
  }
  return WriteText(dir / "diff.txt", text.str());
}

}  // namespace

Outcome WriteSummaryFiles(const Summary& summary, const std::string& dir) {
  const fs::path d(dir);
  for (Outcome ok : {WriteText(d / "summary.json", ToJson(summary).dump(2) + "\n"),
                     WriteText(d / "summary.md", MarkdownSummary(summary)),
                     WriteText(d / "junit.xml", JUnitSummary(summary))}) {
    if (!ok) return ok;
  }
  return Outcome::Ok();
}

Result<Summary> RunCampaign(const CampaignOptions& o) {
  if (o.compat != "1.27" && o.compat != "1.37")
    return Error{"--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)"};
  for (const std::string& side : {o.baseline, o.candidate}) {
    if (Outcome ok = candidates::CheckCompatFor(side, o.compat); !ok) return ok.error();
  }
  if (o.traces < 1) return Error{"--traces: must be at least 1"};
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    return Error{"--shard: I/N needs 0 <= I < N"};
  if (o.max_replays < 0) return Error{"--max-replays: must be at least 0"};
  const std::vector<std::string> listed = o.generators.empty() ? DefaultGenerators() : o.generators;
  if (Outcome ok = CheckGenerators(listed); !ok) return ok.error();
  const std::vector<std::string> generators = TraceGenerators(listed);
  const bool configs = WantsConfigs(listed);
  if (configs && (!o.baseline_config.empty() || !o.candidate_config.empty()))
    return Error{
        "--generators configs gives both sides a generated configuration per trace; "
        "--baseline-config / --candidate-config contradict it"};
  auto po = PairOptions(o);
  if (!po.ok()) return po.error();
  if (Outcome ok = PrepareOutDir(o.out_dir); !ok) return ok.error();

  Summary s;
  s.baseline = o.baseline;
  s.candidate = o.candidate;
  s.baseline_config = o.baseline_config;
  s.candidate_config = o.candidate_config;
  s.compat = o.compat;
  s.seed = o.seed;
  s.traces = o.traces;
  s.generators = listed;
  s.shards = {std::to_string(o.shard) + "/" + std::to_string(o.shards)};
  gate::PairReplay pair(*po);
  gate::PairReplay second(*po);  // the nondeterminism check's other processes
  // Both pairs replay trace `spec` (with `config`, when generated) from now on.
  auto set_up = [&](const TraceSpec& spec, const std::string& config) -> Outcome {
    if (configs) {
      auto sides = SidesWith(o, config);
      if (!sides.ok()) return sides.error();
      pair.SetSides(sides->first, sides->second);
      second.SetSides(sides->first, sides->second);
    }
    pair.SetReplayOptions(ReplayFor(*po, spec));
    second.SetReplayOptions(ReplayFor(*po, spec));
    return Outcome::Ok();
  };
  std::map<std::string, size_t> group_of;  // signature -> index in s.groups
  struct Saved {
    trace::Trace trace;
    std::string config;
  };
  std::map<size_t, Saved> first_traces;  // divergence groups' first traces, to minimize
  const int64_t total = (o.traces - o.shard + o.shards - 1) / o.shards;
  for (int64_t k = o.shard; k < o.traces; k += o.shards) {
    const TraceSpec spec = SpecOf(o.seed, k, generators);
    auto records = DrawTrace(spec, o.compat);
    Result<std::string> config = std::string();
    if (configs && records.ok()) config = DrawConfiguration(spec.seed, o.compat);
    Outcome ready = records.ok() && config.ok() ? set_up(spec, *config) : Outcome::Ok();
    if (!records.ok() || !config.ok() || !ready) {
      s.skipped.push_back({k, !records.ok()  ? records.message()
                              : !config.ok() ? config.message()
                                             : ready.message()});
      if (o.progress) o.progress((k - o.shard) / o.shards + 1, total, s.groups.size());
      continue;
    }
    ++s.traces_run;
    PairOutcome run = ReplayPair(pair, *records);
    std::string signature, cls, first;
    std::vector<std::string> plugins;
    if (!run.crash_side.empty()) {
      signature = CrashSignature(run.crash_side, run.crash_message);
      cls = "crash";
      // How it failed, not the timing-dependent wording (diff.txt keeps the whole error).
      first =
          run.crash_side + " " +
          pair.side(run.crash_side == "baseline" ? gate::Which::kBaseline : gate::Which::kCandidate)
              .build.spec +
          " " + CrashCause(run.crash_message);
    } else if (!run.logs.diff.divergences.empty()) {
      const diff::Divergence& d = run.logs.diff.divergences.front();
      signature = DivergenceSignature(d);
      cls = std::string(diff::ClassName(d.cls));
      plugins = d.plugins;
      first = diff::Describe(d, kNames);
    }
    if (signature.empty()) {
      ++s.passed;
    } else if (auto it = group_of.find(signature); it != group_of.end()) {
      s.groups[it->second].traces.push_back(k);
    } else {
      const std::string why =
          run.crash_side.empty() ? Nondeterminism(second, run.logs, *records) : "";
      if (!why.empty()) {
        s.nondeterministic.push_back({k, why});
      } else {
        Group g{.id = std::to_string(k) + "-" + cls,
                .signature = signature,
                .cls = cls,
                .plugins = plugins,
                .traces = {k},
                .generator = spec.generator,
                .trace_seed = spec.seed,
                .replay_seed = spec.replay_seed,
                .config = config->empty() ? "" : kConfigFile,
                .first = first,
                .minimized = ""};
        const trace::Trace t = AsTrace(*records, spec, o);
        const std::string explanation =
            run.crash_side.empty()
                ? Explain(t, run.logs, run.logs.diff.divergences.front(), pair, o.compat)
                : "";
        if (Outcome ok = WriteGroupFirst(fs::path(o.out_dir) / "groups" / g.id, t, run, o, spec,
                                         *config, explanation);
            !ok) {
          return ok.error();
        }
        group_of[signature] = s.groups.size();
        first_traces[s.groups.size()] = {t, *config};
        s.groups.push_back(std::move(g));
      }
    }
    if (o.progress) o.progress((k - o.shard) / o.shards + 1, total, s.groups.size());
  }
  for (size_t i = 0; i < s.groups.size(); ++i) {
    Group& g = s.groups[i];
    auto it = first_traces.find(i);
    if (o.max_replays == 0) {
      g.minimized = "not minimized (--max-replays 0)";
    } else if (Outcome ok = set_up(SpecOf(o.seed, g.traces.front(), generators), it->second.config);
               !ok) {
      g.minimized = "not minimized: " + ok.message();
    } else if (g.cls == "crash") {
      g.minimized = MinimizeCrash(pair, it->second.trace, g.signature, o,
                                  fs::path(o.out_dir) / "groups" / g.id);
    } else {
      g.minimized = MinimizeGroup(pair, it->second.trace, o, fs::path(o.out_dir) / "groups" / g.id);
    }
  }
  // The children's exit statuses add nothing to the findings (a failed one is already a crash).
  (void)pair.Close();
  (void)second.Close();
  if (Outcome ok = WriteSummaryFiles(s, o.out_dir); !ok) return ok.error();
  return s;
}

Result<Summary> MergeCampaigns(const std::vector<std::string>& dirs, const std::string& out_dir) {
  std::vector<Summary> shards;
  std::vector<std::string> sources;
  std::map<std::string, std::string> dir_of_group;  // group id -> the shard folder holding it
  for (const std::string& dir : dirs) {
    const std::string path = (fs::path(dir) / "summary.json").string();
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open (is " + dir + " a campaign's --out folder?)"};
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Error{path + ": not valid JSON"};
    auto s = FromJson(j, path);
    if (!s.ok()) return s.error();
    for (const Group& g : s->groups) dir_of_group.emplace(g.id, dir);
    shards.push_back(std::move(*s));
    sources.push_back(path);
  }
  auto merged = Merge(shards, sources);
  if (!merged.ok()) return merged.error();
  if (Outcome ok = PrepareOutDir(out_dir); !ok) return ok.error();
  for (const Group& g : merged->groups) {
    const fs::path from = fs::path(dir_of_group[g.id]) / "groups" / g.id;
    const fs::path to = fs::path(out_dir) / "groups" / g.id;
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::copy(from, to, fs::copy_options::recursive, ec);
    if (ec) return Error{"copying " + from.string() + " to " + to.string() + ": " + ec.message()};
  }
  if (Outcome ok = WriteSummaryFiles(*merged, out_dir); !ok) return ok.error();
  return merged;
}

}  // namespace schedcheck::campaign
