#include "reference/plugins/default_preemption/preemption.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>

#include "reference/api/rfc3339.h"
#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

int64_t StartOrUnstarted(const Pod& pod, int64_t now) { return PodStartTimeNs(pod).value_or(now); }

// True when `pod` counts against `pdb` (same namespace, selector matches, not already disrupted).
bool PdbCoversPod(const k8s::PodDisruptionBudget& pdb, const Pod& pod) {
  const std::string& pdb_ns =
      pdb.metadata().namespace_().empty() ? std::string("default") : pdb.metadata().namespace_();
  if (pdb_ns != pod.ns()) return false;
  // A nil selector matches nothing (labels.Nothing); an empty one is "Empty()" and skipped too;
  // an invalid one does not convert and is skipped.
  if (!pdb.spec().has_selector()) return false;
  const k8s::LabelSelector& sel = pdb.spec().selector();
  if (sel.match_labels().empty() && sel.match_expressions().empty()) return false;
  if (!LabelSelectorValid(sel) || !LabelSelectorMatches(sel, pod.labels())) return false;
  return pdb.status().disrupted_pods().count(pod.name()) == 0;
}

}  // namespace

std::optional<int64_t> PodStartTimeNs(const Pod& pod) {
  const std::string& t = pod.obj.status().start_time();
  if (t.empty()) return std::nullopt;
  Result<int64_t> ns = ParseRfc3339(t);
  if (!ns.ok()) return std::nullopt;
  return *ns;
}

bool MoreImportantPod(const Pod& a, const Pod& b, int64_t now_ns) {
  if (a.priority != b.priority) return a.priority > b.priority;
  std::optional<int64_t> sa = PodStartTimeNs(a);
  std::optional<int64_t> sb = PodStartTimeNs(b);
  if (!sa && !sb) return true;  // now_a.Before(now_b): a's time.Now() is read first
  // time.Now() advances at every read: an unstarted pod starts just after `now_ns`.
  return sa.value_or(now_ns + 1) < sb.value_or(now_ns + 1);
}

void SortByImportance(std::vector<PodInfoPtr>& pods, int64_t now_ns) {
  for (size_t i = 1; i < pods.size(); ++i) {
    for (size_t j = i; j > 0 && MoreImportantPod(*pods[j]->pod, *pods[j - 1]->pod, now_ns); --j) {
      std::swap(pods[j], pods[j - 1]);
    }
  }
}

void FilterPodsWithPdbViolation(const std::vector<PodInfoPtr>& pods,
                                const std::vector<const k8s::PodDisruptionBudget*>& pdbs,
                                std::vector<PodInfoPtr>* violating,
                                std::vector<PodInfoPtr>* non_violating) {
  std::vector<int64_t> allowed;
  for (const k8s::PodDisruptionBudget* pdb : pdbs)
    allowed.push_back(pdb->status().disruptions_allowed());
  for (const PodInfoPtr& pi : pods) {
    bool violated = false;
    // Pods without labels match no PDB.
    if (!pi->pod->labels().empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        if (!PdbCoversPod(*pdbs[i], *pi->pod)) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating)->push_back(pi);
  }
}

std::vector<const NodeInfo*> NodesWherePreemptionMightHelp(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& m, NodeToStatus* node_statuses) {
  std::vector<const NodeInfo*> potential_nodes;
  for (const NodeInfo* node : nodes) {
    // The status each plugin gave, Unschedulable or UnschedulableAndUnresolvable, tells whether
    // preemption may help on the node.
    auto it = m.find(node->name());
    if (it != m.end() && it->second.code() == Code::kUnschedulableAndUnresolvable) {
      (*node_statuses)[node->name()] =
          Status(Code::kUnschedulableAndUnresolvable, std::string(kPreemptionNotHelpful));
      continue;
    }
    potential_nodes.push_back(node);
  }
  return potential_nodes;
}

