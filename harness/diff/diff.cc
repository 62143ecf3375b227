#include "harness/diff/diff.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

struct AttemptAt {
  int64_t t_ns = 0;
  int64_t index = -1;  // record index in its log (-1: synthesized from a binding)
  // Points into the log, never copied: an attempt names every tied node, often hundreds, and a
  // day's log has a hundred thousand attempts. Synthesized ones are owned by their History.
  const trace::Attempt* attempt = nullptr;
  const trace::Attempt& a() const { return *attempt; }
};

struct QueueAt {
  int64_t t_ns = 0;
  int64_t index = 0;
  std::string from, to, cause;
};

// A nomination or a victim with the time it was observed.
struct Observed {
  int64_t t_ns = 0;
  std::string name;  // the nominated node, or the victim
};

struct History {
  std::vector<AttemptAt> attempts;
  std::vector<QueueAt> queue;
  std::vector<std::unique_ptr<trace::Attempt>> synthesized;
  // A capture's Nomination records about the pod and Preemption records naming it as preemptor.
  std::vector<Observed> nominations, victims;
  bool from_capture = false;  // read from a capture's observed records
};

bool HasObserved(const std::vector<trace::Record>& log) { return IsCapture(log); }

// Which optional fields a capture's observed attempts carry at all: a field no observed attempt
// has is not compared (an Event carries the message, not the plugins that produced it).
// A capture's Nomination and Preemption records are compared per pod instead (ComparePreemption).
struct CaptureFields {
  bool plugins = false, nomination = false, victims = false;
  bool nomination_records = false, preemption_records = false;
  int64_t victims_without_preemptor = 0;
};

CaptureFields FieldsOf(const std::vector<trace::Record>& log, CaptureFields in) {
  for (const trace::Record& r : log) {
    if (r.has_nomination() && r.nomination().observed()) in.nomination_records = true;
    if (r.has_preemption() && r.preemption().observed()) {
      in.preemption_records = true;
      in.victims_without_preemptor += r.preemption().preemptor().empty() ? 1 : 0;
    }
    if (!r.has_attempt() || !r.attempt().observed()) continue;
    in.plugins |= r.attempt().unschedulable_plugins_size() > 0;
    in.nomination |= !r.attempt().nominated_node().empty();
    in.victims |= r.attempt().victims_size() > 0;
  }
  return in;
}

// Per pod, in log order. A capture (observed records present) contributes only its observed
// decisions; a binding without a Scheduled attempt before it counts as a Scheduled attempt.
std::map<std::string, History> Histories(const std::vector<trace::Record>& log) {
  const bool observed_only = HasObserved(log);
  std::map<std::string, History> out;
  for (size_t i = 0; i < log.size(); ++i) {
    const trace::Record& r = log[i];
    const auto index = static_cast<int64_t>(i);
    if (r.has_attempt() && (!observed_only || r.attempt().observed())) {
      out[r.attempt().pod()].attempts.push_back({r.time_ns(), index, &r.attempt()});
    } else if (r.has_nomination() && observed_only && r.nomination().observed()) {
      out[r.nomination().pod()].nominations.push_back({r.time_ns(), r.nomination().node()});
    } else if (r.has_preemption() && observed_only && r.preemption().observed() &&
               !r.preemption().preemptor().empty()) {
      out[r.preemption().preemptor()].victims.push_back({r.time_ns(), r.preemption().victim()});
    } else if (r.has_queue() && !observed_only) {
      const auto& q = r.queue();
      out[q.pod()].queue.push_back({r.time_ns(), index, q.from(), q.to(), q.cause()});
    } else if (r.has_binding() && observed_only && r.binding().observed()) {
      History& h = out[r.binding().pod()];
      if (!h.attempts.empty() && h.attempts.back().a().result() == trace::SCHEDULED) continue;
      auto a = std::make_unique<trace::Attempt>();
      a->set_pod(r.binding().pod());
      a->set_attempt(static_cast<int32_t>(h.attempts.size()) + 1);
      a->set_result(trace::SCHEDULED);
      a->set_node(r.binding().node());
      h.attempts.push_back({r.time_ns(), -1, a.get()});
      h.synthesized.push_back(std::move(a));
    }
  }
  for (auto& [pod, h] : out) h.from_capture = observed_only;
  return out;
}

std::vector<std::string> Sorted(const google::protobuf::RepeatedPtrField<std::string>& items);

