#include "harness/check/runner.h"

#include <algorithm>
#include <optional>
#include <set>

#include "harness/check/cluster.h"
#include "harness/check/run_hint.h"
#include "harness/check/run_preempt.h"
#include "harness/check/run_queue.h"
#include "reference/base/compat_level.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::check {
namespace {

using reference::Code;
using reference::CycleState;
using reference::Status;
using Verdict = CaseResult::Verdict;

CaseResult Pass() { return {Verdict::kPass, ""}; }
CaseResult Fail(std::string detail) { return {Verdict::kFail, std::move(detail)}; }
CaseResult BadInput(std::string detail) { return {Verdict::kBadInput, std::move(detail)}; }

std::string JoinQuoted(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + ("\"" + items[i] + "\"");
  return out + "]";
}

std::vector<std::string> Strings(const nlohmann::json& list) {
  std::vector<std::string> out;
  if (list.is_array()) {
    for (const auto& s : list) out.push_back(s.is_string() ? s.get<std::string>() : s.dump());
  }
  return out;
}

std::string Describe(const Status& s) {
  return std::string(reference::CodeName(s.code())) + " " + JoinQuoted(s.reasons());
}

// Compares {"code": ..., "reasons": [...], "message": ...} with a status; "" when equal.
std::string CompareStatus(const nlohmann::json& want, const Status& got) {
  if (!want.is_object()) return "expectation must be an object with \"code\"";
  if (want.contains("code") && !want["code"].is_string())
    return "expectation field code: expected a string";
  std::string code = want.contains("code") ? want["code"].get<std::string>() : "Success";
  Code want_code;
  if (!reference::ParseCode(code, &want_code))
    return "unknown code \"" + code + "\" in expectation";
  bool differs = want_code != got.code();
  if (want.contains("reasons") && Strings(want["reasons"]) != got.reasons()) differs = true;
  if (want.contains("message") && want["message"].is_string() &&
      want["message"].get<std::string>() != got.Message()) {
    differs = true;
  }
  if (!differs) return "";
  std::string expected = code;
  if (want.contains("reasons")) expected += " " + JoinQuoted(Strings(want["reasons"]));
  if (want.contains("message")) expected += " " + want["message"].dump();
  return "expected " + expected + ", got " + Describe(got);
}

// The PreFilter status as a plugin test sees it: a rejection or error as returned, Skip when
// every PreFilter plugin skipped, otherwise Success.
Status ObservedPreFilterStatus(const Status& s, const CycleState& state,
                               const reference::Framework& fw) {
  if (!s.IsSuccess()) return s;
  auto names = fw.PluginNames(reference::ExtensionPoint::kPreFilter);
  bool all_skipped =
      !names.empty() && std::all_of(names.begin(), names.end(), [&](const std::string& n) {
        return state.skip_filter_plugins.count(n) > 0;
      });
  return all_skipped ? Status(Code::kSkip) : Status();
}

// The PreScore status as a plugin test sees it: an error as returned, Skip when every PreScore
// plugin skipped, otherwise Success.
Status ObservedPreScoreStatus(const Status& s, const CycleState& state,
                              const reference::Framework& fw) {
  if (!s.IsSuccess()) return s;
  auto names = fw.PluginNames(reference::ExtensionPoint::kPreScore);
  bool all_skipped =
      !names.empty() && std::all_of(names.begin(), names.end(), [&](const std::string& n) {
        return state.skip_score_plugins.count(n) > 0;
      });
  return all_skipped ? Status(Code::kSkip) : Status();
}

std::string CheckPreFilter(const Case& c, const Status& pre,
                           const reference::PreFilterResult& result, const CycleState& state,
                           const reference::Framework& fw) {
  if (!c.expect_pre_filter.is_null()) {
    std::string diff = CompareStatus(c.expect_pre_filter, ObservedPreFilterStatus(pre, state, fw));
    if (!diff.empty()) return "PreFilter: " + diff;
  }
  if (!c.expect_pre_filter_result.is_null()) {
    const nlohmann::json& want = c.expect_pre_filter_result;
    bool want_all = !want.is_object() || !want.contains("nodeNames") || want["nodeNames"].is_null();
    std::vector<std::string> want_names =
        want_all ? std::vector<std::string>{} : Strings(want["nodeNames"]);
    std::sort(want_names.begin(), want_names.end());
    std::vector<std::string> got(result.node_names.begin(), result.node_names.end());
    bool got_all = pre.IsSuccess() && result.all_nodes;
    if (want_all != got_all || (!want_all && want_names != got)) {
      return "PreFilterResult: expected " +
             (want_all ? std::string("all nodes") : JoinQuoted(want_names)) + ", got " +
             (got_all ? std::string("all nodes") : JoinQuoted(got));
    }
  }
  return "";
}

CaseResult RunFilter(const Case& c, Cluster& cluster, const reference::PodPtr& pod) {
  const reference::Framework& fw = cluster.framework();
  CycleState state;
  reference::PreFilterResult result;
  Status pre = fw.RunPreFilterPlugins(state, *pod, &result);
  if (std::string diff = CheckPreFilter(c, pre, result, state, fw); !diff.empty())
    return Fail(diff);
  std::vector<std::string> diffs;
  for (const auto& [node_name, want] : c.expect.items()) {
    const reference::NodeInfo* node = cluster.snapshot().Get(node_name);
    if (!node) return Fail("expect names node \"" + node_name + "\", which is not in the cluster");
    Status got = pre.IsSuccess() ? fw.RunFilterPlugins(state, *pod, *node) : pre;
    if (std::string diff = CompareStatus(want, got); !diff.empty())
      diffs.push_back(node_name + ": " + diff);
  }
  if (diffs.empty()) return Pass();
  std::string detail;
  for (const std::string& d : diffs) detail += (detail.empty() ? "" : "; ") + d;
  return Fail(detail);
}

CaseResult RunScore(const Case& c, Cluster& cluster, const reference::PodPtr& pod) {
  const reference::Framework& fw = cluster.framework();
  CycleState state;
  reference::PreFilterResult result;
  Status pre = fw.RunPreFilterPlugins(state, *pod, &result);
  if (std::string diff = CheckPreFilter(c, pre, result, state, fw); !diff.empty())
    return Fail(diff);
  if (!pre.IsSuccess())
    return Fail("PreFilter did not succeed, nothing to score: " + Describe(pre));
  std::vector<const reference::NodeInfo*> nodes;
  for (const std::string& name : c.feasible_nodes ? *c.feasible_nodes : cluster.node_names()) {
    const reference::NodeInfo* node = cluster.snapshot().Get(name);
    if (!node)
      return Fail("feasibleNodes names node \"" + name + "\", which is not in the cluster");
    nodes.push_back(node);
  }
  // Filter on every node to be scored, the outcome ignored, as upstream's VolumeBinding test does
  // before it scores: VolumeBinding's PreScore and Score read what its Filter kept per node; the
  // other plugins' Filters keep nothing. Plugins whose PreFilter skipped are left out.
  for (const std::string& name : fw.PluginNames(reference::ExtensionPoint::kFilter)) {
    if (state.skip_filter_plugins.count(name)) continue;
    auto* filter = dynamic_cast<reference::FilterPlugin*>(const_cast<reference::Plugin*>(
        fw.GetPlugin(name)));  // Filter is not const: it may keep what it found for the node
    if (filter == nullptr) continue;
    for (const reference::NodeInfo* node : nodes) (void)filter->Filter(state, *pod, *node);
  }
  Status s = fw.RunPreScorePlugins(state, *pod, nodes);
  if (!c.expect_pre_score.is_null()) {
    std::string diff = CompareStatus(c.expect_pre_score, ObservedPreScoreStatus(s, state, fw));
    if (!diff.empty()) return Fail("PreScore: " + diff);
    // Only the PreScore status is expected (e.g. an Error): nothing to score.
    if (c.expect.is_null()) return Pass();
  }
  std::vector<reference::NodePluginScores> scores;
  if (s.IsSuccess()) s = fw.RunScorePlugins(state, *pod, nodes, &scores);
  if (!s.IsSuccess()) return Fail("scoring failed: " + Describe(s));
  auto score_plugins = fw.PluginNames(reference::ExtensionPoint::kScore);
  // One score plugin: its normalized score; several (or the flag): the weighted total.
  bool total = c.score_is_weighted_total || score_plugins.size() != 1;
  std::vector<std::string> diffs;
  for (const auto& [node_name, want] : c.expect.items()) {
    const std::string& name = node_name;  // clang 14 cannot capture a structured binding
    auto it =
        std::find_if(scores.begin(), scores.end(), [&](const auto& s) { return s.name == name; });
    if (it == scores.end())
      return Fail("expect names node \"" + node_name + "\", which was not scored");
    int64_t got = 0;
    if (total) {
      got = it->total;
    } else {
      for (const auto& ps : it->scores) {
        if (ps.plugin == score_plugins[0]) got = ps.normalized;  // absent = skipped = 0
      }
    }
    if (!want.is_number_integer())
      return Fail("expect." + node_name + ": expected an integer score");
    if (want.get<int64_t>() != got) {
      diffs.push_back(node_name + ": expected " + std::to_string(want.get<int64_t>()) + ", got " +
                      std::to_string(got));
    }
  }
  if (diffs.empty()) return Pass();
  std::string detail = total ? "weighted total: " : score_plugins[0] + ": ";
  for (size_t i = 0; i < diffs.size(); ++i) detail += (i ? "; " : "") + diffs[i];
  return Fail(detail);
}

CaseResult RunSchedule(const Case& c, Cluster& cluster, const reference::PodPtr& pod) {
  reference::Scheduler& scheduler = cluster.scheduler();
  const reference::CompatLevel level = *reference::ParseCompatLevel(c.compat);
  // podsBefore: one scheduling cycle each of the same Scheduler (seed 0 for the tie-break;
  // expectations compare the tie set, not the pick), so the pod under test sees their assumed
  // placements and its search starts where theirs stopped (nextStartNodeIndex).
  for (size_t i = 0; i < c.pods_before.size(); ++i) {
    const std::string where = "podsBefore[" + std::to_string(i) + "]";
    auto before = reference::BuildPod(c.pods_before[i], reference::FeaturesFor(level));
    if (!before.ok()) return Fail(where + ": " + before.message());
    cluster.AddPendingPod(*before);
    CycleState before_state;
    reference::CycleOutcome o = scheduler.SchedulingCycle(before_state, *before);
    if (!o.status.IsSuccess() && !o.status.IsWait())
      return Fail(where + ": not scheduled: \"" + o.message + "\"");
  }
  cluster.AddPendingPod(pod);
  CycleState state;
  reference::CycleOutcome out = scheduler.SchedulingCycle(state, pod);
  const nlohmann::json& want = c.expect;
  bool scheduled = out.status.IsSuccess() || out.status.IsWait();
  std::string got = scheduled ? "scheduled on " + JoinQuoted(out.result.ties.Names()) + " (tie set)"
                              : "unschedulable: \"" + out.message + "\"";
  if (want.contains("node")) {
    std::string node = want["node"].get<std::string>();
    if (scheduled && out.result.ties == std::vector<std::string>{node}) return Pass();
    return Fail("expected node \"" + node + "\", got " + got);
  }
  if (want.contains("anyOf")) {
    std::vector<std::string> any = Strings(want["anyOf"]);
    bool ok = scheduled && std::all_of(out.result.ties.begin(), out.result.ties.end(),
                                       [&](const std::string& n) {
                                         return std::find(any.begin(), any.end(), n) != any.end();
                                       });
    if (ok) return Pass();
    return Fail("expected any of " + JoinQuoted(any) + ", got " + got);
  }
  if (want.contains("ties")) {
    // The exact tie set (any order): every node sharing the top total score, none other.
    std::vector<std::string> ties = Strings(want["ties"]);
    std::sort(ties.begin(), ties.end());
    if (scheduled && out.result.ties == ties) return Pass();
    return Fail("expected the tie set " + JoinQuoted(ties) + ", got " + got);
  }
  if (want.value("unschedulable", false)) {
    if (scheduled) return Fail("expected unschedulable, got " + got);
    if (want.contains("message") && want["message"].get<std::string>() != out.message) {
      return Fail("expected message \"" + want["message"].get<std::string>() + "\", got \"" +
                  out.message + "\"");
    }
    return Pass();
  }
  return Fail("expect for kind schedule needs node, anyOf, ties or unschedulable");
}

}  // namespace

