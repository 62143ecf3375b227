#include "harness/bench/campaign_runs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "harness/candidates/candidate.h"
#include "harness/gate/pair_replay.h"
#include "reference/runtime/profile.h"

namespace schedcheck::bench {
namespace {

using Clock = std::chrono::steady_clock;

void Count(const std::vector<trace::Record>& decisions, CampaignResult* out) {
  for (const trace::Record& r : decisions) {
    out->attempts += r.has_attempt();
    out->bindings += r.has_binding();
  }
}

void Finish(CampaignResult* out, Clock::time_point start) {
  out->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out->traces_per_second = out->seconds > 0 ? out->traces / out->seconds : 0;
}

// The traces carry no configuration of their own (CampaignShapes), so both sides of a pair run
// the default profile of the level; a trace with one would need the sides rebuilt per trace.
Outcome DefaultProfileOnly(const std::vector<CampaignTrace>& traces) {
  for (const CampaignTrace& t : traces) {
    if (!t.config_text.empty())
      return Error{"campaign trace " + t.name + " has a configuration of its own"};
  }
  return Outcome::Ok();
}

std::string Fixed(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

}  // namespace

Result<CampaignPair> ParseCampaignPair(const std::string& text) {
  const size_t comma = text.find(',');
  const size_t at = text.rfind('@');
  if (comma == std::string::npos || at == std::string::npos || at < comma) {
    return Error{"campaign pair \"" + text +
                 "\": want BASELINE,CANDIDATE@COMPAT (e.g. reference,kube:1.37@1.37)"};
  }
  CampaignPair p{text.substr(0, comma), text.substr(comma + 1, at - comma - 1),
                 text.substr(at + 1)};
  if (p.baseline.empty() || p.candidate.empty())
    return Error{"campaign pair \"" + text + "\": a side is empty"};
  if (p.compat != "1.27" && p.compat != "1.37")
    return Error{"campaign pair \"" + text + "\": compat \"" + p.compat + "\" (want 1.27 or 1.37)"};
  return p;
}

std::vector<CampaignPair> DefaultCampaignPairs() {
  return {{"reference", "kube:1.37", "1.37"}, {"kube:1.27", "kube:1.27", "1.27"}};
}

Result<CampaignResult> RunCampaignPair(const std::vector<CampaignTrace>& traces,
                                       const CampaignPair& pair, int64_t timeout_ms) {
  if (Outcome ok = DefaultProfileOnly(traces); !ok) return ok.error();
  const reference::SchedulerConfiguration base = reference::DefaultConfiguration(pair.compat);
  gate::PairReplayOptions options;
  options.timeout_ms = timeout_ms;
  options.replay.compat = pair.compat;
  options.replay.epoch_unix_ns = CampaignReplayOptions(traces.front(), pair.compat).epoch_unix_ns;
  std::string profiles[2];
  for (int i = 0; i < 2; ++i) {
    const std::string& spec = i == 0 ? pair.baseline : pair.candidate;
    auto build = candidates::MakeCandidate(spec, base);
    if (!build.ok()) return Error{(i == 0 ? "baseline " : "candidate ") + build.message()};
    if (build->out_of_process()) {
      profiles[i] = NewProfilePath();
      build->command = WithProfile(build->command, profiles[i]);
    }
    (i == 0 ? options.baseline : options.candidate) =
        gate::PairSide{i == 0 ? "baseline" : "candidate", std::move(*build), "", ""};
  }
  CampaignResult out;
  out.label = pair.baseline + " vs " + pair.candidate + " (" + pair.compat + ")";
  out.divergent = 0;
  const Clock::time_point start = Clock::now();
  gate::PairReplay replay(std::move(options));
  for (const CampaignTrace& t : traces) {
    auto logs = replay.Run(t.records);
    if (!logs.ok()) {
      out.note = "failed on " + t.name + ": " + logs.message();
      break;
    }
    Count(logs->baseline, &out);
    Count(logs->candidate, &out);
    out.divergent += logs->diff.Fails();
    out.events += static_cast<int64_t>(t.records.size());
    ++out.traces;
  }
  if (Outcome ok = replay.Close(); !ok && out.note.empty())
    out.note = "closing the children: " + ok.message();
  out.processes_started = replay.children_started();
  Finish(&out, start);
  if (!profiles[0].empty()) TakeProfile(profiles[0], "baseline " + pair.baseline, &out);
  if (!profiles[1].empty()) TakeProfile(profiles[1], "candidate " + pair.candidate, &out);
  return out;
}

Result<CampaignResult> RunCampaignBuild(const std::vector<CampaignTrace>& traces,
                                        const std::string& label, const std::string& spec,
                                        const std::string& compat, int64_t timeout_ms) {
  if (Outcome ok = DefaultProfileOnly(traces); !ok) return ok.error();
  auto build = candidates::MakeCandidate(spec, reference::DefaultConfiguration(compat));
  if (!build.ok()) return Error{label + ": " + build.message()};
  if (build->out_of_process()) {
    CampaignResult out = RunCampaignExternal(traces, label, build->command, timeout_ms, compat);
    if (!out.note.empty()) return Error{label + ": " + out.note};
    return out;
  }
  CampaignResult out;
  out.label = label;
  const Clock::time_point start = Clock::now();
  for (const CampaignTrace& t : traces) {
    replay::ReplayOptions options = CampaignReplayOptions(t, compat);
    options.config = build->config;
    options.registry = build->registry.get();  // null: the default registry; `build` outlives it
    auto replayer = replay::Replayer::Create(std::move(options));
    if (!replayer.ok()) return Error{label + ": " + t.name + ": " + replayer.message()};
    if (Outcome ok = (*replayer)->Run(t.records); !ok)
      return Error{label + ": " + t.name + ": " + ok.message()};
    Count((*replayer)->log().records(), &out);
    out.events += static_cast<int64_t>(t.records.size());
    ++out.traces;
  }
  Finish(&out, start);
  return out;
}

Result<CompareResult> RunCompare(const std::vector<CampaignTrace>& traces, const std::string& a,
                                 const std::string& b, const std::string& compat, int rounds,
                                 int64_t timeout_ms) {
  CompareResult out{a, b, compat, {}, {}};
  for (int round = 0; round < rounds; ++round) {
    // A B, then B A: neither build always runs first, when the machine is fresher.
    for (int k = 0; k < 2; ++k) {
      const bool run_a = (round % 2 == 0) == (k == 0);
      auto r = RunCampaignBuild(traces, run_a ? "A: " + a : "B: " + b, run_a ? a : b, compat,
                                timeout_ms);
      if (!r.ok()) return r.error();
      (run_a ? out.a_runs : out.b_runs).push_back(std::move(*r));
    }
  }
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string FormatCompare(const CompareResult& r) {
  if (r.a_runs.empty() || r.b_runs.empty()) return "";
  auto rates = [](const std::vector<CampaignResult>& runs) {
    std::vector<double> v;
    for (const CampaignResult& c : runs) v.push_back(c.traces_per_second);
    return v;
  };
  const std::vector<double> a = rates(r.a_runs), b = rates(r.b_runs);
  std::vector<double> per_round;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    per_round.push_back(a[i] > 0 ? b[i] / a[i] : 0);
  auto range = [](const std::vector<double>& v, const char* format) {
    return Fixed(*std::min_element(v.begin(), v.end()), format) + "–" +
           Fixed(*std::max_element(v.begin(), v.end()), format);
  };
  const int traces = r.a_runs.front().traces;
  std::string out = "two builds compared: the campaign (" + std::to_string(traces) +
                    " traces, compat " + r.compat + ") replayed by A and B alternately, " +
                    std::to_string(a.size()) + " rounds\n\n" +
                    "| build | spec | traces/s, median (range) | ms per trace (median) |\n"
                    "|---|---|---|---|\n";
  out += "| A | " + r.a + " | " + Fixed(Median(a), "%.1f") + " (" + range(a, "%.1f") + ") | " +
         Fixed(1000 / std::max(Median(a), 1e-9), "%.2f") + " |\n";
  out += "| B | " + r.b + " | " + Fixed(Median(b), "%.1f") + " (" + range(b, "%.1f") + ") | " +
         Fixed(1000 / std::max(Median(b), 1e-9), "%.2f") + " |\n";
  out += "\nB / A (traces/s): " + Fixed(Median(b) / std::max(Median(a), 1e-9), "%.2f") +
         "× of the medians; " + range(per_round, "%.2f") + "× within a round.\n";
  // The child's CPU (from the kernel, when the harness reaped it) per trace: on a shared machine
  // it moves far less with the load than wall time does, so its ratio is the steadier regression
  // signal. Any out-of-process build has it; an in-process one has none.
  auto cpu = [](const std::vector<CampaignResult>& runs) {
    std::vector<double> v;
    for (const CampaignResult& c : runs) {
      if (c.child_cpu_seconds > 0 && c.traces > 0)
        v.push_back(c.child_cpu_seconds * 1000 / c.traces);
    }
    return v;
  };
  const std::vector<double> a_cpu = cpu(r.a_runs), b_cpu = cpu(r.b_runs);
  if (a_cpu.size() == a.size() && b_cpu.size() == b.size()) {
    std::vector<double> cpu_per_round;
    for (size_t i = 0; i < a_cpu.size() && i < b_cpu.size(); ++i)
      cpu_per_round.push_back(b_cpu[i] / a_cpu[i]);
    out += "Child CPU per trace (user and system, from the kernel): A " +
           Fixed(Median(a_cpu), "%.2f") + " ms (" + range(a_cpu, "%.2f") + "), B " +
           Fixed(Median(b_cpu), "%.2f") + " ms (" + range(b_cpu, "%.2f") + "); B / A " +
           Fixed(Median(b_cpu) / Median(a_cpu), "%.2f") + "× of the medians, " +
           range(cpu_per_round, "%.2f") + "× within a round (less moved by the machine's load).\n";
  }
  const CampaignResult& la = r.a_runs.back();
  const CampaignResult& lb = r.b_runs.back();
  if (la.attempts != lb.attempts || la.bindings != lb.bindings) {
    out += "note: A and B did not make the same decisions (attempts " +
           std::to_string(la.attempts) + " vs " + std::to_string(lb.attempts) + ", bindings " +
           std::to_string(la.bindings) + " vs " + std::to_string(lb.bindings) +
           "): the ratio compares different work.\n";
  }
  std::vector<AdapterProfile> profiles = la.profiles;
  profiles.insert(profiles.end(), lb.profiles.begin(), lb.profiles.end());
  if (!profiles.empty()) out += "\n" + FormatShares(profiles, traces);
  return out;
}

nlohmann::json CompareToJson(const CompareResult& r) {
  nlohmann::json doc = {{"a", r.a}, {"b", r.b}, {"compat", r.compat}};
  for (const auto& [key, runs] : {std::pair{"a_runs", &r.a_runs}, std::pair{"b_runs", &r.b_runs}})
    doc[key] = CampaignToJson(*runs);
  return doc;
}

}  // namespace schedcheck::bench
