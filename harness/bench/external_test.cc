// The bench's side-by-side and campaign paths on tiny workloads, with `schedcheck serve` (the
// reference behind the protocol) standing in for a kube-scheduler adapter: the child must bind
// exactly what the in-process reference binds. Measures nothing.
#include "harness/bench/external.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/bench/campaign_runs.h"
#include "harness/candidates/kube_adapter.h"

namespace schedcheck::bench {
namespace {

std::string Serve() {
  const char* dir = std::getenv("TEST_SRCDIR");
  return candidates::ShellQuote(std::string(dir ? dir : ".") +
                                "/schedcheck/harness/cli/schedcheck") +
         " serve";
}

constexpr int64_t kTimeoutMs = 60'000;

const workloads::ShapeInfo& Shape(const char* name) {
  const workloads::ShapeInfo* shape = workloads::FindShape(name);
  EXPECT_NE(shape, nullptr) << name;
  return *shape;
}

TEST(ExternalBenchTest, ConfigurationsAreTheSameTextForBothSides) {
  auto all = ConfigFor(Shape("SchedulingBasic"), Sampling::kAll);
  ASSERT_TRUE(all.ok()) << all.message();
  EXPECT_NE(all->text.find("\"percentageOfNodesToScore\": 100"), std::string::npos) << all->text;
  EXPECT_EQ(all->config.percentage_of_nodes_to_score, 100);
  auto adaptive = ConfigFor(Shape("SchedulingBasic"), Sampling::kAdaptive);
  ASSERT_TRUE(adaptive.ok()) << adaptive.message();
  EXPECT_EQ(adaptive->text, "");  // kube-scheduler's default profile: the child gets no text
  EXPECT_EQ(adaptive->config.percentage_of_nodes_to_score, 0);
}

TEST(ExternalBenchTest, ChildBindsTheMeasuredPodsTheReferenceBinds) {
  const workloads::WorkloadParams p{.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 3};
  for (Sampling sampling : {Sampling::kAdaptive, Sampling::kAll}) {
    SCOPED_TRACE(SamplingName(sampling));
    auto ref = RunWorkload(Shape("SchedulingBasic"), p, nullptr, sampling);
    ASSERT_TRUE(ref.ok()) << ref.message();
    auto child = RunWorkloadExternal(Shape("SchedulingBasic"), p, sampling, "stand-in", Serve(),
                                     kTimeoutMs, nullptr);
    ASSERT_TRUE(child.ok()) << child.message();
    EXPECT_EQ(child->events, ref->events);
    EXPECT_EQ(ref->measured_bound, 20);
    EXPECT_EQ(child->measured_bound, ref->measured_bound);
    EXPECT_EQ(child->sampling, sampling);
    EXPECT_GT(child->pods_per_second, 0);
    EXPECT_GT(child->measured_seconds, 0);
    EXPECT_GE(child->total_seconds, child->measured_seconds);
    EXPECT_NEAR(child->pods_per_second, 20 / child->measured_seconds, 1e-6);
  }
}

// Preemptors bind after the last trace event, which a child gets as one Finish request.
TEST(ExternalBenchTest, ChildBindsThePreemptorsAfterTheLastEvent) {
  const workloads::WorkloadParams p{
      .nodes = 10, .initial_pods = 40, .measured_pods = 10, .seed = 1};
  auto ref = RunWorkload(Shape("PreemptionBasic"), p, nullptr, Sampling::kAll);
  ASSERT_TRUE(ref.ok()) << ref.message();
  auto child = RunWorkloadExternal(Shape("PreemptionBasic"), p, Sampling::kAll, "stand-in", Serve(),
                                   kTimeoutMs, nullptr);
  ASSERT_TRUE(child.ok()) << child.message();
  EXPECT_EQ(ref->measured_bound, 10);
  EXPECT_EQ(child->measured_bound, 10);
}

TEST(ExternalBenchTest, FailingChildIsAnErrorNamingIt) {
  const workloads::WorkloadParams p{.nodes = 3, .initial_pods = 1, .measured_pods = 2, .seed = 1};
  auto child = RunWorkloadExternal(Shape("SchedulingBasic"), p, Sampling::kAll, "kube broken",
                                   "exit 3", kTimeoutMs, nullptr);
  ASSERT_FALSE(child.ok());
  EXPECT_NE(child.message().find("kube broken: Hello"), std::string::npos) << child.message();
}

TEST(ExternalBenchTest, SideBySideRowHasEverySideAndTheRatios) {
  const workloads::WorkloadParams p{.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 1};
  const std::vector<ChildScheduler> children = {
      {.label = "ref via serve", .command = Serve(), .note = "", .upstream = false},
      {.label = "kube stand-in", .command = Serve(), .note = "", .upstream = true},
      {.label = "kube missing", .command = "", .note = "no adapter built", .upstream = true},
      {.label = "kube broken", .command = "exit 3", .note = "", .upstream = true},
  };
  auto row =
      RunSideBySide(Shape("SchedulingBasic"), p, Sampling::kAll, children, kTimeoutMs, nullptr);
  ASSERT_TRUE(row.ok()) << row.message();
  ASSERT_EQ(row->children.size(), 4u);
  EXPECT_EQ(row->reference.measured_bound, 20);
  ASSERT_TRUE(row->children[0].result.has_value()) << row->children[0].note;
  ASSERT_TRUE(row->children[1].result.has_value()) << row->children[1].note;
  EXPECT_EQ(row->children[0].result->measured_bound, 20);
  EXPECT_EQ(row->children[1].result->measured_bound, 20);
  EXPECT_FALSE(row->children[2].result.has_value());
  EXPECT_EQ(row->children[2].note, "no adapter built");
  EXPECT_FALSE(row->children[3].result.has_value());
  EXPECT_EQ(row->children[3].note.rfind("failed: kube broken: ", 0), 0u) << row->children[3].note;

  row->reference_full = row->reference;
  row->reference_full->params.nodes = 50;
  const std::string table = FormatSideBySide({*row}, 0.2);
  // Every child has a pods/s column; ratios only for the upstream ones that ran.
  EXPECT_NE(table.find("| ref | ref via serve | kube stand-in | kube missing | kube broken | ref / "
                       "kube stand-in | "
                       "ref via serve / kube stand-in |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| 100 | SchedulingBasic | "), std::string::npos) << table;
  EXPECT_NE(table.find("(50 / 5 / 20) | 10 / 5 / 20 |"), std::string::npos) << table;
  EXPECT_NE(table.find("note: kube missing: no adapter built"), std::string::npos) << table;
  EXPECT_NE(table.find("note: kube broken: failed: "), std::string::npos) << table;
  EXPECT_NE(table.find("--kube-scale 0.2"), std::string::npos) << table;
  EXPECT_EQ(table.find("(bound "), std::string::npos) << table;  // every side bound the same pods

  nlohmann::json doc = SideBySideToJson({*row}, 0.2);
  EXPECT_EQ(doc["rows"][0]["percentage_of_nodes_to_score"], 100);
  EXPECT_EQ(doc["rows"][0]["children"][1]["result"]["measured_bound"], 20);
  EXPECT_GT(doc["rows"][0]["children"][1]["reference_ratio"].get<double>(), 0);
  EXPECT_EQ(doc["rows"][0]["children"][2]["note"], "no adapter built");
}

TEST(ExternalBenchTest, CampaignChildMakesTheReferenceDecisionsOneProcessPerTrace) {
  auto traces = CampaignTraces(12, 1);
  ASSERT_TRUE(traces.ok()) << traces.message();
  ASSERT_EQ(traces->size(), 12u);
  auto ref = RunCampaignReference(*traces);
  ASSERT_TRUE(ref.ok()) << ref.message();
  EXPECT_EQ(ref->traces, 12);
  EXPECT_EQ(ref->processes_started, 0);
  EXPECT_GT(ref->bindings, 0);
  EXPECT_GE(ref->attempts, ref->bindings);
  CampaignResult child = RunCampaignExternal(*traces, "stand-in", Serve(), kTimeoutMs);
  EXPECT_EQ(child.note, "");
  EXPECT_EQ(child.traces, 12);
  EXPECT_EQ(child.processes_started, 1);  // one child serves the campaign
  EXPECT_EQ(child.events, ref->events);
  EXPECT_EQ(child.attempts, ref->attempts);
  EXPECT_EQ(child.bindings, ref->bindings);
  EXPECT_GT(child.traces_per_second, 0);

  CampaignResult broken = RunCampaignExternal(*traces, "broken", "exit 3", kTimeoutMs);
  EXPECT_EQ(broken.traces, 0);
  EXPECT_EQ(broken.processes_started, 1);
  EXPECT_NE(broken.note.find("failed on "), std::string::npos) << broken.note;

  // --engine plain: the same decisions, labelled by the engine.
  auto plain = RunCampaignReference(*traces, reference::Engine::kPlain);
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->label, "reference (in process, plain)");
  EXPECT_EQ(plain->attempts, ref->attempts);
  EXPECT_EQ(plain->bindings, ref->bindings);