std::string UnimplementedCompat(const std::string& compat) {
  if (!reference::ParseCompatLevel(compat)) {
    return "compat level " + compat + " is not implemented (implemented: 1.27, 1.37)";
  }
  return "";
}

CaseResult RunCaseUnguarded(const Case& c, reference::Engine engine) {
  if (std::string why = UnimplementedCompat(c.compat); !why.empty()) {
    return {Verdict::kSkip, why};
  }
  if (c.kind == "preempt") return RunPreemptCase(c, engine);
  if (c.kind == "queue") return RunQueueCase(c, engine);
  if (c.kind == "hint") return RunHintCase(c);
  if (c.kind == "update") return RunUpdateCase(c);
  ClusterInput input = ClusterInputOf(c);
  auto cluster =
      Cluster::Build(input, CaseProfile(c), c.compat.empty() ? "1.27" : c.compat, engine);
  if (!cluster.ok()) return BadInput("setup: " + cluster.message());
  auto pod =
      reference::BuildPod(*c.pod, reference::FeaturesFor(*reference::ParseCompatLevel(c.compat)));
  if (!pod.ok()) return BadInput("pod: " + pod.message());
  if (c.kind == "filter") return RunFilter(c, **cluster, *pod);
  if (c.kind == "score") return RunScore(c, **cluster, *pod);
  if (std::string why = NoProfileFor(**pod, **cluster); !why.empty()) return BadInput(why);
  return RunSchedule(c, **cluster, *pod);
}

