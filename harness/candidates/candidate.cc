#include "harness/candidates/candidate.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "harness/candidates/forget_events.h"
#include "harness/candidates/kube_adapter.h"
#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "reference/plugins/registry.h"

namespace schedcheck::candidates {
namespace {

Outcome SetWeight(const std::string& arg, reference::SchedulerConfiguration* config) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return Error{"want PLUGIN=N"};
  const std::string plugin = arg.substr(0, eq);
  const std::string text = arg.substr(eq + 1);
  int32_t weight = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), weight);
  if (ec != std::errc() || ptr != text.data() + text.size() || weight < 1 || weight > 100) {
    return Error{"weight \"" + text + "\": want an integer from 1 to 100"};
  }
  bool found = false;
  for (reference::Profile& p : config->profiles) {
    // An explicit Score entry wins over a MultiPoint one, as in the framework's weights.
    for (auto point : {reference::ExtensionPoint::kScore, reference::ExtensionPoint::kMultiPoint}) {
      auto& entries = p.at(point).enabled;
      auto it = std::find_if(entries.begin(), entries.end(),
                             [&](const auto& e) { return e.name == plugin; });
      if (it == entries.end()) continue;
      it->weight = weight;
      found = true;
      break;
    }
  }
  if (!found) return Error{plugin + " is not enabled at Score or MultiPoint in any profile"};
  return Outcome::Ok();
}

Outcome Apply(const std::string& part, const k8s::YamlLimits& yaml, Candidate* c,
              std::set<std::string>* forget) {
  const size_t colon = part.find(':');
  const std::string kind = part.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : part.substr(colon + 1);
  if (kind == "reference" && colon == std::string::npos) return Outcome::Ok();
  if (colon == std::string::npos || arg.empty())
    return Error{"want KIND:ARG (kinds: " + CandidateHelp() + ")"};
  if (kind == "weight") return SetWeight(arg, &c->config);
  if (kind == "config") {
    auto config = reference::LoadSchedulerConfiguration(arg, "1.27", yaml);
    if (!config.ok()) return config.error();
    c->config = std::move(*config);
    return Outcome::Ok();
  }
  if (kind == "forget-events") {
    forget->insert(arg);
    return Outcome::Ok();
  }
  return Error{"unknown kind \"" + kind + "\" (kinds: " + CandidateHelp() + ")"};
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// An out-of-process spec taken apart: kind "exec" (arg: the command), "kube" (arg: the version)
// or "kube-src" (arg: the checkout's directory); kind empty for an in-process spec.
struct OutOfProcessSpec {
  std::string kind;
  std::string arg;
};

Error JoinError(const std::string& spec) {
  std::string message =
      "candidate \"" + spec +
      "\": an out-of-process build (exec:, kube:, kube-src:) cannot be joined with " +
      "'+': it runs as it is";
  if (StartsWith(spec, "exec:"))
    message += " (to pass a command containing \"+KIND:\", quote it: exec:\"CMD ARGS\")";
  return Error{message};
}

// True if `text` continues, after a '+', with something that reads as another spec: the user
// meant to join, which an out-of-process build cannot. Any other '+' belongs to the command.
bool LooksJoined(const std::string& text) {
  for (size_t plus = text.find('+'); plus != std::string::npos; plus = text.find('+', plus + 1)) {
    const std::string rest = text.substr(plus + 1);
    if (rest == "reference" || StartsWith(rest, "reference+")) return true;
    for (const char* kind :
         {"weight:", "config:", "forget-events:", "exec:", "kube:", "kube-src:"}) {
      if (StartsWith(rest, kind)) return true;
    }
  }
  return false;
}

Result<OutOfProcessSpec> ParseOutOfProcess(const std::string& spec) {
  if (StartsWith(spec, "exec:")) {
    std::string command = spec.substr(5);
    const bool quoted = command.size() >= 2 && command.front() == '"' && command.back() == '"';
    if (quoted) {
      command = command.substr(1, command.size() - 2);
    } else if (LooksJoined(command)) {
      return JoinError(spec);
    }
    if (command.find_first_not_of(" \t") == std::string::npos) {
      return Error{"candidate \"" + spec + "\": want exec:CMD ARGS (a command run via /bin/sh -c)"};
    }
    return OutOfProcessSpec{"exec", command};
  }
  if (StartsWith(spec, "kube:")) {
    const std::string version = spec.substr(5);
    if (version.find('+') != std::string::npos) return JoinError(spec);
    auto parsed = ParseKubeVersion(version);
    if (!parsed.ok()) return Error{"candidate \"" + spec + "\": " + parsed.message()};
    return OutOfProcessSpec{"kube", version};
  }
  if (StartsWith(spec, "kube-src:")) {
    const std::string dir = spec.substr(9);
    if (LooksJoined(dir)) return JoinError(spec);
    if (dir.empty()) {
      return Error{"candidate \"" + spec + "\": want kube-src:DIR, a local kubernetes checkout"};
    }
    return OutOfProcessSpec{"kube-src", dir};
  }
  // An in-process spec; an out-of-process part further on is a join.
  for (size_t plus = spec.find('+'); plus != std::string::npos; plus = spec.find('+', plus + 1)) {
    const std::string rest = spec.substr(plus + 1);
    if (StartsWith(rest, "exec:") || StartsWith(rest, "kube:") || StartsWith(rest, "kube-src:")) {
      return JoinError(spec);
    }
  }
  return OutOfProcessSpec{};
}

// A kube: adapter's path: the pinned one Bazel built, or a patch release built on first use (the
// pinned patch itself only when Bazel's is not there).
Result<std::string> KubeAdapterPath(const std::string& text) {
  auto version = ParseKubeVersion(text);
  if (!version.ok()) return version.error();
  const AdapterSearch search = AdapterSearch::FromEnvironment();
  if (!version->pinned.empty()) {
    auto pinned = FindKubeAdapter(version->pinned, search);
    if (pinned.ok()) return pinned;
    // A minor whose adapter target CI does not build: its pinned patch, built on first use.
    if (version->patch.empty() && !version->first_use.empty()) {
      KubeVersion exact = *version;
      exact.patch = version->first_use;
      return BuildKubeAdapter(exact, search);
    }
    if (version->patch.empty()) return pinned;
  }
  return BuildKubeAdapter(*version, search);
}

}  // namespace