int64_t EarliestStartOfHighestPriorityVictims(const std::vector<PodPtr>& victims, int64_t now) {
  int64_t earliest = StartOrUnstarted(*victims[0], now);
  int32_t max_priority = victims[0]->priority;
  for (const PodPtr& p : victims) {
    if (p->priority == max_priority) {
      earliest = std::min(earliest, StartOrUnstarted(*p, now));
    } else if (p->priority > max_priority) {
      max_priority = p->priority;
      earliest = StartOrUnstarted(*p, now);
    }
  }
  return earliest;
}

namespace {

using Criterion = std::function<int64_t(const Candidate&)>;

// pickOneNodeForPreemption's first four criteria (higher is better): fewest PDB violations; lowest
// priority of victims[0] (the most important victim); smallest sum of priority + 2^31; fewest
// victims.
std::vector<Criterion> FirstFourCriteria() {
  return {
      [](const Candidate& c) { return -c.num_pdb_violations; },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims[0]->priority); },
      [](const Candidate& c) {
        int64_t sum = 0;
        for (const PodPtr& p : c.victims)
          sum += static_cast<int64_t>(p->priority) + (int64_t{1} << 31);
        return -sum;
      },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims.size()); },
  };
}

// Each criterion in turn keeps only the best-scoring candidates, until one is left.
std::vector<Candidate> KeepBest(std::vector<Candidate> remaining,
                                const std::vector<Criterion>& criteria) {
  for (const Criterion& score : criteria) {
    if (remaining.size() <= 1) break;
    int64_t best = std::numeric_limits<int64_t>::min();
    std::vector<Candidate> kept;
    for (const Candidate& c : remaining) {
      int64_t s = score(c);
      if (s > best) {
        best = s;
        kept.clear();
      }
      if (s == best) kept.push_back(c);
    }
    remaining = std::move(kept);
  }
  return remaining;
}

}  // namespace

void SortVictimsByImportance(std::vector<PodInfoPtr>& pods, std::vector<int64_t>& start_ns) {
  auto more_important = [&](size_t a, size_t b) {
    if (pods[a]->pod->priority != pods[b]->pod->priority) {
      return pods[a]->pod->priority > pods[b]->pod->priority;
    }
    return start_ns[a] < start_ns[b];
  };
  for (size_t i = 1; i < pods.size(); ++i) {
    for (size_t j = i; j > 0 && more_important(j, j - 1); --j) {
      std::swap(pods[j], pods[j - 1]);
      std::swap(start_ns[j], start_ns[j - 1]);
    }
  }
}

std::vector<Candidate> BestCandidatesV1_37(const std::vector<Candidate>& candidates,
                                           const StartTimeReader& read) {
  // GetEarliestPodStartTime, reading as upstream does: victims[0] first, then each victim.
  auto latest_start = [&](const Candidate& c) {
    int64_t earliest = read(*c.victims[0]);
    int32_t max_priority = c.victims[0]->priority;
    for (const PodPtr& p : c.victims) {
      if (p->priority == max_priority) {
        earliest = std::min(earliest, read(*p));
      } else if (p->priority > max_priority) {
        max_priority = p->priority;
        earliest = read(*p);
      }
    }
    return earliest;
  };
  std::vector<Criterion> criteria = FirstFourCriteria();
  criteria.push_back(latest_start);
  return KeepBest(candidates, criteria);
}

std::vector<Candidate> BestCandidates(const std::vector<Candidate>& candidates, int64_t now_ns) {
  // Each criterion is a score; higher is better, and only the best-scoring candidates go on.
  std::vector<Criterion> criteria = FirstFourCriteria();
  criteria.push_back(
      // pickOneNodeForPreemption evaluates this per candidate in order, and time.Now() moves on
      // between candidates: among candidates whose deciding victims have not started, the one
      // evaluated last has the latest "start" and wins.
      [evaluated = int64_t{1}, now_ns](const Candidate& c) mutable {
        return EarliestStartOfHighestPriorityVictims(c.victims, now_ns + evaluated++);
      });
  return KeepBest(candidates, criteria);
}

}  // namespace schedcheck::reference