// The expectation checks read `expect` with nlohmann's typed getters; one of the wrong JSON type
// is a malformed case (bad input) naming the exception, never std::terminate (case_file_fuzzer).
CaseResult RunCase(const Case& c, reference::Engine engine) {
  try {
    return RunCaseUnguarded(c, engine);
  } catch (const nlohmann::json::exception& e) {
    return BadInput(std::string("malformed expectation: ") + e.what());
  }
}

std::string FormatResultLine(const Case& c, const CaseResult& r) {
  switch (r.verdict) {
    case Verdict::kPass:
      return "PASS " + c.id;
    case Verdict::kFail:
      return "FAIL " + c.id + ": " + r.detail;
    case Verdict::kSkip:
      return "SKIP " + c.id + ": " + r.detail;
    case Verdict::kBadInput:
      return "ERROR " + c.id + ": " + r.detail;
  }
  return "";
}

nlohmann::json ResultJson(const Case& c, const CaseResult& r) {
  static const char* kNames[] = {"PASS", "FAIL", "SKIP", "ERROR"};
  return {{"id", c.id},         {"result", kNames[static_cast<int>(r.verdict)]},
          {"detail", r.detail}, {"kind", c.kind},
          {"source", c.source}, {"location", c.location}};
}

}  // namespace schedcheck::check
