// bazel run -c opt //harness/bench:bench -- [--workload NAME]... [--nodes N]... [--initial N]
//     [--measured N] [--scale F] [--seed S] [--sampling both|adaptive|100] [--json FILE]
//     [--no-trace-io] [--no-replay] [--kube 1.27,1.37 | --no-kube] [--kube-scale F] [--no-serve]
//     [--campaign N] [--campaign-only] [--campaign-pair B,C@COMPAT]... [--no-campaign-pairs]
//     [--compare A B [--rounds N] [--campaign-compat 1.27|1.37]] [--child-timeout S]
//     [--engine plain|fast] [--no-plain] [--compat 1.27|1.37]
// Generates each workload in process, replays it against the reference (percentageOfNodesToScore
// 100 and upstream's adaptive default, one thread), then side by side with the kube-scheduler
// adapters (and `schedcheck serve`) as child processes at --kube-scale of those sizes, then a
// campaign of small traces; prints tables (stdout) and optionally JSON; progress goes to stderr.
// Several --nodes values make a sweep (cost per pod per node against cluster size). --engine
// picks the engine of every in-process reference run (the main table, the side by side's
// reference, the campaign's, the Alibaba workloads); the main table also measures plain unless
// --no-plain. --compat sets the level of the main table's and the side by side's runs (the
// campaign and the Alibaba workloads stay at 1.27).
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/bench/alibaba.h"
#include "harness/bench/bench.h"
#include "harness/bench/campaign_runs.h"
#include "harness/bench/external.h"
#include "harness/candidates/kube_adapter.h"
#include "harness/cli/engine_option.h"
#include "traces/atomic_file.h"

