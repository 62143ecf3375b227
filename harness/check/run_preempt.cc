#include "harness/check/run_preempt.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "harness/check/cluster.h"
#include "reference/plugins/default_preemption/default_preemption.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::check {
namespace {

using reference::Candidate;
using reference::Code;
using reference::PreemptionOutcome;
using reference::Status;
using Verdict = CaseResult::Verdict;

CaseResult Fail(std::string detail) { return {Verdict::kFail, std::move(detail)}; }
CaseResult BadInput(std::string detail) { return {Verdict::kBadInput, std::move(detail)}; }

std::string Join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + ("\"" + items[i] + "\"");
  return out + "]";
}

std::vector<std::string> Keys(const std::vector<reference::PodPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->key);
  std::sort(out.begin(), out.end());
  return out;
}

std::string DescribeCandidate(const Candidate& c) {
  return "{node \"" + c.node + "\", victims " + Join(Keys(c.victims)) + "}";
}

std::string DescribeOutcome(const PreemptionOutcome& out) {
  if (!out.status.IsSuccess()) {
    return std::string(reference::CodeName(out.status.code())) + " \"" + out.status.Message() +
           "\"";
  }
  std::string s = "preemption on ";
  for (size_t i = 0; i < out.best.size(); ++i)
    s += (i ? " or " : "") + DescribeCandidate(out.best[i]);
  return s + (out.best.size() > 1 ? " (tie)" : "");
}

// One {"nominatedNode": ..., "victims": [...]} against one candidate; victims compared as sets
// and only when given.
bool Matches(const nlohmann::json& want, const Candidate& got) {
  if (!want.is_object() || !want.contains("nominatedNode")) return false;
  if (want["nominatedNode"] != got.node) return false;
  if (!want.contains("victims")) return true;
  std::vector<std::string> victims;
  for (const auto& v : want["victims"])
    victims.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  std::sort(victims.begin(), victims.end());
  return victims == Keys(got.victims);
}

CaseResult CheckStatus(const nlohmann::json& want, const PreemptionOutcome& out) {
  if (!want.is_object()) return Fail("expect.status must be an object with \"code\"");
  if (want.contains("code") && !want["code"].is_string())
    return Fail("expect.status.code: expected a string");
  if (want.contains("message") && !want["message"].is_string())
    return Fail("expect.status.message: expected a string");
  std::string code = want.contains("code") ? want["code"].get<std::string>() : "Unschedulable";
  Code want_code;
  if (!reference::ParseCode(code, &want_code))
    return Fail("unknown code \"" + code + "\" in expect.status");
  bool same = want_code == out.status.code();
  if (want.contains("message") && want["message"].get<std::string>() != out.status.Message())
    same = false;
  if (same) return {Verdict::kPass, ""};
  std::string expected =
      code + (want.contains("message") ? " \"" + want["message"].get<std::string>() + "\"" : "");
  return Fail("expected " + expected + ", got " + DescribeOutcome(out));
}

// Optional extension: "clearNominations": ["ns/name", ...], the lower-priority pods nominated to
// the chosen node whose nomination the preemption clears.
std::string CheckClearNominations(const nlohmann::json& want, const PreemptionOutcome& out) {
  if (!want.contains("clearNominations")) return "";
  std::vector<std::string> expected;
  for (const auto& v : want["clearNominations"]) expected.push_back(v.get<std::string>());
  std::sort(expected.begin(), expected.end());
  std::vector<std::string> got = Keys(out.result.clear_nomination);
  if (expected == got) return "";
  return "clearNominations: expected " + Join(expected) + ", got " + Join(got);
}

CaseResult Compare(const nlohmann::json& want, const PreemptionOutcome& out) {
  if (!want.is_object()) return Fail("expect must be an object");
  if (want.contains("status")) return CheckStatus(want["status"], out);
  if (!out.status.IsSuccess()) return Fail("expected a preemption, got " + DescribeOutcome(out));
  bool ok = false;
  if (want.contains("anyOf")) {
    // Every candidate the real scheduler might pick must be allowed.
    ok = std::all_of(out.best.begin(), out.best.end(), [&](const Candidate& c) {
      return std::any_of(want["anyOf"].begin(), want["anyOf"].end(),
                         [&](const auto& w) { return Matches(w, c); });
    });
  } else if (want.contains("nominatedNode")) {
    ok = out.best.size() == 1 && Matches(want, out.best[0]);
  } else {
    return Fail("expect for kind preempt needs nominatedNode, anyOf or status");
  }
  if (!ok) return Fail("expected " + want.dump() + ", got " + DescribeOutcome(out));
  if (std::string diff = CheckClearNominations(want, out); !diff.empty()) return Fail(diff);
  return {Verdict::kPass, ""};
}

}  // namespace

CaseResult RunPreemptCase(const Case& c, reference::Engine engine) {
  ClusterInput input = ClusterInputOf(c);
  auto cluster =
      Cluster::Build(input, CaseProfile(c), c.compat.empty() ? "1.27" : c.compat, engine);
  if (!cluster.ok()) return BadInput("setup: " + cluster.message());
  if (!c.pod) return BadInput("kind preempt needs a pod");
  const reference::CompatLevel level = *reference::ParseCompatLevel(c.compat);
  auto pod = reference::BuildPod(*c.pod, reference::FeaturesFor(level));
  if (!pod.ok()) return BadInput("pod: " + pod.message());
  if (std::string why = NoProfileFor(**pod, **cluster); !why.empty()) return BadInput(why);
  const reference::Framework& fw = (*cluster)->framework();

  // The failed scheduling attempt whose statuses preemption starts from.
  (*cluster)->AddPendingPod(*pod);
  reference::CycleState state;
  reference::ScheduleResult r = (*cluster)->scheduler().SchedulePod(state, **pod);
  switch (r.kind) {
    case reference::ScheduleResult::Kind::kScheduled:
      return Fail("the pod fits (on " + Join(r.ties.Names()) + "), so there is no preemption");
    case reference::ScheduleResult::Kind::kNoNodes:
      return Fail(std::string(reference::kNoNodesAvailableMsg) + " (PostFilter does not run)");
    case reference::ScheduleResult::Kind::kError:
      return Fail("scheduling error: " + r.error_status.Message());
    case reference::ScheduleResult::Kind::kFitError:
      break;
  }
  // DefaultPreemption with the case's args, on the profile's handle (the instance inside the
  // framework would give the same answer; this one also reports the whole tied set).
  auto args_it = c.plugin_args.find("DefaultPreemption");
  auto args = reference::ParseDefaultPreemptionArgs(
      args_it == c.plugin_args.end() ? nlohmann::json() : args_it->second);
  if (!args.ok()) return BadInput("pluginArgs.DefaultPreemption: " + args.message());
  reference::DefaultPreemption plugin(*args, fw.handle());
  PreemptionOutcome out = plugin.Preempt(state, **pod, r.diagnosis.node_to_status);
  return Compare(c.expect, out);
}

}  // namespace schedcheck::check
