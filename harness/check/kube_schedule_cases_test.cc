// The `schedule` and `preempt` conformance cases at compat 1.37, checked against the real
// kube-scheduler v1.37.2 (//harness/kube:kube-adapter-1.37): each case becomes a trace (its
// objects and bound pods at t = 0, each of podsBefore one second apart, then the pod under test)
// replayed by the adapter with the case's profile, and the adapter's first attempt for the pod
// must satisfy the case's `expect` (for preempt: the attempt's nominated node and victims). The
// reference replays the same trace and must decide the same. So a case's expectation is
// upstream's own answer, not only our reading of the source it cites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/check/case.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "reference/runtime/profile.h"

namespace schedcheck::check {
namespace {

using nlohmann::json;

std::string Root() {
  const char* dir = std::getenv("TEST_SRCDIR");
  return dir == nullptr ? "" : std::string(dir) + "/schedcheck/";
}

// The case's profile as a KubeSchedulerConfiguration (JSON is YAML), as CaseProfile builds it.
json ConfigFor(const Case& c) {
  json plugins = json::object();
  auto entry = [&](const std::string& name) {
    json e = {{"name", name}};
    if (auto w = c.plugin_weights.find(name); w != c.plugin_weights.end()) e["weight"] = w->second;
    return e;
  };
  if (c.default_plugins) {
    // A re-configured default keeps its place (mergePluginSet); only the weights change.
    for (const auto& [name, weight] : c.plugin_weights)
      plugins["multiPoint"]["enabled"].push_back({{"name", name}, {"weight", weight}});
  } else {
    plugins["multiPoint"]["disabled"] = json::array({{{"name", "*"}}});
    bool has_sort = false, has_binder = false;
    for (const CasePlugin& p : c.plugins) {
      has_sort |= p.name == "PrioritySort";
      has_binder |= p.name == "DefaultBinder";
      if (p.points.empty()) {
        plugins["multiPoint"]["enabled"].push_back(entry(p.name));
        continue;
      }
      for (reference::ExtensionPoint point : p.points) {
        plugins[std::string(reference::ExtensionPointConfigKey(point))]["enabled"].push_back(
            entry(p.name));
      }
    }
    if (!has_sort) plugins["multiPoint"]["enabled"].push_back({{"name", "PrioritySort"}});
    if (!has_binder) plugins["multiPoint"]["enabled"].push_back({{"name", "DefaultBinder"}});
  }
  json profile = {{"schedulerName", "default-scheduler"}};
  if (!plugins.empty()) profile["plugins"] = plugins;
  for (const auto& [name, args] : c.plugin_args)
    profile["pluginConfig"].push_back({{"name", name}, {"args", args}});
  return {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
          {"kind", "KubeSchedulerConfiguration"},
          {"profiles", json::array({profile})}};
}

constexpr int64_t kSecond = 1'000'000'000;

template <typename Set>
trace::Record Added(int64_t t, Set set) {
  trace::Record r;
  r.set_time_ns(t);
  r.mutable_api()->set_type(trace::ADDED);
  set(r.mutable_api());
  return r;
}

std::vector<trace::Record> TraceOf(const Case& c) {
  std::vector<trace::Record> out;
  for (const auto& o : c.namespaces)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_namespace_() = o; }));
  for (const auto& o : c.pdbs)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_pod_disruption_budget() = o; }));
  for (const auto& o : c.services)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_service() = o; }));
  for (const auto& o : c.replication_controllers)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_replication_controller() = o; }));
  for (const auto& o : c.replica_sets)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_replica_set() = o; }));
  for (const auto& o : c.stateful_sets)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_stateful_set() = o; }));
  for (const auto& o : c.nodes)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_node() = o; }));
  for (const auto& o : c.pods)
    out.push_back(Added(0, [&](trace::ApiEvent* e) { *e->mutable_pod() = o; }));
  int64_t t = 0;
  for (const auto& o : c.pods_before) {
    t += kSecond;
    out.push_back(Added(t, [&](trace::ApiEvent* e) { *e->mutable_pod() = o; }));
  }
  out.push_back(Added(t + kSecond, [&](trace::ApiEvent* e) { *e->mutable_pod() = *c.pod; }));
  return out;
}

