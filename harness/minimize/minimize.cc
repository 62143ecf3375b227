#include "harness/minimize/minimize.h"

#include <algorithm>
#include <set>
#include <string>

#include "harness/minimize/ddmin.h"

namespace schedcheck::minimize {
namespace {

// The first events pass of a round stops at this many chunks: it cuts long irrelevant stretches
// cheaply (the traces replayed shrink fast) before the node and object passes.
constexpr size_t kCoarseChunks = 16;

std::vector<size_t> Iota(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// The state of one minimization: what is kept so far, and the question asked of a reduction.
class Minimizer {
 public:
  Minimizer(const TraceUnits& units, const DiffOracle& oracle, const diff::Divergence& target,
            Budget& budget, MinimizeResult& out)
      : units_(units), oracle_(oracle), target_(target), budget_(budget), out_(out) {}

  std::vector<size_t> kept;
  std::set<FieldUnit> removed;

  // Whether keeping `events` without `fields` still diverges the same way; remembers the diff.
  bool Diverges(const std::vector<size_t>& events, const std::set<FieldUnit>& fields) {
    if (events.empty()) return false;
    if (!units_.Valid(events)) return ++out_.stats.invalid_skipped, false;
    if (!budget_.Take()) return false;
    ++out_.stats.replays;
    auto result = oracle_(units_.Build(events, fields));
    if (!result.ok()) return ++out_.stats.failed_replays, false;
    if (!SameDivergence(result->diff, target_)) return false;
    out_.diff = std::move(result->diff);
    bindings_ = std::move(result->reference_bindings);
    return true;
  }

  // The bindings of the last trace that diverged the same way: the one kept.
  std::map<std::string, std::string> bindings_;

  bool NodesPass() {
    std::vector<std::string> nodes;
    for (const std::string& object : units_.Objects(kept)) {
      if (object.rfind("Node/", 0) == 0) nodes.push_back(object);
    }
    auto events_of = [&](const std::vector<size_t>& subset) {
      std::set<std::string> gone(nodes.begin(), nodes.end());
      for (size_t j : subset) gone.erase(nodes[j]);
      std::set<std::string> pods_gone;
      for (const auto& [pod, node] : bindings_) {
        if (gone.count("Node/" + node)) pods_gone.insert("Pod/" + pod);
      }
      for (size_t i : kept) {  // and the pods the trace itself binds there (spec.nodeName)
        const trace::ApiEvent& e = units_.event(i).api();
        if (e.has_pod() && gone.count("Node/" + e.pod().spec().node_name()))
          pods_gone.insert(units_.object_of(i));
      }
      std::vector<size_t> events;
      for (size_t i : kept) {
        if (!gone.count(units_.object_of(i)) && !pods_gone.count(units_.object_of(i)))
          events.push_back(i);
      }
      return events;
    };
    if (nodes.size() < 2) return false;
    DdminResult r = Ddmin(
        Iota(nodes.size()),
        [&](const std::vector<size_t>& s) { return Diverges(events_of(s), removed); }, budget_);
    return Adopt(events_of(r.kept));
  }

  bool EventsPass(size_t max_chunks) {
    DdminResult r = Ddmin(
        kept, [&](const std::vector<size_t>& s) { return Diverges(s, removed); }, budget_,
        max_chunks);
    return Adopt(r.kept);
  }

  bool ObjectsPass() {
    const std::vector<std::string> objects = units_.Objects(kept);
    auto events_of = [&](const std::vector<size_t>& subset) {
      std::set<std::string> chosen;
      for (size_t j : subset) chosen.insert(objects[j]);
      std::vector<size_t> events;
      for (size_t i : kept) {
        if (chosen.count(units_.object_of(i))) events.push_back(i);
      }
      return events;
    };
    DdminResult r = Ddmin(
        Iota(objects.size()),
        [&](const std::vector<size_t>& s) { return Diverges(events_of(s), removed); }, budget_);
    return Adopt(events_of(r.kept));
  }

  bool FieldsPass() {
    const std::vector<FieldUnit> fields = units_.Fields(kept, removed);
    if (fields.empty()) return false;
    auto removing_all_but = [&](const std::vector<size_t>& subset) {
      std::set<FieldUnit> more = removed;
      std::vector<bool> keep(fields.size(), false);
      for (size_t j : subset) keep[j] = true;
      for (size_t j = 0; j < fields.size(); ++j) {
        if (!keep[j]) more.insert(fields[j]);
      }
      return more;
    };
    // ddmin never asks about the empty subset; for fields it is a real candidate (none matters).
    std::vector<size_t> kept_fields;
    if (!Diverges(kept, removing_all_but({}))) {
      DdminResult r = Ddmin(
          Iota(fields.size()),
          [&](const std::vector<size_t>& s) { return Diverges(kept, removing_all_but(s)); },
          budget_);
      kept_fields = r.kept;
    }
    if (kept_fields.size() == fields.size()) return false;
    removed = removing_all_but(kept_fields);
    return true;
  }

 private:
  bool Adopt(std::vector<size_t> events) {
    if (events.size() == kept.size()) return false;
    kept = std::move(events);
    return true;
  }

  const TraceUnits& units_;
  const DiffOracle& oracle_;
  const diff::Divergence& target_;
  Budget& budget_;
  MinimizeResult& out_;
};

}  // namespace

Verdict VerdictOf(const std::vector<trace::Record>& reference_log, diff::DiffResult diff) {
  Verdict v{std::move(diff), {}};
  for (const trace::Record& r : reference_log) {
    if (r.has_binding()) v.reference_bindings[r.binding().pod()] = r.binding().node();
  }
  return v;
}

bool SameDivergence(const diff::DiffResult& result, const diff::Divergence& target) {
  if (result.divergences.empty()) return false;
  const diff::Divergence& first = result.divergences.front();
  return first.cls == target.cls && first.pod == target.pod;
}

Result<MinimizeResult> Minimize(const std::vector<trace::Record>& input, const DiffOracle& oracle,
                                const MinimizeOptions& options) {
  MinimizeResult out;
  const TraceUnits units(input);
  const std::vector<size_t> all = Iota(units.event_count());
  out.stats.events_before = out.stats.events_after = all.size();
  out.stats.objects_before = out.stats.objects_after = units.Objects(all).size();
  out.stats.fields_before = out.stats.fields_after = units.Fields(all, {}).size();
  auto first = oracle(units.Build(all, {}));
  out.stats.replays = 1;
  if (!first.ok()) return first.error();
  if (first->diff.divergences.empty()) return out;
  out.diverges = true;
  out.target = first->diff.divergences.front();
  out.diff = std::move(first->diff);

  Budget budget(options.max_replays);
  Minimizer m(units, oracle, out.target, budget, out);
  m.kept = all;
  m.bindings_ = std::move(first->reference_bindings);
  bool changed = true;
  while (changed && out.stats.rounds < options.max_rounds && !budget.exhausted()) {
    ++out.stats.rounds;
    changed = m.EventsPass(kCoarseChunks);
    changed = m.NodesPass() || changed;
    changed = m.ObjectsPass() || changed;
    changed = m.EventsPass(0) || changed;
    if (options.reduce_fields) changed = m.FieldsPass() || changed;
  }
  out.records = units.Build(m.kept, m.removed);
  const std::vector<std::string> remaining = units.Objects(m.kept);
  for (const FieldUnit& f : m.removed) {
    if (std::find(remaining.begin(), remaining.end(), f.object) != remaining.end())
      out.removed_fields.push_back(f);
  }
  out.stats.events_after = m.kept.size();
  out.stats.objects_after = units.Objects(m.kept).size();
  out.stats.fields_after = units.Fields(m.kept, m.removed).size();
  out.stats.budget_exhausted = budget.exhausted();
  return out;
}

}  // namespace schedcheck::minimize