  const std::string table = FormatCampaign({*ref, child, broken});
  EXPECT_NE(table.find("| reference (in process, fast) | 12 | "), std::string::npos) << table;
  EXPECT_NE(table.find("| stand-in | 12 | "), std::string::npos) << table;
  EXPECT_NE(table.find("note: broken: failed on "), std::string::npos) << table;
  EXPECT_EQ(CampaignToJson({*ref, child})[1]["processes_started"], 1);
}

// The campaign replays small traces by construction: every trace comes from the explicit shape
// list, has at most kCampaignMaxNodes nodes and kCampaignMaxRecords records, and the shapes of a
// large size (DayChurn: 5,000 nodes, 150,000 pods) or a plugin of their own never appear. A shape
// added to the workloads must be placed: in the list, or left out here with its reason.
TEST(ExternalBenchTest, CampaignTracesAreSmallAndFromTheListedShapes) {
  const std::set<std::string_view> left_out = {
      "RequeueMissingRegistration",  // needs the CreationDelay plugin (no kube adapter has it)
      "DayChurn",                    // a day of a 5,000-node cluster
      "DayChurnLarge",               // a day of a 100,000-node cluster
      // DRA shapes: compat 1.37 only, and the reference does not model DynamicResources yet.
      "DraClaimTemplate",
      "DraManyDevices",
      "DraPartitionable",
  };
  const std::vector<std::string_view>& listed = CampaignShapes();
  for (const workloads::ShapeInfo& shape : workloads::Shapes()) {
    const bool in_list = std::find(listed.begin(), listed.end(), shape.name) != listed.end();
    EXPECT_NE(in_list, left_out.count(shape.name) > 0)
        << shape.name << ": in the campaign's list or left out, not both, not neither";
  }
  const int count = static_cast<int>(2 * listed.size());
  auto traces = CampaignTraces(count, 7);
  ASSERT_TRUE(traces.ok()) << traces.message();
  ASSERT_EQ(traces->size(), static_cast<size_t>(count));
  std::set<std::string> drawn;
  for (const CampaignTrace& t : *traces) {
    SCOPED_TRACE(t.name);
    const std::string shape = t.name.substr(0, t.name.find('/'));
    drawn.insert(shape);
    EXPECT_EQ(left_out.count(shape), 0u);
    int64_t nodes = 0;
    for (const trace::Record& r : t.records)
      nodes += r.has_api() && r.api().type() == trace::ADDED && r.api().has_node();
    EXPECT_GE(nodes, 1);
    EXPECT_LE(nodes, kCampaignMaxNodes);
    EXPECT_LE(static_cast<int64_t>(t.records.size()), kCampaignMaxRecords);
  }
  EXPECT_EQ(drawn.size(), listed.size());  // every listed shape is drawn
}

// A pair of builds replays every trace through both and diffs the logs: the reference against
// itself behind the protocol finds nothing; against forget-events:NodeResourcesFit (a planted bug
// on requeues) some traces differ.
TEST(ExternalBenchTest, CampaignPairsReplayBothSidesAndCountWhatDiffers) {
  auto traces = CampaignTraces(16, 3);
  ASSERT_TRUE(traces.ok()) << traces.message();
  auto same = RunCampaignPair(*traces, {"reference", "exec:" + Serve(), "1.27"}, kTimeoutMs);
  ASSERT_TRUE(same.ok()) << same.message();
  EXPECT_EQ(same->note, "");
  EXPECT_EQ(same->label, "reference vs exec:" + Serve() + " (1.27)");
  EXPECT_EQ(same->traces, 16);
  EXPECT_EQ(same->divergent, 0);
  EXPECT_EQ(same->processes_started, 1);  // the exec: side, one child for the campaign
  EXPECT_TRUE(same->profiles.empty());    // `schedcheck serve` keeps no profile

  auto ref = RunCampaignReference(*traces);
  ASSERT_TRUE(ref.ok()) << ref.message();
  EXPECT_EQ(same->attempts, 2 * ref->attempts);  // both sides' decisions
  EXPECT_EQ(same->bindings, 2 * ref->bindings);

  auto planted =
      RunCampaignPair(*traces, {"reference", "forget-events:NodeResourcesFit", "1.27"}, kTimeoutMs);
  ASSERT_TRUE(planted.ok()) << planted.message();
  EXPECT_EQ(planted->processes_started, 0);
  EXPECT_GT(planted->divergent, 0);
  EXPECT_LT(planted->divergent, 16);

  auto bad = RunCampaignPair(*traces, {"reference", "nonsense:1", "1.27"}, kTimeoutMs);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("candidate"), std::string::npos) << bad.message();

