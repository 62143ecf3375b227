// The units a trace is minimized over (minimize.h): its API events, its objects (a node, a
// pod, ... with all of its events) and the fields of its objects that decide scheduling (labels,
// node selectors, taints, tolerations, resource requests, affinity, topology spread constraints).
// A reduced trace keeps a subset of the input's events, in their order and with their times, and
// removes some fields from every event of their object alike, so an object reads the same in each
// of its events as far as the removed field goes.
//
// Validity: a reduction may not leave an event on an object that does not exist (a MODIFIED or
// DELETED without the ADDED before it) or add an object that exists, unless the input did so at
// that very event (captures may begin mid-life). Such traces are rejected without a replay: both
// the reference and a real scheduler accept them, so they would find divergences of their own.
#ifndef SCHEDCHECK_HARNESS_MINIMIZE_TRACE_UNITS_H_
#define SCHEDCHECK_HARNESS_MINIMIZE_TRACE_UNITS_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::minimize {

// "Kind/ns/name" ("Pod/default/p": an empty namespace reads "default"), or "Kind/name" for
// cluster-scoped kinds ("Node/n1", "Namespace/a", "PriorityClass/high").
std::string ObjectKey(const trace::ApiEvent& event);

// One field of one object that a reduction may remove.
struct FieldUnit {
  std::string object;  // ObjectKey
  std::string kind;    // "label", "nodeSelector", "taint", "toleration", "request", "nodeAffinity",
                       // "podAffinity", "podAntiAffinity", "topologySpread"
  std::string name;    // label or selector key; taint "key:effect"; toleration
                       // "key operator value effect"; request "container/resource"; spread
                       // constraint "topologyKey whenUnsatisfiable"; empty for the affinities
  auto operator<=>(const FieldUnit&) const = default;
};

// "taint node-1 key:NoSchedule".
std::string Describe(const FieldUnit& f);

// The input of a minimization: its API events (decision records are dropped), each with its
// validity flag computed once.
class TraceUnits {
 public:
  explicit TraceUnits(const std::vector<trace::Record>& records);

  size_t event_count() const { return events_.size(); }
  const trace::Record& event(size_t i) const { return events_[i]; }
  const std::string& object_of(size_t i) const { return objects_[i]; }

  // Whether keeping exactly these events (ascending indices) gives a valid trace (header comment).
  bool Valid(const std::vector<size_t>& kept) const;
  // The distinct objects of these events, in order of first appearance.
  std::vector<std::string> Objects(const std::vector<size_t>& kept) const;
  // The removable fields present in these events with `removed` already gone, in order of first
  // appearance.
  std::vector<FieldUnit> Fields(const std::vector<size_t>& kept,
                                const std::set<FieldUnit>& removed) const;
  // The reduced trace: the kept events, each with the removed fields of its object taken out.
  std::vector<trace::Record> Build(const std::vector<size_t>& kept,
                                   const std::set<FieldUnit>& removed) const;

 private:
  std::vector<trace::Record> events_;
  std::vector<std::string> objects_;   // ObjectKey of each event
  std::vector<bool> input_violation_;  // the event breaks an object's lifecycle in the input
};

}  // namespace schedcheck::minimize

#endif  // SCHEDCHECK_HARNESS_MINIMIZE_TRACE_UNITS_H_