// Consecutive failed attempts that look the same in a capture fold into the first of them.
bool SameInCapture(const trace::Attempt& x, const trace::Attempt& y, const CaptureFields& f) {
  if (x.result() == trace::SCHEDULED || x.result() != y.result() || x.message() != y.message())
    return false;
  if (f.plugins && Sorted(x.unschedulable_plugins()) != Sorted(y.unschedulable_plugins()))
    return false;
  if (f.nomination && x.nominated_node() != y.nominated_node()) return false;
  return !f.victims || Sorted(x.victims()) == Sorted(y.victims());
}

void FoldRepeats(History* h, const CaptureFields& f) {
  std::vector<AttemptAt> kept;
  for (AttemptAt& a : h->attempts) {
    if (!kept.empty() && SameInCapture(kept.back().a(), a.a(), f)) continue;
    kept.push_back(std::move(a));
  }
  h->attempts = std::move(kept);
}

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::vector<std::string> Sorted(const google::protobuf::RepeatedPtrField<std::string>& items) {
  std::vector<std::string> v(items.begin(), items.end());
  std::sort(v.begin(), v.end());
  return v;
}

std::string At(int64_t t_ns) { return "t=" + replay::FormatSeconds(t_ns); }

std::string DescribeAttempt(const AttemptAt& x) {
  const trace::Attempt& a = x.a();
  std::string s = At(x.t_ns) + " attempt " + std::to_string(a.attempt()) + ": ";
  if (a.result() == trace::SCHEDULED) {
    s += "bound to " + a.node();
    if (a.ties_size() > 0) s += " (top-score ties {" + Join(a.ties()) + "})";
    return s;
  }
  s += a.result() == trace::ERROR ? "error" : "unschedulable";
  if (a.unschedulable_plugins_size() > 0) s += " by [" + Join(a.unschedulable_plugins()) + "]";
  if (!a.nominated_node().empty()) s += ", nominated " + a.nominated_node();
  if (a.victims_size() > 0) s += ", victims {" + Join(a.victims()) + "}";
  if (!a.message().empty()) s += ": \"" + a.message() + "\"";
  return s;
}

std::string DescribeQueue(const QueueAt& q) {
  return At(q.t_ns) + " " + q.from + "->" + q.to + " (" + q.cause + ")";
}

bool InTies(const trace::Attempt& ref, const std::string& node) {
  if (ref.ties_size() == 0) return node == ref.node();
  return std::find(ref.ties().begin(), ref.ties().end(), node) != ref.ties().end();
}

// The rejecting plugins of the reference's last attempt recorded before `index`.
std::vector<std::string> PluginsBefore(const History& h, int64_t index) {
  std::vector<std::string> out;
  for (const AttemptAt& a : h.attempts) {
    if (a.index >= index) break;
    out = Sorted(a.a().unschedulable_plugins());
  }
  return out;
}

// The reference's first attempt recorded after `index` (for explaining a queue difference).
int64_t AttemptAfter(const History& h, int64_t index) {
  for (const AttemptAt& a : h.attempts) {
    if (a.index > index) return a.index;
  }
  return -1;
}

class PodDiff {
 public:
  // `capture`: the fields a capture carries when one side is a capture, else null.
  PodDiff(std::string pod, const History& a, const History& b, const DiffOptions& o,
          const CaptureFields* capture)
      : pod_(std::move(pod)), a_(a), b_(b), o_(o), capture_(capture) {}

  std::vector<Divergence> Run() {
    CompareQueuePaths();
    CompareAttempts();
    ComparePreemption();
    // A requeue difference after the outcomes parted is a consequence, not a separate finding.
    auto& hard = by_class_[static_cast<int>(DivergenceClass::kHard)];
    auto& requeue = by_class_[static_cast<int>(DivergenceClass::kRequeue)];
    if (hard && requeue && requeue->t_ns >= hard->t_ns) requeue.reset();
    std::vector<Divergence> out;
    for (auto& d : by_class_) {
      if (d) out.push_back(std::move(*d));
    }
    return out;
  }

 private:
  bool Differs(int64_t ta, int64_t tb) const {
    return (ta > tb ? ta - tb : tb - ta) > o_.time_tolerance_ns;
  }

  // Keeps the earliest divergence of each class (the first found wins at equal times).
  void Note(Divergence d) {
    d.pod = pod_;
    auto& slot = by_class_[static_cast<int>(d.cls)];
    if (!slot || d.t_ns < slot->t_ns) slot = std::move(d);
  }