  const std::string table = FormatCampaign({*ref, *same, *planted});
  EXPECT_NE(table.find("| reference vs forget-events:NodeResourcesFit (1.27) | 16 | "),
            std::string::npos)
      << table;
  EXPECT_EQ(CampaignToJson({*ref, *same})[1]["divergent"], 0);
}

TEST(ExternalBenchTest, CampaignPairsParse) {
  auto p = ParseCampaignPair("reference,kube:1.37@1.37");
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->baseline, "reference");
  EXPECT_EQ(p->candidate, "kube:1.37");
  EXPECT_EQ(p->compat, "1.37");
  for (const char* bad : {"reference", "reference,kube:1.27", ",kube:1.27@1.27",
                          "reference,kube:1.27@1.30", "a@1.27,b"}) {
    SCOPED_TRACE(bad);
    auto r = ParseCampaignPair(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find(bad), std::string::npos) << r.message();
  }
  EXPECT_EQ(DefaultCampaignPairs().size(), 2u);
}

// --compare: A and B alternate for the rounds asked, each a whole campaign; the table gives the
// median of each and B / A.
TEST(ExternalBenchTest, CompareRunsBothBuildsEveryRound) {
  auto traces = CampaignTraces(6, 1);
  ASSERT_TRUE(traces.ok()) << traces.message();
  auto r = RunCompare(*traces, "reference", "exec:" + Serve(), "1.27", 3, kTimeoutMs);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->a_runs.size(), 3u);
  ASSERT_EQ(r->b_runs.size(), 3u);
  for (const CampaignResult& b : r->b_runs) {
    EXPECT_EQ(b.traces, 6);
    EXPECT_EQ(b.processes_started, 1);
    EXPECT_EQ(b.bindings, r->a_runs.front().bindings);
  }
  EXPECT_EQ(r->a_runs.front().label, "A: reference");
  EXPECT_EQ(r->a_runs.front().child_cpu_seconds, 0);  // in process
  EXPECT_GT(r->b_runs.front().child_cpu_seconds, 0);
  const std::string table = FormatCompare(*r);
  EXPECT_NE(table.find("| A | reference | "), std::string::npos) << table;
  EXPECT_NE(table.find("B / A (traces/s): "), std::string::npos) << table;
  EXPECT_EQ(table.find("did not make the same decisions"), std::string::npos) << table;
  EXPECT_EQ(table.find("Child CPU per trace"), std::string::npos) << table;  // A has none
  auto both = RunCompare(*traces, "exec:" + Serve(), "exec:" + Serve(), "1.27", 2, kTimeoutMs);
  ASSERT_TRUE(both.ok()) << both.message();
  EXPECT_NE(FormatCompare(*both).find("Child CPU per trace"), std::string::npos)
      << FormatCompare(*both);
  EXPECT_EQ(CompareToJson(*r)["b_runs"].size(), 3u);

  auto broken = RunCompare(*traces, "reference", "exec:exit 3", "1.27", 1, kTimeoutMs);
  EXPECT_FALSE(broken.ok());
  EXPECT_NE(broken.message().find("B: exec:exit 3"), std::string::npos) << broken.message();

  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 2, 3}), 2.5);
  EXPECT_EQ(Median({}), 0);
}