namespace {

struct Flags {
  std::vector<std::string> workloads;
  std::vector<int64_t> nodes;
  std::optional<int64_t> initial;
  std::optional<int64_t> measured;
  double scale = 1;
  uint64_t seed = 1;
  std::string json;
  bool no_trace_io = false;
  bool no_replay = false;
  std::string sampling = "both";
  std::string kube;  // "1.27,1.37"; empty: every version with an adapter target
  bool no_kube = false;
  double kube_scale = 0.2;
  bool no_serve = false;
  schedcheck::reference::Engine engine = schedcheck::reference::Engine::kFast;
  bool no_plain = false;  // the main table also measures the plain engine unless this is set
  int campaign = 50;
  bool campaign_only = false;               // no main table, no side by side
  std::vector<std::string> campaign_pairs;  // BASELINE,CANDIDATE@COMPAT; empty: the defaults
  bool no_campaign_pairs = false;
  std::vector<std::string> compare;  // two build specs: A and B
  int rounds = 3;
  std::string campaign_compat = "1.27";  // the level of --compare (and of the one-child rows)
  double child_timeout = 300;
  std::string compat = "1.27";  // the level of the reference and of the children's Hello
};

using schedcheck::bench::ChildScheduler;
using schedcheck::bench::Sampling;

// The children of the side by side: `schedcheck serve`, then the kube adapters asked for (every
// known version by default); one that is not there gets a note instead of a command. Errors:
// an unknown version in --kube.
schedcheck::Result<std::vector<ChildScheduler>> Children(const Flags& f) {
  using schedcheck::candidates::KubeAdapterVersions;
  std::vector<ChildScheduler> children;
  if (!f.no_serve) {
    const std::string schedcheck = schedcheck::bench::FindSchedcheck();
    children.push_back(
        {.label = "ref via serve",
         .command =
             schedcheck.empty() ? "" : schedcheck::candidates::ShellQuote(schedcheck) + " serve",
         .note = schedcheck.empty() ? "schedcheck not found (bazel build //harness/cli:schedcheck)"
                                    : "",
         .upstream = false});
  }
  std::vector<std::string> versions;
  if (f.kube.empty()) {
    versions = KubeAdapterVersions();
  } else {
    std::stringstream list(f.kube);
    for (std::string v; std::getline(list, v, ',');) {
      if (v.empty()) continue;
      if (std::find(KubeAdapterVersions().begin(), KubeAdapterVersions().end(), v) ==
          KubeAdapterVersions().end()) {
        return schedcheck::Error{"--kube: unknown version \"" + v + "\" (known: 1.27, 1.37)"};
      }
      versions.push_back(v);
    }
  }
  const auto search = schedcheck::candidates::AdapterSearch::FromEnvironment();
  for (const std::string& v : versions) {
    ChildScheduler c{.label = "kube " + v, .command = "", .note = "", .upstream = true};
    auto path = schedcheck::candidates::FindKubeAdapter(v, search);
    if (path.ok()) {
      // klog writes slow-cycle traces to stderr: kept in a file, not on the terminal.
      const std::string log =
          "/tmp/schedcheck-bench-" + std::to_string(getpid()) + "-kube-" + v + ".log";
      c.command = schedcheck::candidates::ShellQuote(*path) + " 2>>" +
                  schedcheck::candidates::ShellQuote(log);
      std::cerr << "bench: kube " << v << ": " << *path << " (its stderr: " << log << ")"
                << std::endl;
    } else {
      c.note = "no adapter built (bazel build //harness/kube:kube-adapter-" + v +
               ", or add it to BENCH_KUBE_VERSIONS in harness/bench/BUILD.bazel)";
      std::cerr << "bench: " << path.message() << std::endl;
    }
    children.push_back(std::move(c));
  }
  return children;
}

// The --campaign-pair list (the defaults unless given; none with --no-campaign-pairs).
schedcheck::Result<std::vector<schedcheck::bench::CampaignPair>> CampaignPairs(const Flags& f) {
  if (f.no_campaign_pairs) return std::vector<schedcheck::bench::CampaignPair>{};
  if (f.campaign_pairs.empty()) return schedcheck::bench::DefaultCampaignPairs();
  std::vector<schedcheck::bench::CampaignPair> out;
  for (const std::string& text : f.campaign_pairs) {
    auto p = schedcheck::bench::ParseCampaignPair(text);
    if (!p.ok()) return schedcheck::Error{"--campaign-pair: " + p.message()};
    out.push_back(*p);
  }
  return out;
}

// --compare A B: the campaign replayed by the two builds alternately, and their ratio.
int RunCompareOnly(const Flags& f) {
  if (f.compare.size() != 2) {
    std::cerr << "bench: --compare wants two build specs, A and B (got " << f.compare.size()
              << ")\n";
    return 2;
  }
  if (f.rounds < 1 || f.campaign < 1) {
    std::cerr << "bench: --compare needs --rounds and --campaign of at least 1\n";
    return 2;
  }
  auto traces = schedcheck::bench::CampaignTraces(f.campaign, f.seed);
  if (!traces.ok()) {
    std::cerr << "bench: campaign: " << traces.message() << "\n";
    return 1;
  }
  std::cerr << "compare: " << f.compare[0] << " (A) and " << f.compare[1] << " (B), "
            << traces->size() << " traces, " << f.rounds << " rounds" << std::endl;
  auto r = schedcheck::bench::RunCompare(*traces, f.compare[0], f.compare[1], f.campaign_compat,
                                         f.rounds, std::llround(f.child_timeout * 1000));
  if (!r.ok()) {
    std::cerr << "bench: --compare: " << r.message() << "\n";
    return 2;
  }
  std::cout << schedcheck::bench::FormatCompare(*r);
  if (!f.json.empty()) {
    nlohmann::json doc = {{"compare", schedcheck::bench::CompareToJson(*r)}};
    if (schedcheck::Outcome ok = schedcheck::trace::WriteFileAtomically(f.json, doc.dump(2) + "\n");
        !ok) {
      std::cerr << "bench: " << ok.message() << "\n";
      return 2;
    }
  }
  return 0;
}

// The Alibaba workloads, when the shared data is present (else a note on stderr, not an error).
int RunAlibaba(const std::vector<std::string>& names, uint64_t seed,
               schedcheck::reference::Engine engine,
               std::vector<schedcheck::bench::AlibabaResult>* out) {
  if (names.empty()) return 0;
  const std::string dir = schedcheck::bench::FindAlibabaDir();
  if (dir.empty()) {
    std::cerr << "bench: skipping the Alibaba workloads: no "
                 "alibaba-gpu-v2023/openb_pod_list_default.csv under "
                 "$SCHEDCHECK_SHARED_DATA, /work/shared/data or ../shared/data\n";
    return 0;
  }
  for (const std::string& name : names) {
    std::cerr << name << ": " << dir << ", seed " << seed << std::endl;
    auto r = schedcheck::bench::RunAlibaba(name, dir, seed, engine);
    if (!r.ok()) {
      std::cerr << "bench: " << r.message() << "\n";
      return 1;
    }
    std::cerr << "  " << schedcheck::reference::EngineName(engine) << ": " << r->bound
              << " pods bound, " << r->replay_seconds << " s replay" << std::endl;
    out->push_back(*r);
  }
  return 0;
}

int Run(const Flags& f) {
  using schedcheck::workloads::ShapeInfo;
  std::vector<const ShapeInfo*> shapes;
  std::vector<std::string> alibaba;
  if (f.workloads.empty()) {
    for (const ShapeInfo& s : schedcheck::workloads::Shapes()) {
      if (!s.perf) continue;
      shapes.push_back(&s);
    }
    alibaba = {schedcheck::bench::kAlibabaPaper130, schedcheck::bench::kAlibabaTimed};
  }
  for (const std::string& name : f.workloads) {
    if (schedcheck::bench::IsAlibabaWorkload(name)) {
      alibaba.push_back(name);
      continue;
    }
    const ShapeInfo* s = schedcheck::workloads::FindShape(name);
    if (s == nullptr) {
      std::cerr << "bench: --workload: unknown \"" << name
                << "\" (see schedcheck generate --list)\n";
      return 2;
    }
    shapes.push_back(s);
  }
  if (f.campaign_only) {  // the campaign rows alone
    shapes.clear();
    alibaba.clear();
  }
  if (!(f.scale > 0)) {
    std::cerr << "bench: --scale must be positive\n";
    return 2;
  }
  if (!(f.kube_scale > 0)) {
    std::cerr << "bench: --kube-scale must be positive\n";
    return 2;
  }
  std::vector<Sampling> samplings;
  if (f.sampling == "both" || f.sampling == "adaptive") samplings.push_back(Sampling::kAdaptive);
  if (f.sampling == "both" || f.sampling == "100") samplings.push_back(Sampling::kAll);
  if (samplings.empty()) {
    std::cerr << "bench: --sampling: want both, adaptive or 100, not \"" << f.sampling << "\"\n";
    return 2;
  }
  if (!f.compare.empty()) return RunCompareOnly(f);
  const bool side_by_side = !f.no_kube && !f.no_replay;
  auto pairs = CampaignPairs(f);
  if (!pairs.ok()) {
    std::cerr << "bench: " << pairs.message() << "\n";
    return 2;
  }
  std::vector<ChildScheduler> children;
  if (side_by_side) {
    auto c = Children(f);
    if (!c.ok()) {
      std::cerr << "bench: " << c.message() << "\n";
      return 2;
    }
    children = std::move(*c);
  }
  auto scaled = [&](int64_t v) { return static_cast<int64_t>(std::llround(v * f.scale)); };
  std::vector<schedcheck::bench::WorkloadResult> results;
  std::vector<schedcheck::bench::TraceIoResult> io;
  struct Point {
    const ShapeInfo* shape;
    schedcheck::workloads::WorkloadParams params;
    Sampling sampling;
    std::optional<schedcheck::bench::WorkloadResult> full;
  };
  std::vector<Point> points;
  for (const ShapeInfo* shape : shapes) {
    std::vector<int64_t> sweep = f.nodes;
    if (sweep.empty()) sweep.push_back(std::max<int64_t>(1, scaled(shape->defaults.nodes)));
    for (int64_t nodes : sweep) {
      schedcheck::workloads::WorkloadParams p{
          nodes, f.initial.value_or(scaled(shape->defaults.initial_pods)),
          f.measured.value_or(scaled(shape->defaults.measured_pods)), f.seed};
      std::cerr << shape->name << ": " << p.nodes << " nodes, " << p.initial_pods << " initial, "
                << p.measured_pods << " measured pods, seed " << p.seed << std::endl;
      for (Sampling sampling : samplings) {
        Point point{shape, p, sampling, std::nullopt};
        if (!f.no_replay) {
          // The engine asked for, then (unless --no-plain) the plain one: the price of simplicity.
          std::vector<schedcheck::reference::Engine> engines = {f.engine};
          if (!f.no_plain && f.engine != schedcheck::reference::Engine::kPlain) {
            engines.push_back(schedcheck::reference::Engine::kPlain);
          }
          for (schedcheck::reference::Engine engine : engines) {
            auto r =
                schedcheck::bench::RunWorkload(*shape, p, &std::cerr, sampling, engine, f.compat);
            if (!r.ok()) {
              std::cerr << "bench: " << r.message() << "\n";
              return 1;
            }
            results.push_back(*r);
            if (engine == f.engine) point.full = *r;
            std::cerr << "  " << schedcheck::reference::EngineName(engine)
                      << ", percentageOfNodesToScore " << schedcheck::bench::SamplingName(sampling)
                      << ": " << r->pods_per_second << " pods/s over " << r->measured_bound
                      << " measured pods, " << r->total_seconds << " s in all" << std::endl;
          }
        }
        points.push_back(std::move(point));
      }
      if (!f.no_trace_io) {
        auto t = schedcheck::bench::RunTraceIo(*shape, p, "/tmp");
        if (!t.ok()) {
          std::cerr << "bench: trace i/o: " << t.message() << "\n";
          return 1;
        }
        io.push_back(*t);
      }
    }
  }
  // Side by side, at --kube-scale of the sizes above (the reference again at that size).
  std::vector<schedcheck::bench::SideBySideRow> rows;
  std::string load_before;
  if (side_by_side && !children.empty()) {
    load_before = schedcheck::bench::LoadAverage();
    for (const Point& point : points) {
      schedcheck::workloads::WorkloadParams p = point.params;
      p.nodes = std::max<int64_t>(1, std::llround(p.nodes * f.kube_scale));
      p.initial_pods = std::llround(p.initial_pods * f.kube_scale);
      p.measured_pods = std::max<int64_t>(1, std::llround(p.measured_pods * f.kube_scale));
      std::cerr << "side by side: " << point.shape->name << ", percentageOfNodesToScore "
                << schedcheck::bench::SamplingName(point.sampling) << ": " << p.nodes << " nodes, "
                << p.initial_pods << " initial, " << p.measured_pods << " measured pods"
                << std::endl;
      auto row = schedcheck::bench::RunSideBySide(*point.shape, p, point.sampling, children,
                                                  std::llround(f.child_timeout * 1000), &std::cerr,
                                                  f.engine, f.compat);
      if (!row.ok()) {
        std::cerr << "bench: " << row.message() << "\n";
        return 1;
      }
      if (f.kube_scale != 1) row->reference_full = point.full;
      rows.push_back(std::move(*row));
    }
  }
  std::vector<schedcheck::bench::CampaignResult> campaign;
  if (side_by_side && f.campaign > 0) {
    auto traces = schedcheck::bench::CampaignTraces(f.campaign, f.seed);
    if (!traces.ok()) {
      std::cerr << "bench: campaign: " << traces.message() << "\n";
      return 1;
    }
    std::cerr << "campaign: " << traces->size() << " traces" << std::endl;
    auto ref = schedcheck::bench::RunCampaignReference(*traces, f.engine);
    if (!ref.ok()) {
      std::cerr << "bench: campaign: " << ref.message() << "\n";
      return 1;
    }
    campaign.push_back(*ref);
    for (const ChildScheduler& c : children) {
      if (c.command.empty()) continue;
      campaign.push_back(schedcheck::bench::RunCampaignExternal(
          *traces, c.label, c.command, std::llround(f.child_timeout * 1000)));
      std::cerr << "  " << c.label << ": " << campaign.back().traces_per_second << " traces/s"
                << std::endl;
    }
    // Pairs of builds, as `schedcheck campaign` runs them: both replays and the diff per trace.
    for (const schedcheck::bench::CampaignPair& pair : *pairs) {
      auto r =
          schedcheck::bench::RunCampaignPair(*traces, pair, std::llround(f.child_timeout * 1000));
      if (!r.ok()) {
        std::cerr << "bench: campaign pair " << pair.baseline << "," << pair.candidate << ": "
                  << r.message() << " (skipped)" << std::endl;
        continue;
      }
      campaign.push_back(std::move(*r));
      std::cerr << "  " << campaign.back().label << ": " << campaign.back().traces_per_second
                << " traces/s" << std::endl;
    }
  }
  std::vector<schedcheck::bench::AlibabaResult> alibaba_results;
  if (int code = RunAlibaba(alibaba, f.seed, f.engine, &alibaba_results); code != 0) return code;
  std::cout << schedcheck::bench::FormatTable(results, io)
            << schedcheck::bench::FormatAlibabaTable(alibaba_results);
  if (!rows.empty())
    std::cout << "\n" << schedcheck::bench::FormatSideBySide(rows, f.kube_scale, load_before);
  if (!campaign.empty()) std::cout << "\n" << schedcheck::bench::FormatCampaign(campaign);
  if (!f.json.empty()) {
    nlohmann::json doc = schedcheck::bench::ToJson(results, io);
    doc["alibaba"] = schedcheck::bench::AlibabaToJson(alibaba_results);
    if (!rows.empty())
      doc["side_by_side"] = schedcheck::bench::SideBySideToJson(rows, f.kube_scale);
    if (!campaign.empty()) doc["campaign"] = schedcheck::bench::CampaignToJson(campaign);
    std::string text = doc.dump(2) + "\n";
    if (schedcheck::Outcome ok = schedcheck::trace::WriteFileAtomically(f.json, text); !ok) {
      std::cerr << "bench: " << ok.message() << "\n";
      return 2;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "schedcheck benchmark: scheduler_perf workloads replayed against the reference, and side by "
      "side "
      "with the real kube-scheduler (the //harness/kube adapters)"};
  Flags f;
  app.add_option("--workload", f.workloads,
                 "workload shape or AlibabaPaper130 / AlibabaTimed, repeatable (default: every "
                 "scheduler_perf shape, then the Alibaba ones when the shared data is present)");
  app.add_option("--nodes", f.nodes, "node count, repeatable for a sweep (default: the shape's)");
  app.add_option("--initial", f.initial, "initial pods (default: the shape's, times --scale)");
  app.add_option("--measured", f.measured, "measured pods (default: the shape's, times --scale)");
  app.add_option("--scale", f.scale,
                 "multiply the shapes' default sizes (e.g. 0.1 for a quick run)");
  app.add_option("--seed", f.seed, "seed of the generators and the replay (default 1)");
  schedcheck::cli::AddEngineOption(
      &app, &f.engine,
      "the engine of every in-process reference run: the main table, the side by side's \"ref\" "
      "column, the campaign's reference and the Alibaba workloads (`schedcheck serve` runs its "
      "own default, fast)");
  app.add_option("--compat", f.compat,
                 "compatibility level of the reference (1.27 or 1.37; both engines serve both) and "
                 "of the Hello the children get; kube 1.27 refuses 1.37")
      ->check(CLI::IsMember({"1.27", "1.37"}));
  app.add_flag("--no-plain", f.no_plain,
               "do not also measure the plain engine in the main table (only there: the side by "
               "side, the campaign and the Alibaba workloads run --engine alone)");
  app.add_option("--json", f.json, "also write the results as JSON to this file");
  app.add_flag("--no-trace-io", f.no_trace_io, "skip the trace encode/decode measurement");
  app.add_flag("--no-replay", f.no_replay, "measure trace encode/decode only");
  app.add_option(
      "--sampling", f.sampling,
      "percentageOfNodesToScore: both (default), adaptive (unset: upstream's default) or 100");
  app.add_option("--kube", f.kube,
                 "kube-scheduler adapter versions to run side by side, comma-separated, e.g. "
                 "1.27,1.37 (default: every one; one not built gets a note)");
  app.add_flag("--no-kube", f.no_kube, "no side by side and no campaign: the reference only");
  app.add_option("--kube-scale", f.kube_scale,
                 "size of the side-by-side runs as a fraction of the sizes above (default 0.2: "
                 "kube-scheduler takes minutes per shape at full size on 2 cores)");
  app.add_flag("--no-serve", f.no_serve,
               "leave out the reference behind the protocol (schedcheck serve) in the side by side "
               "and the campaign");
  app.add_option("--campaign", f.campaign,
                 "traces in the random-trace campaign (default 50; 0: none)");
  app.add_flag("--campaign-only", f.campaign_only,
               "run the campaign rows alone (no main table, no side by side)");
  app.add_option("--campaign-pair", f.campaign_pairs,
                 "a pair of builds for the campaign, BASELINE,CANDIDATE@COMPAT (specs as "
                 "`schedcheck campaign` takes them), repeatable (default: reference,kube:1.37@1.37 "
                 "and kube:1.27,kube:1.27@1.27; a pair whose adapter is not built is skipped)");
  app.add_flag("--no-campaign-pairs", f.no_campaign_pairs, "no pairs of builds in the campaign");
  app.add_option("--compare", f.compare,
                 "two build specs A B (e.g. kube:1.37 exec:/tmp/old-adapter): only the campaign, "
                 "replayed by A and B alternately for --rounds rounds; prints traces/s and B / A")
      ->expected(2);
  app.add_option("--rounds", f.rounds, "rounds of --compare (default 3)");
  app.add_option("--campaign-compat", f.campaign_compat,
                 "compatibility level of --compare's replays (default 1.27)")
      ->check(CLI::IsMember({"1.27", "1.37"}));
  app.add_option("--child-timeout", f.child_timeout,
                 "real seconds to wait for each answer of a child (default 300)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return Run(f);
}