  void CompareQueuePaths() {
    if (a_.queue.empty() || b_.queue.empty()) return;  // a capture has no queue path
    const size_t n = std::max(a_.queue.size(), b_.queue.size());
    for (size_t i = 0; i < n; ++i) {
      const QueueAt* qa = i < a_.queue.size() ? &a_.queue[i] : nullptr;
      const QueueAt* qb = i < b_.queue.size() ? &b_.queue[i] : nullptr;
      if (qa && qb && qa->from == qb->from && qa->to == qb->to && qa->cause == qb->cause &&
          !Differs(qa->t_ns, qb->t_ns)) {
        continue;
      }
      Divergence d;
      d.cls = DivergenceClass::kRequeue;
      d.what = "queue-path";
      d.t_ns = std::min(qa ? qa->t_ns : INT64_MAX, qb ? qb->t_ns : INT64_MAX);
      d.reference = qa ? DescribeQueue(*qa) : "no further queue transition";
      d.candidate = qb ? DescribeQueue(*qb) : "no further queue transition";
      int64_t index = qa ? qa->index : INT64_MAX;
      d.plugins = PluginsBefore(a_, index);
      d.reference_record = AttemptAfter(a_, qa ? qa->index : -1);
      d.candidate_record = AttemptAfter(b_, qb ? qb->index : -1);
      Note(std::move(d));
      return;
    }
  }

  // `ia`, `ib`: the attempts' positions in A and B.
  void CompareAttempt(const AttemptAt& x, const AttemptAt& y, size_t ia, size_t ib) {
    const trace::Attempt& a = x.a();
    const trace::Attempt& b = y.a();
    Divergence d;
    // Against a capture the positions count distinct outcomes; name the candidate's attempt.
    d.attempt = capture_ && y.a().attempt() > 0 ? y.a().attempt() : static_cast<int>(ib + 1);
    d.t_ns = std::min(x.t_ns, y.t_ns);
    d.reference = DescribeAttempt(x);
    d.candidate = DescribeAttempt(y);
    d.reference_record = x.index;
    d.candidate_record = y.index;
    d.plugins = Sorted(a.result() == trace::SCHEDULED ? b.unschedulable_plugins()
                                                      : a.unschedulable_plugins());
    if (a.result() != b.result()) {
      d.what = "outcome";
    } else if (a.result() == trace::SCHEDULED) {
      if (!InTies(a, b.node())) {
        d.cls = DivergenceClass::kSoft;
        d.what = "placement";
        d.plugins.clear();
      }
    } else if (Compares(&CaptureFields::nomination) && a.nominated_node() != b.nominated_node()) {
      d.what = "nomination";
    } else if (Compares(&CaptureFields::victims) && Sorted(a.victims()) != Sorted(b.victims())) {
      d.what = "victims";
    } else if (Compares(&CaptureFields::plugins) &&
               Sorted(a.unschedulable_plugins()) != Sorted(b.unschedulable_plugins())) {
      d.what = "plugins";
      std::set<std::string> both(a.unschedulable_plugins().begin(),
                                 a.unschedulable_plugins().end());
      both.insert(b.unschedulable_plugins().begin(), b.unschedulable_plugins().end());
      d.plugins.assign(both.begin(), both.end());
    } else if (a.message() != b.message()) {
      d.what = "message";
    }
    if (!d.what.empty()) Note(d);
    if (Differs(x.t_ns, y.t_ns)) {
      Divergence r = d;
      r.cls = DivergenceClass::kRequeue;
      r.what = "attempt-time";
      r.plugins = ia > 0 ? Sorted(a_.attempts[ia - 1].a().unschedulable_plugins())
                         : std::vector<std::string>{};
      Note(std::move(r));
    }
  }

  void CompareAttempts() {
    if (a_.attempts.empty() != b_.attempts.empty()) {
      const AttemptAt& first = a_.attempts.empty() ? b_.attempts.front() : a_.attempts.front();
      Divergence d;
      d.cls = DivergenceClass::kHard;
      d.what = "missing";
      d.attempt = 1;
      d.t_ns = first.t_ns;
      d.reference = a_.attempts.empty() ? "never attempted" : DescribeAttempt(first);
      d.candidate = b_.attempts.empty() ? "never attempted" : DescribeAttempt(first);
      d.reference_record = a_.attempts.empty() ? -1 : first.index;
      d.candidate_record = b_.attempts.empty() ? -1 : first.index;
      Note(std::move(d));
      return;
    }
    const size_t na = a_.attempts.size(), nb = b_.attempts.size();
    if (na == nb) {
      for (size_t i = 0; i < na; ++i) CompareAttempt(a_.attempts[i], b_.attempts[i], i, i);
      return;
    }
    // Different numbers of attempts: the leading ones pair up, the last ones (the outcomes) pair
    // up, and the first attempt without a counterpart is a requeue difference.
    const size_t common = std::min(na, nb) - 1;
    const bool a_longer = na > nb;
    const History& longer = a_longer ? a_ : b_;
    const AttemptAt& extra = longer.attempts[common];
    Divergence d;
    d.cls = DivergenceClass::kRequeue;
    d.what = "attempt-count";
    d.attempt = static_cast<int>(common + 1);
    d.t_ns = extra.t_ns;
    const char* counted = capture_ ? " distinct outcome(s)" : " attempt(s)";
    auto summary = [counted](const History& h) {
      return std::to_string(h.attempts.size()) + counted + ", last " +
             DescribeAttempt(h.attempts.back());
    };
    d.reference = summary(a_);
    d.candidate = summary(b_);
    if (common > 0) d.plugins = Sorted(longer.attempts[common - 1].a().unschedulable_plugins());
    d.reference_record = a_.attempts[a_longer ? common : std::min(common, na - 1)].index;
    d.candidate_record = b_.attempts[a_longer ? std::min(common, nb - 1) : common].index;
    Note(std::move(d));
    for (size_t i = 0; i < common; ++i) CompareAttempt(a_.attempts[i], b_.attempts[i], i, i);
    CompareAttempt(a_.attempts.back(), b_.attempts.back(), na - 1, nb - 1);
  }

