#include "reference/plugins/default_preemption/preemption.h"

#include <cctype>
#include <functional>
#include <limits>

#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kUnstarted = std::numeric_limits<int64_t>::max();

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool Digits(std::string_view s, size_t pos, size_t n, int64_t* out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

int64_t StartOrUnstarted(const Pod& pod) { return PodStartTimeNs(pod).value_or(kUnstarted); }

// True when `pod` counts against `pdb` (same namespace, selector matches, not already disrupted).
bool PdbCoversPod(const k8s::PodDisruptionBudget& pdb, const Pod& pod) {
  const std::string& pdb_ns = pdb.metadata().namespace_().empty() ? std::string("default")
                                                                   : pdb.metadata().namespace_();
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

std::optional<int64_t> ParseRfc3339Ns(std::string_view s) {
  int64_t y, mo, d, h, mi, sec;
  if (!Digits(s, 0, 4, &y) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &mo) || s[7] != '-' ||
      !Digits(s, 8, 2, &d) || (s[10] != 'T' && s[10] != 't') || !Digits(s, 11, 2, &h) || s[13] != ':' ||
      !Digits(s, 14, 2, &mi) || s[16] != ':' || !Digits(s, 17, 2, &sec)) {
    return std::nullopt;
  }
  size_t pos = 19;
  int64_t frac_ns = 0;
  if (pos < s.size() && s[pos] == '.') {
    int64_t scale = 100000000;
    ++pos;
    size_t start = pos;
    for (; pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])); ++pos) {
      frac_ns += (s[pos] - '0') * scale;
      scale /= 10;
    }
    if (pos == start) return std::nullopt;
  }
  int64_t offset_s = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int64_t oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !Digits(s, pos + 4, 2, &om)) {
      return std::nullopt;
    }
    offset_s = (oh * 3600 + om * 60) * (s[pos] == '+' ? 1 : -1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size() || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) {
    return std::nullopt;
  }
  int64_t secs = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset_s;
  return secs * 1000000000 + frac_ns;
}

std::optional<int64_t> PodStartTimeNs(const Pod& pod) {
  const std::string& t = pod.obj.status().start_time();
  if (t.empty()) return std::nullopt;
  return ParseRfc3339Ns(t);
}

bool MoreImportantPod(const Pod& a, const Pod& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  std::optional<int64_t> sa = PodStartTimeNs(a);
  std::optional<int64_t> sb = PodStartTimeNs(b);
  if (!sa) return !sb;  // now_a.Before(now_b) holds; now.Before(a real start) does not
  if (!sb) return true;
  return *sa < *sb;
}

void SortByImportance(std::vector<PodInfoPtr>& pods) {
  for (size_t i = 1; i < pods.size(); ++i) {
    for (size_t j = i; j > 0 && MoreImportantPod(*pods[j]->pod, *pods[j - 1]->pod); --j) {
      std::swap(pods[j], pods[j - 1]);
    }
  }
}

void FilterPodsWithPdbViolation(const std::vector<PodInfoPtr>& pods,
                                const std::vector<const k8s::PodDisruptionBudget*>& pdbs,
                                std::vector<PodInfoPtr>* violating, std::vector<PodInfoPtr>* non_violating) {
  std::vector<int64_t> allowed;
  for (const k8s::PodDisruptionBudget* pdb : pdbs) allowed.push_back(pdb->status().disruptions_allowed());
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

std::vector<const NodeInfo*> NodesWherePreemptionMightHelp(const std::vector<const NodeInfo*>& nodes,
                                                           const NodeToStatus& statuses,
                                                           NodeToStatus* unhelpful) {
  std::vector<const NodeInfo*> potential;
  for (const NodeInfo* n : nodes) {
    auto it = statuses.find(n->name());
    if (it != statuses.end() && it->second.code() == Code::kUnschedulableAndUnresolvable) {
      (*unhelpful)[n->name()] = Status(Code::kUnschedulableAndUnresolvable, std::string(kPreemptionNotHelpful));
      continue;
    }
    potential.push_back(n);
  }
  return potential;
}

int64_t EarliestStartOfHighestPriorityVictims(const std::vector<PodPtr>& victims) {
  int64_t earliest = StartOrUnstarted(*victims[0]);
  int32_t max_priority = victims[0]->priority;
  for (const PodPtr& p : victims) {
    if (p->priority == max_priority) {
      earliest = std::min(earliest, StartOrUnstarted(*p));
    } else if (p->priority > max_priority) {
      max_priority = p->priority;
      earliest = StartOrUnstarted(*p);
    }
  }
  return earliest;
}

std::vector<Candidate> BestCandidates(const std::vector<Candidate>& candidates) {
  // Each criterion is a score; higher is better, and only the best-scoring candidates go on.
  const std::vector<std::function<int64_t(const Candidate&)>> criteria = {
      [](const Candidate& c) { return -c.num_pdb_violations; },
      // victims[0]: the most important *violating* victim when there is one (v1.27 quirk).
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims[0]->priority); },
      [](const Candidate& c) {
        int64_t sum = 0;
        for (const PodPtr& p : c.victims) sum += static_cast<int64_t>(p->priority) + (int64_t{1} << 31);
        return -sum;
      },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims.size()); },
      [](const Candidate& c) { return EarliestStartOfHighestPriorityVictims(c.victims); },
  };
  std::vector<Candidate> remaining = candidates;
  for (const auto& score : criteria) {
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

}  // namespace schedcheck::reference
