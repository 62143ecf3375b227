#include "harness/minimize/minimize.h"

#include <algorithm>
#include <set>
#include <string>

#include "harness/minimize/ddmin.h"

namespace schedcheck::minimize {
namespace {

std::vector<size_t> Iota(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// The state of one minimization: what is kept so far, and the question asked of a reduction.
class Minimizer {
 public:
  Minimizer(const TraceUnits& units, const DiffOracle& oracle, const diff::Divergence& target, Budget& budget,
            MinimizeResult& out)
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
    if (!SameDivergence(*result, target_)) return false;
    out_.diff = std::move(*result);
    return true;
  }

  bool EventsPass() {
    DdminResult r = Ddmin(kept, [&](const std::vector<size_t>& s) { return Diverges(s, removed); }, budget_);
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
        Iota(objects.size()), [&](const std::vector<size_t>& s) { return Diverges(events_of(s), removed); }, budget_);
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
          Iota(fields.size()), [&](const std::vector<size_t>& s) { return Diverges(kept, removing_all_but(s)); },
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
  if (first->divergences.empty()) return out;
  out.diverges = true;
  out.target = first->divergences.front();
  out.diff = std::move(*first);

  Budget budget(options.max_replays);
  Minimizer m(units, oracle, out.target, budget, out);
  m.kept = all;
  bool changed = true;
  while (changed && out.stats.rounds < options.max_rounds && !budget.exhausted()) {
    ++out.stats.rounds;
    changed = m.EventsPass();
    changed = m.ObjectsPass() || changed;
    if (options.reduce_fields) changed = m.FieldsPass() || changed;
  }
  out.records = units.Build(m.kept, m.removed);
  out.removed_fields.assign(m.removed.begin(), m.removed.end());
  out.stats.events_after = m.kept.size();
  out.stats.objects_after = units.Objects(m.kept).size();
  out.stats.fields_after = units.Fields(m.kept, m.removed).size();
  out.stats.budget_exhausted = budget.exhausted();
  return out;
}

}  // namespace schedcheck::minimize