  // The pod's nominated nodes in order (consecutive repeats and clears folded): a capture's
  // Nomination records, or a replay's attempts.
  static std::vector<Observed> Nominations(const History& h) {
    std::vector<Observed> out;
    auto add = [&out](int64_t t_ns, const std::string& node) {
      if (!node.empty() && (out.empty() || out.back().name != node)) out.push_back({t_ns, node});
    };
    if (h.from_capture) {
      for (const Observed& n : h.nominations) add(n.t_ns, n.name);
    } else {
      for (const AttemptAt& a : h.attempts) add(a.t_ns, a.a().nominated_node());
    }
    return out;
  }

  // The victims the pod preempted, by name, each at the first time it was named.
  static std::map<std::string, int64_t> Victims(const History& h) {
    std::map<std::string, int64_t> out;
    if (h.from_capture) {
      for (const Observed& v : h.victims) out.emplace(v.name, v.t_ns);
    } else {
      for (const AttemptAt& a : h.attempts) {
        for (const std::string& v : a.a().victims()) out.emplace(v, a.t_ns);
      }
    }
    return out;
  }

  // Against a capture holding Nomination / Preemption records: the nominations and victims of the
  // whole pod, whichever attempt they came with (a capture does not say which one).
  void ComparePreemption() {
    if (capture_ == nullptr) return;
    auto names = [](const std::vector<Observed>& v) {
      std::string out;
      for (const Observed& o : v) out += (out.empty() ? "" : ", ") + o.name;
      return out.empty() ? std::string("never nominated") : "nominated " + out;
    };
    if (capture_->nomination_records) {
      const std::vector<Observed> na = Nominations(a_), nb = Nominations(b_);
      for (size_t i = 0; i < std::max(na.size(), nb.size()); ++i) {
        if (i < na.size() && i < nb.size() && na[i].name == nb[i].name) continue;
        Divergence d;
        d.what = "nomination";
        d.t_ns = std::min(i < na.size() ? na[i].t_ns : INT64_MAX,
                          i < nb.size() ? nb[i].t_ns : INT64_MAX);
        d.reference = names(na);
        d.candidate = names(nb);
        Note(std::move(d));
        break;
      }
    }
    if (capture_->preemption_records) {
      const std::map<std::string, int64_t> va = Victims(a_), vb = Victims(b_);
      if (va.size() != vb.size() ||
          !std::equal(va.begin(), va.end(), vb.begin(),
                      [](const auto& x, const auto& y) { return x.first == y.first; })) {
        auto set = [](const std::map<std::string, int64_t>& v) {
          std::string out;
          for (const auto& [name, t] : v) out += (out.empty() ? "" : ",") + name;
          return out.empty() ? std::string("no victims") : "victims {" + out + "}";
        };
        Divergence d;
        d.what = "victims";
        d.t_ns = INT64_MAX;
        for (const auto* side : {&va, &vb}) {
          const auto* other = side == &va ? &vb : &va;
          for (const auto& [name, t] : *side) {
            if (!other->count(name)) d.t_ns = std::min(d.t_ns, t);
          }
        }
        d.reference = set(va);
        d.candidate = set(vb);
        Note(std::move(d));
      }
    }
  }

  // Between two replays every field is compared; against a capture only those it carries.
  bool Compares(bool CaptureFields::*field) const {
    return capture_ == nullptr || capture_->*field;
  }

