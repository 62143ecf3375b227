#include "harness/campaign/trace_source.h"

#include <algorithm>
#include <set>

#include "harness/generators/generators.h"
#include "harness/generators/sample.h"
#include "harness/generators/spread_generators.h"
#include "harness/generators/storage_generators.h"
#include "harness/generators/wide_generators.h"

namespace schedcheck::campaign {
namespace {

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The records of a ClusterCase: its nodes, its bound pods, then the pod to place, all at t = 0.
std::vector<trace::Record> CaseRecords(const generators::ClusterCase& c) {
  std::vector<trace::Record> out;
  auto add = [&](auto set) {
    trace::Record r;
    r.mutable_api()->set_type(trace::ADDED);
    set(r.mutable_api());
    out.push_back(std::move(r));
  };
  for (const k8s::Node& n : c.nodes) add([&](trace::ApiEvent* e) { *e->mutable_node() = n; });
  for (const k8s::Pod& p : c.bound) add([&](trace::ApiEvent* e) { *e->mutable_pod() = p; });
  add([&](trace::ApiEvent* e) { *e->mutable_pod() = c.pod; });
  return out;
}

}  // namespace

const std::vector<std::string>& GeneratorNames() {
  static const std::vector<std::string> names = {
      "scenarios", "wide", "preemption", "storage", "spread", "match-label-keys", "cluster-cases"};
  return names;
}

std::vector<std::string> DefaultGenerators() { return GeneratorNames(); }

bool WantsConfigs(const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), kConfigs) != names.end();
}

std::vector<std::string> TraceGenerators(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (n != kConfigs) out.push_back(n);
  }
  return out.empty() ? DefaultGenerators() : out;
}

Outcome CheckGenerators(const std::vector<std::string>& names) {
  if (names.empty()) return Error{"--generators: the list is empty"};
  std::set<std::string> seen;
  std::set<std::string> known(GeneratorNames().begin(), GeneratorNames().end());
  known.insert(kConfigs);
  for (const std::string& name : names) {
    if (!known.count(name)) {
      std::string all;
      for (const std::string& k : GeneratorNames()) all += (all.empty() ? "" : ", ") + k;
      all += std::string(", ") + kConfigs;
      return Error{"--generators: unknown generator \"" + name + "\" (known: " + all + ")"};
    }
    if (!seen.insert(name).second) return Error{"--generators: \"" + name + "\" is listed twice"};
  }
  return Outcome::Ok();
}

uint64_t TraceSeed(uint64_t campaign_seed, int64_t index) {
  return SplitMix64(SplitMix64(campaign_seed) ^ static_cast<uint64_t>(index));
}

TraceSpec SpecOf(uint64_t campaign_seed, int64_t index,
                 const std::vector<std::string>& generators) {
  TraceSpec spec;
  spec.index = index;
  spec.seed = TraceSeed(campaign_seed, index);
  spec.generator = generators[SplitMix64(spec.seed) % generators.size()];
  spec.replay_seed = 1 + spec.seed % 1'000'000;
  return spec;
}

Result<std::vector<trace::Record>> DrawTrace(const TraceSpec& spec, const std::string& compat) {
  using Records = std::vector<trace::Record>;
  using namespace generators;  // NOLINT(build/namespaces): the generators read better unqualified
  const bool newer = compat == "1.37";
  const uint64_t realize = spec.replay_seed;
  const std::string& g = spec.generator;
  std::function<Records()> draw;
  if (g == "scenarios") {
    draw = [&] {
      Records r = (*ScenarioGen()).records;
      // v1.37's cache refuses writes that unset a bound pod's node (as the property suite does).
      return newer ? RealizeTrace(std::move(r), realize, compat) : r;
    };
  } else if (g == "wide") {
    draw = [&] { return RealizeTrace((*WideScenarioGen(newer)).records, realize, compat); };
  } else if (g == "preemption") {
    draw = [&] { return RealizeTrace((*PreemptionScenarioGen()).records, realize, compat); };
  } else if (g == "storage") {
    draw = [&] { return RealizeTrace((*StorageScenarioGen(newer)).records, realize, compat); };
  } else if (g == "spread") {
    draw = [] { return *DefaultSpreadTraceGen(); };
  } else if (g == "match-label-keys") {
    draw = [] { return *MatchLabelKeysTraceGen(); };
  } else if (g == "cluster-cases") {
    draw = [] { return CaseRecords(*ClusterCaseGen()); };
  } else {
    return Error{"unknown generator \"" + g + "\""};
  }
  auto records = generators::Sample<Records>(spec.seed, draw);
  if (!records.ok())
    return Error{"trace " + std::to_string(spec.index) + " (" + g + ", seed " +
                 std::to_string(spec.seed) + "): " + records.message()};
  return records;
}

}  // namespace schedcheck::campaign