std::string PodKey(const k8s::Pod& pod) {
  const std::string& ns = pod.metadata().namespace_();
  return (ns.empty() ? "default" : ns) + "/" + pod.metadata().name();
}

// The first attempt for `key`, or null.
const trace::Attempt* FirstAttempt(const std::vector<trace::Record>& log, const std::string& key) {
  for (const trace::Record& r : log) {
    if (r.has_attempt() && r.attempt().pod() == key) return &r.attempt();
  }
  return nullptr;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// One {"nominatedNode": n, "victims": [...]} (victims as a set) against the attempt. The case
// names the chosen candidate's victims; an attempt lists the pods the preemption deletes, which
// at v1.37 leaves out victims already terminating (prepareCandidateAsync).
bool SamePreemption(const Case& c, const json& want, const trace::Attempt& a) {
  if (a.nominated_node() != want.value("nominatedNode", "")) return false;
  if (!want.contains("victims")) return true;
  std::vector<std::string> deleted;
  for (const std::string& v : want["victims"].get<std::vector<std::string>>()) {
    const bool terminating = std::any_of(c.pods.begin(), c.pods.end(), [&](const k8s::Pod& p) {
      return PodKey(p) == v && !p.metadata().deletion_timestamp().empty();
    });
    if (!terminating) deleted.push_back(v);
  }
  return Sorted(deleted) == Sorted({a.victims().begin(), a.victims().end()});
}

// "" when `a` satisfies the preempt expectation `want` (docs/FORMATS.md), else why not. A
// `status` expectation (preemption does not nominate) needs an attempt without a nomination.
std::string UnmetPreemption(const Case& c, const json& want, const trace::Attempt& a) {
  const std::string got = "nominated " + json(a.nominated_node()).dump() + " with victims " +
                          json(Sorted({a.victims().begin(), a.victims().end()})).dump();
  if (a.result() == trace::SCHEDULED) return "expected a failed attempt, got scheduled";
  if (want.contains("status")) return a.nominated_node().empty() ? "" : "expected none, " + got;
  if (want.contains("anyOf")) {
    for (const json& w : want["anyOf"]) {
      if (SamePreemption(c, w, a)) return "";
    }
    return "expected any of " + want["anyOf"].dump() + ", got " + got;
  }
  return SamePreemption(c, want, a) ? "" : "expected " + want.dump() + ", got " + got;
}

// "" when `a` satisfies the schedule expectation `want` (docs/FORMATS.md), else why not.
std::string Unmet([[maybe_unused]] const Case& c, const json& want, const trace::Attempt& a) {
  const bool scheduled = a.result() == trace::SCHEDULED;
  const std::vector<std::string> ties = Sorted({a.ties().begin(), a.ties().end()});
  const std::string got =
      scheduled ? "scheduled, tie set " + json(ties).dump() : "unschedulable: " + a.message();
  if (want.contains("node")) {
    if (scheduled && ties == std::vector<std::string>{want["node"].get<std::string>()}) return "";
    return "expected node " + want["node"].dump() + ", got " + got;
  }
  if (want.contains("anyOf")) {
    const auto any = want["anyOf"].get<std::vector<std::string>>();
    const bool ok = scheduled && std::all_of(ties.begin(), ties.end(), [&](const std::string& n) {
                      return std::find(any.begin(), any.end(), n) != any.end();
                    });
    return ok ? "" : "expected any of " + want["anyOf"].dump() + ", got " + got;
  }
  if (want.contains("ties")) {
    if (scheduled && ties == Sorted(want["ties"].get<std::vector<std::string>>())) return "";
    return "expected the tie set " + want["ties"].dump() + ", got " + got;
  }
  if (want.value("unschedulable", false)) {
    if (scheduled) return "expected unschedulable, got " + got;
    if (want.contains("message") && want["message"].get<std::string>() != a.message())
      return "expected message " + want["message"].dump() + ", got " + json(a.message()).dump();
    return "";
  }
  return "expect needs node, anyOf, ties or unschedulable";
}

// The schedule and preempt cases at compat 1.37 that a trace can state. A case whose `pods`
// include an unbound pod (a nominated pod waiting in the queue) is left out and named on stderr:
// in a replay that pod would be scheduled too.
std::vector<Case> ReplayableCases137(const std::string& kind) {
  auto cases = LoadCases({Root() + "reference/conformance/cases"});
  EXPECT_TRUE(cases.ok()) << cases.message();
  std::vector<Case> out;
  if (!cases.ok()) return out;
  for (Case& c : *cases) {
    if (c.kind != kind || c.compat != "1.37") continue;
    if (std::any_of(c.pods.begin(), c.pods.end(),
                    [](const k8s::Pod& p) { return p.spec().node_name().empty(); })) {
      std::fprintf(stderr, "not replayable (an unbound pod in pods): %s\n", c.id.c_str());
      continue;
    }
    out.push_back(std::move(c));
  }
  return out;
}

// Replays `c` through the adapter and the reference; checks the adapter's first attempt for the
// pod with `unmet` and that the reference decided alike.
void CheckCase(protocol::ReplaySession& adapter, const Case& c,
               std::string (*unmet)(const Case&, const json&, const trace::Attempt&)) {
  SCOPED_TRACE(c.id + " (" + c.location + ")");
  const std::string config = ConfigFor(c).dump();
  replay::ReplayOptions options;
  options.compat = "1.37";
  auto parsed = reference::ParseSchedulerConfigurationYaml(config, "the case's profile", "1.37");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  options.config = *parsed;
  const std::vector<trace::Record> records = TraceOf(c);
  const std::string key = PodKey(*c.pod);

  protocol::ExternalReplay kube =
      adapter.Replay(records, protocol::HelloFor(options, config, "the case's profile"));
  ASSERT_TRUE(kube.status.ok()) << kube.status.message();
  const trace::Attempt* k = FirstAttempt(kube.decisions, key);
  ASSERT_NE(k, nullptr) << "kube-scheduler made no attempt for " << key;
  EXPECT_EQ(unmet(c, c.expect, *k), "") << "kube-scheduler v1.37.2; source: " << c.source;

  auto replayer = replay::Replayer::Create(options);
  ASSERT_TRUE(replayer.ok()) << replayer.message();
  ASSERT_TRUE((*replayer)->Run(records).ok());
  const trace::Attempt* r = FirstAttempt((*replayer)->log().records(), key);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->result(), k->result());
  EXPECT_EQ(Sorted({r->ties().begin(), r->ties().end()}),
            Sorted({k->ties().begin(), k->ties().end()}));
  EXPECT_EQ(r->message(), k->message());
  EXPECT_EQ(r->nominated_node(), k->nominated_node());
  EXPECT_EQ(Sorted({r->victims().begin(), r->victims().end()}),
            Sorted({k->victims().begin(), k->victims().end()}));
}

TEST(KubeScheduleCases, TheRealSchedulerMeetsEveryScheduleCaseAtCompat137) {
  const std::vector<Case> cases = ReplayableCases137("schedule");
  ASSERT_GE(cases.size(), 15u) << "too few replayable schedule cases at compat 1.37";
  protocol::ReplaySession adapter(Root() + "harness/kube/kube-adapter-1.37");
  for (const Case& c : cases) CheckCase(adapter, c, &Unmet);
}

TEST(KubeScheduleCases, TheRealSchedulerMeetsEveryPreemptCaseAtCompat137) {
  const std::vector<Case> cases = ReplayableCases137("preempt");
  ASSERT_GE(cases.size(), 10u) << "too few replayable preempt cases at compat 1.37";
  protocol::ReplaySession adapter(Root() + "harness/kube/kube-adapter-1.37");
  for (const Case& c : cases) CheckCase(adapter, c, &UnmetPreemption);
}

}  // namespace
}  // namespace schedcheck::check