  std::string pod_;
  const History& a_;
  const History& b_;
  const DiffOptions& o_;
  const CaptureFields* capture_;
  std::optional<Divergence> by_class_[3];
};

}  // namespace

std::string_view ClassName(DivergenceClass c) {
  switch (c) {
    case DivergenceClass::kHard:
      return "hard";
    case DivergenceClass::kRequeue:
      return "requeue";
    case DivergenceClass::kSoft:
      return "soft";
  }
  return "?";
}

size_t DiffResult::Count(DivergenceClass c) const {
  return static_cast<size_t>(std::count_if(divergences.begin(), divergences.end(),
                                           [c](const Divergence& d) { return d.cls == c; }));
}

bool DiffResult::Fails(bool allow_soft) const {
  return Count(DivergenceClass::kHard) > 0 || Count(DivergenceClass::kRequeue) > 0 ||
         (!allow_soft && Count(DivergenceClass::kSoft) > 0);
}

bool IsCapture(const std::vector<trace::Record>& log) {
  for (const trace::Record& r : log) {
    if ((r.has_attempt() && r.attempt().observed()) ||
        (r.has_binding() && r.binding().observed()) ||
        (r.has_nomination() && r.nomination().observed()) ||
        (r.has_preemption() && r.preemption().observed()))
      return true;
  }
  return false;
}

int64_t DefaultTimeToleranceNs(const std::vector<trace::Record>& a,
                               const std::vector<trace::Record>& b) {
  return IsCapture(a) || IsCapture(b) ? kCaptureTimeToleranceNs : 0;
}

namespace {

std::vector<std::string> NotCompared(const CaptureFields& f) {
  std::vector<std::string> out = {
      "attempts between repeated identical FailedScheduling events (a capture's events are "
      "aggregated)",
      "queue paths (a capture has no queue transitions)",
      "top-score ties of the captured side (only the reference's ties are used)",
  };
  if (!f.plugins)
    out.push_back("rejecting plugins (a capture's FailedScheduling events carry the message only)");
  if (!f.nomination && !f.nomination_records)
    out.push_back("nominated nodes (not in the capture's observed decisions)");
  if (!f.victims && !f.preemption_records)
    out.push_back("preemption victims (not in the capture's observed decisions)");
  if (f.victims_without_preemptor > 0) {
    out.push_back(std::to_string(f.victims_without_preemptor) +
                  " preemption victim(s) whose preemptor the capture does not name");
  }
  return out;
}

}  // namespace

DiffResult Diff(const std::vector<trace::Record>& reference,
                const std::vector<trace::Record>& candidate, const DiffOptions& options) {
  std::map<std::string, History> a = Histories(reference);
  std::map<std::string, History> b = Histories(candidate);
  std::optional<CaptureFields> capture;
  if (IsCapture(reference) || IsCapture(candidate)) {
    capture = FieldsOf(candidate, FieldsOf(reference, {}));
    for (auto* side : {&a, &b}) {
      for (auto& [pod, h] : *side) FoldRepeats(&h, *capture);
    }
  }
  std::set<std::string> pods;
  for (const auto& [pod, h] : a) pods.insert(pod);
  for (const auto& [pod, h] : b) pods.insert(pod);
  DiffResult result;
  const History empty;
  for (const std::string& pod : pods) {
    auto ia = a.find(pod);
    auto ib = b.find(pod);
    PodDiff d(pod, ia == a.end() ? empty : ia->second, ib == b.end() ? empty : ib->second, options,
              capture ? &*capture : nullptr);
    for (Divergence& x : d.Run()) result.divergences.push_back(std::move(x));
  }
  result.pods_compared = pods.size();
  if (capture) result.not_compared = NotCompared(*capture);
  std::stable_sort(result.divergences.begin(), result.divergences.end(),
                   [](const Divergence& x, const Divergence& y) {
                     if (x.t_ns != y.t_ns) return x.t_ns < y.t_ns;
                     if (x.cls != y.cls) return x.cls < y.cls;
                     return x.pod < y.pod;
                   });
  return result;
}

std::string Describe(const Divergence& d, const SideNames& names) {
  std::string s = "pod " + d.pod + " at " + At(d.t_ns);
  if (d.attempt > 0) s += " (attempt " + std::to_string(d.attempt) + ")";
  s += ": " + d.what + " [" + std::string(ClassName(d.cls)) + "]: " + names.a + " " + d.reference +
       "; " + names.b + " " + d.candidate;
  if (!d.plugins.empty()) {
    s += "; plugins ";
    for (size_t i = 0; i < d.plugins.size(); ++i) s += (i ? "," : "") + d.plugins[i];
  }
  return s;
}

}  // namespace schedcheck::diff
