#include "properties/support.h"

#include <sys/stat.h>

#include <cstdlib>

#include "harness/replay/replayer.h"
#include "rapidcheck.h"
#include "reference/runtime/profile.h"
#include "traces/trace_writer.h"

namespace schedcheck::properties {
namespace {

trace::Record Added(const k8s::Node* node, const k8s::Pod* pod) {
  trace::Record r;
  r.mutable_api()->set_type(trace::ADDED);
  if (node) *r.mutable_api()->mutable_node() = *node;
  if (pod) *r.mutable_api()->mutable_pod() = *pod;
  return r;
}

std::string Key(const k8s::Pod& p) {
  return (p.metadata().namespace_().empty() ? "default" : p.metadata().namespace_()) + "/" +
         p.metadata().name();
}

void ApplyApi(const trace::ApiEvent& e, ApiState* st) {
  if (e.has_node()) {
    if (e.type() == trace::DELETED) {
      st->nodes.erase(e.node().metadata().name());
    } else {
      st->nodes[e.node().metadata().name()] = e.node();
    }
  } else if (e.has_pod()) {
    if (e.type() == trace::DELETED) {
      st->pods.erase(Key(e.pod()));
    } else {
      k8s::Pod& pod = st->pods[Key(e.pod())];
      // spec.nodeName is immutable once set: the API server (and the replay) keep a bound pod
      // where it is whatever node an update names (docs/FORMATS.md#replay-conventions).
      const std::string bound = pod.spec().node_name();
      pod = e.pod();
      if (!bound.empty()) pod.mutable_spec()->set_node_name(bound);
    }
  }
}

void ApplyDecision(const trace::Record& r, ApiState* st) {
  if (r.has_binding()) {
    auto it = st->pods.find(r.binding().pod());
    if (it != st->pods.end()) {
      it->second.mutable_spec()->set_node_name(r.binding().node());
      it->second.mutable_status()->clear_nominated_node_name();
    }
  } else if (r.has_attempt()) {
    for (const std::string& v : r.attempt().victims()) st->pods.erase(v);
  }
}

}  // namespace

LoadedCase Load(const ClusterCase& c, reference::Engine engine, const std::string& compat,
                const reference::Profile* profile) {
  check::ClusterInput input;
  input.nodes = c.nodes;
  input.pods = c.bound;
  auto cluster = check::Cluster::Build(
      input, profile != nullptr ? *profile : reference::DefaultProfile(compat), compat, engine);
  if (!cluster.ok()) RC_FAIL("cluster does not load: " + cluster.message());
  auto pod =
      reference::BuildPod(c.pod, reference::FeaturesFor(*reference::ParseCompatLevel(compat)));
  if (!pod.ok()) RC_FAIL("pod does not load: " + pod.message());
  return LoadedCase{std::move(*cluster), *pod};
}

reference::ScheduleResult ScheduleOnce(const LoadedCase& loaded, uint64_t seed,
                                       reference::Engine engine) {
  reference::Scheduler& scheduler = loaded.cluster->scheduler();
  scheduler.SetPodScheduler(reference::MakePodScheduler(engine, seed, 0));
  reference::CycleState state;
  return scheduler.SchedulePod(state, *loaded.pod);
}

ClusterState StateOf(const ClusterCase& c) { return ClusterState{c.nodes, c.bound}; }

std::vector<trace::Record> CaseAsTrace(const ClusterCase& c) {
  std::vector<trace::Record> out;
  for (const k8s::Node& n : c.nodes) out.push_back(Added(&n, nullptr));
  for (const k8s::Pod& p : c.bound) out.push_back(Added(nullptr, &p));
  out.push_back(Added(nullptr, &c.pod));
  return out;
}

std::vector<trace::Record> ReplayScenario(const Scenario& s, uint64_t seed,
                                          reference::Engine engine, const std::string& compat,
                                          const reference::SchedulerConfiguration* config) {
  replay::ReplayOptions options;
  options.engine = engine;
  options.compat = compat;
  options.config = config != nullptr ? *config : reference::DefaultConfiguration(compat);
  options.seed = seed;
  auto replayer = replay::Replayer::Create(options);
  if (!replayer.ok()) RC_FAIL("replayer: " + replayer.message());
  if (Outcome ok = (*replayer)->Run(s.records); !ok) {
    RC_FAIL("replay failed: " + ok.message() + "\n" +
            SaveCounterexample("replay_error", s.records));
  }
  return (*replayer)->log().records();
}

ClusterState ApiState::Cluster(const std::string& exclude_pod) const {
  ClusterState out;
  for (const auto& [name, node] : nodes) out.nodes.push_back(node);
  for (const auto& [key, pod] : pods) {
    if (key == exclude_pod || pod.spec().node_name().empty() ||
        !nodes.count(pod.spec().node_name()))
      continue;
    out.bound.push_back(pod);
  }
  return out;
}

void WalkTimeline(const Scenario& s, const std::vector<trace::Record>& log,
                  const std::function<void(const ApiState&, const trace::Record&)>& visit) {
  ApiState st;
  size_t next = 0;
  for (const trace::Record& d : log) {
    while (next < s.records.size() && s.records[next].time_ns() <= d.time_ns()) {
      ApplyApi(s.records[next++].api(), &st);
    }
    visit(st, d);
    ApplyDecision(d, &st);
  }
}

std::string SaveCounterexample(const std::string& property,
                               const std::vector<trace::Record>& records) {
  trace::Trace t;
  t.header.set_producer("schedcheck properties (" + property + ")");
  t.header.set_compat("1.27");
  t.header.set_seed(1);
  t.records = records;
  // A stable path to replay at once, and (under Bazel) a copy among the test's undeclared
  // outputs, which Bazel keeps in bazel-testlogs/<target>/[shard_k_of_n/]test.outputs/outputs.zip.
  const std::string dir = "/tmp/schedcheck-properties";
  ::mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/" + property + ".trace";
  std::string report;
  if (Outcome ok = trace::WriteTrace(path, t); !ok) {
    report = "(could not write " + path + ": " + ok.message() + ")\n";
  } else {
    report = "counterexample trace: " + path +
             "\nreplay it with: bazel-bin/harness/cli/schedcheck replay " + path + " --jsonl " +
             path + ".decisions.jsonl\n";
  }
  const char* outputs = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  if (outputs != nullptr && *outputs != '\0') {
    const std::string kept = std::string(outputs) + "/" + property + ".trace";
    if (trace::WriteTrace(kept, t).ok())
      report += "also kept as " + property + ".trace in the test's outputs.zip\n";
  }
  return report;
}

}  // namespace schedcheck::properties
