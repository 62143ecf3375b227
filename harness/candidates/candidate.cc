#include "harness/candidates/candidate.h"

#include <charconv>
#include <set>

#include "harness/candidates/forget_events.h"
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
      auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.name == plugin; });
      if (it == entries.end()) continue;
      it->weight = weight;
      found = true;
      break;
    }
  }
  if (!found) return Error{plugin + " is not enabled at Score or MultiPoint in any profile"};
  return Outcome::Ok();
}

Outcome Apply(const std::string& part, Candidate* c, std::set<std::string>* forget) {
  const size_t colon = part.find(':');
  const std::string kind = part.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : part.substr(colon + 1);
  if (kind == "reference" && colon == std::string::npos) return Outcome::Ok();
  if (colon == std::string::npos || arg.empty()) return Error{"want KIND:ARG (kinds: " + CandidateHelp() + ")"};
  if (kind == "weight") return SetWeight(arg, &c->config);
  if (kind == "config") {
    auto config = reference::LoadSchedulerConfiguration(arg, "1.27");
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

}  // namespace

std::string CandidateHelp() {
  return "reference | weight:PLUGIN=N | config:FILE | forget-events:PLUGIN, joined with '+'";
}

Result<Candidate> MakeCandidate(const std::string& spec, const reference::SchedulerConfiguration& base) {
  Candidate c{spec, base, nullptr};
  std::set<std::string> forget;
  size_t start = 0;
  while (true) {
    const size_t plus = spec.find('+', start);
    const std::string part = spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    if (Outcome ok = Apply(part, &c, &forget); !ok) return Error{"candidate \"" + spec + "\": " + part + ": " + ok.message()};
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

Result<std::vector<trace::Record>> ReplayCandidate(const Candidate& candidate, const trace::Trace& trace) {
  replay::ReplayOptions options;
  options.config = candidate.config;
  options.registry = candidate.registry.get();
  auto start = trace.header.labels().find("start_time");
  if (start != trace.header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return Error{"header label start_time: " + epoch.message()};
    options.epoch_unix_ns = *epoch;
  }
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(trace.records); !ok) return ok.error();
  return (*replayer)->log().records();
}

}  // namespace schedcheck::candidates