// The profile an adapter writes (harness/kube/common/profile) read back, and its shares.
TEST(ExternalBenchTest, AdapterProfilesAreReadAndShared) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/profile.json";
  {
    std::ofstream out(path);
    out << R"({"runs":10,"startup_seconds":0.1,"user_cpu_seconds":0.9,"gc_cpu_seconds":0.05,)"
           R"("process_cpu_seconds":1.2,)"
           R"("seconds":{"wait":2,"decode":0.01,"hello":0.1,"feed":0.15,"events":0.5,)"
           R"("finish":0.05,"encode":0.01,"send":0.08},"calls":{}})";
  }
  auto p = ReadAdapterProfile(path);
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->runs, 10);
  EXPECT_DOUBLE_EQ(p->Scheduling(), 0.4);  // events + finish - feed
  EXPECT_DOUBLE_EQ(p->Framing(), 0.1);
  EXPECT_DOUBLE_EQ(p->Busy(), 0.1 + 0.1 + 0.5 + 0.05 + 0.1);
  p->label = "kube x";
  const std::string shares = FormatShares({*p}, 10);
  // 0.4 s of 0.85 s busy over 10 traces: 40 ms per trace, 47 %.
  EXPECT_NE(shares.find("| kube x | 85.00 | 10.00 (12 %) | 10.00 (12 %) | 15.00 (18 %) | "
                        "40.00 (47 %) | 10.00 (12 %) | 200.00 | 120.00 | 5.00 |"),
            std::string::npos)
      << shares;
  {
    std::ofstream out(path);
    out << R"({"runs":1,"seconds":{"events":"slow"}})";
  }
  auto bad = ReadAdapterProfile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("field events: not a number"), std::string::npos) << bad.message();
  EXPECT_FALSE(ReadAdapterProfile(path + ".missing").ok());
  EXPECT_EQ(WithProfile("'a b' 2>>log", "/tmp/p.json"),
            "SCHEDCHECK_ADAPTER_PROFILE='/tmp/p.json' 'a b' 2>>log");
}

TEST(ExternalBenchTest, FindsSchedcheckInTheRunfiles) { EXPECT_NE(FindSchedcheck(), ""); }

}  // namespace
}  // namespace schedcheck::bench