std::string CandidateHelp() {
  std::string kube;
  for (const std::string& v : KubeAdapterVersions()) kube += " | kube:" + v;
  std::string minors;
  for (const std::string& m : KubeBridgeMinors()) minors += (minors.empty() ? "" : ", ") + m;
  kube += " | kube:X.Y.Z (a patch release of " + minors + ", built on first use)";
  kube += " | kube-src:DIR (a local kubernetes checkout of " + minors + ", built on first use)";
  return "reference | weight:PLUGIN=N | config:FILE | forget-events:PLUGIN, joined with '+'; or "
         "one "
         "out-of-process build: exec:\"CMD ARGS\"" +
         kube;
}

std::string OutOfProcessExplainNote(const std::string& label, const std::string& spec) {
  return label + ":\n  per-plugin statuses are not available for " + spec +
         " (it runs out of process; only its decisions are known)\n";
}

namespace {

// The minor of a kube: spec that the reference does not model ("1.36" for kube:1.36 and
// kube:1.36.2); empty for any other spec, and for kube:1.27 / kube:1.37 and their patches.
std::string UnmodelledKubeMinor(const std::string& spec) {
  auto parsed = ParseOutOfProcess(spec);
  if (!parsed.ok() || parsed->kind != "kube") return "";
  const std::string& v = parsed->arg;
  const std::string minor = v.substr(0, v.find('.', v.find('.') + 1));
  return minor == "1.27" || minor == "1.37" ? "" : minor;
}

}  // namespace

Outcome CheckCompatFor(const std::string& spec, const std::string& compat) {
  const std::string minor = UnmodelledKubeMinor(spec);
  if (minor.empty() || compat == "1.27") return Outcome::Ok();
  return Error{"--compat " + compat + ": " + spec + " runs kube-scheduler " + minor +
               ", which replays traces of level 1.27 at its own level but has no " + compat +
               " rules; replay at --compat 1.27 (the default), or compare it with a build of " +
               compat + " as the other side (e.g. --baseline " + spec +
               " --candidate kube:" + compat + ")"};
}

std::string ReferenceLevelNote(const std::string& baseline, const std::string& candidate) {
  std::string kube;
  if (baseline == "reference") kube = candidate;
  if (candidate == "reference") kube = baseline;
  const std::string minor = UnmodelledKubeMinor(kube);
  if (minor.empty()) return "";
  return "note: the reference models kube-scheduler 1.27 (and 1.37), not " + minor + "; " + kube +
         " replays the traces by " + minor +
         "'s rules, so a divergence may be a difference between the minors rather than a bug "
         "(compare builds of one minor, or --baseline kube:1.37 for the newer one)";
}

Result<bool> IsOutOfProcess(const std::string& spec) {
  auto parsed = ParseOutOfProcess(spec);
  if (!parsed.ok()) return parsed.error();
  return !parsed->kind.empty();
}

Result<Candidate> MakeCandidate(const std::string& spec,
                                const reference::SchedulerConfiguration& base,
                                const k8s::YamlLimits& yaml) {
  Candidate c{spec, base, nullptr};
  auto out_of_process = ParseOutOfProcess(spec);
  if (!out_of_process.ok()) return out_of_process.error();
  if (out_of_process->kind == "exec") {
    c.command = out_of_process->arg;
    return c;
  }
  if (out_of_process->kind == "kube" || out_of_process->kind == "kube-src") {
    auto path = out_of_process->kind == "kube"
                    ? KubeAdapterPath(out_of_process->arg)
                    : BuildKubeSrcAdapter(out_of_process->arg, AdapterSearch::FromEnvironment());
    if (!path.ok()) return path.error();
    RouteKubeLogsToFile();
    c.command = ShellQuote(*path);
    return c;
  }
  std::set<std::string> forget;
  size_t start = 0;
  while (true) {
    const size_t plus = spec.find('+', start);
    const std::string part =
        spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    if (Outcome ok = Apply(part, yaml, &c, &forget); !ok)
      return Error{"candidate \"" + spec + "\": " + part + ": " + ok.message()};
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  if (!forget.empty()) {
    auto registry = RegistryForgettingEvents(reference::PluginRegistry(), forget);
    if (!registry.ok()) return Error{"candidate \"" + spec + "\": " + registry.message()};
    c.registry = std::move(*registry);
  }
  return c;
}

namespace {

// The same replay as in process, driven over the protocol.
Result<std::vector<trace::Record>> ReplayOutOfProcess(const Candidate& candidate,
                                                      const trace::Trace& trace,
                                                      const replay::ReplayOptions& in_process,
                                                      const CandidateReplayOptions& o) {
  protocol::ExternalReplayOptions eo;
  eo.command = candidate.command;
  eo.timeout_ms = o.timeout_ms;
  eo.hello = protocol::HelloFor(in_process, o.config_yaml, o.config_source);
  protocol::ExternalReplay run = protocol::RunExternalReplay(trace.records, eo);
  if (!run.status.ok()) return run.status.error();
  return std::move(run.decisions);
}

}  // namespace

Result<replay::ReplayOptions> ReplayOptionsFor(const trace::Trace& trace,
                                               const CandidateReplayOptions& o) {
  replay::ReplayOptions options;
  options.engine = o.engine;
  options.compat = o.compat;
  options.feature_gates = o.feature_gates;
  options.volume_controllers = o.volume_controllers;
  options.volume_latency_ns = o.volume_latency_ns;
  if (Outcome ok = replay::ApplyHeaderVolumeLabels(trace.header, &options); !ok) {
    return ok.error();
  }
  auto start = trace.header.labels().find("start_time");
  if (start != trace.header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return Error{"header label start_time: " + epoch.message()};
    options.epoch_unix_ns = *epoch;
  }
  return options;
}

Result<std::vector<trace::Record>> ReplayCandidate(const Candidate& candidate,
                                                   const trace::Trace& trace,
                                                   const CandidateReplayOptions& o) {
  auto options = ReplayOptionsFor(trace, o);
  if (!options.ok()) return options.error();
  options->config = candidate.config;
  options->registry = candidate.registry.get();
  if (candidate.out_of_process()) return ReplayOutOfProcess(candidate, trace, *options, o);
  auto replayer = replay::Replayer::Create(std::move(*options));
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(trace.records); !ok) return ok.error();
  return (*replayer)->log().records();
}

}  // namespace schedcheck::candidates
