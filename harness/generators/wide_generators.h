// Wider generators for the differential test against the real kube-scheduler
// (properties/kube_differential_test.cc) and `schedcheck campaign`: timed traces with every kind
// of API event and with values the API server accepts but upstream's parsers treat specially. The
// property suite's other generators (generators.h) stay as they are: ~40 properties with their
// own oracles rely on their narrow vocabularies.
//
// What these traces hold, and why each is something a v1.27 API server accepts:
// - Namespaces with labels (always kubernetes.io/metadata.name, as the API server sets it), and
//   namespace label updates; pod affinity terms with namespaces and namespaceSelectors.
// - PriorityClasses (one may be the global default; one has preemptionPolicy Never) created before
//   the pods naming them, as Priority admission requires; pods carry what admission wrote
//   (spec.priority and spec.preemptionPolicy from the class, the default class's name), or leave
//   both unset where admission would give them what the replays' own admission gives (see
//   WidePod). Classes are deleted later sometimes (pods keep their priority).
// - PodDisruptionBudgets (policy/v1: minAvailable or maxUnavailable, selectors nil / empty /
//   matching, status.disruptionsAllowed and disruptedPods) and their updates and deletes.
// - Quantities in every accepted spelling: "0", "1m", ".25", "1.5", "2e0", "1e-1", "0.1Gi" vs
//   "100Mi", "1e8", "+200m", sub-milli cpu, very large allocatable, extended resources (integers,
//   requests = limits), requests defaulted from limits. A pod's containers plus overhead hold at
//   most one quantity with a fractional base unit per resource: docs/DEVIATIONS.md "Quantities".
// - Node affinity values that labels.NewRequirement rejects (the API server does not validate
//   node selector requirement values): In/NotIn values with spaces, longer than 63 characters or
//   starting with '-', Gt/Lt values that are not integers or not label values ("-1", "+5");
//   empty terms; duplicate keys in one term; empty label values; metadata.name matchFields.
//   Pod affinity, spread constraint and PDB selectors are validated on create (values must be
//   label values), so those only get valid values: "", duplicate keys, nil and empty selectors.
// - Host-network pods with container ports (the API makes them host ports).
// - Every kind of update: pending pods' labels, annotations, images, added tolerations, removed
//   scheduling gates, nodeSelector additions while gated, status-only writes; assigned pods'
//   labels, start times, terminating (deletionTimestamp) and terminal phases; deletes of pending
//   and bound pods; pods created already bound (nodeName set); nodes' labels, taints,
//   allocatable, conditions, unschedulable, images; node deletes and re-adds of a name.
//
// A generated trace is what clients wrote; RealizeTrace (below) makes each later write of a pod
// carry what the API server would hold by then (the binding, or no write at all after a
// preemption deletion). RealizeTrace signals a trace it cannot realize with RC_FAIL (an
// exception outside a property; sample.h catches it).
#ifndef SCHEDCHECK_HARNESS_GENERATORS_WIDE_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_WIDE_GENERATORS_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "rapidcheck.h"
#include "traces/trace.pb.h"

namespace schedcheck::generators {

// A timed trace of API events of every kind (pods, nodes, namespaces, PriorityClasses, PDBs; the
// storage kinds in StorageScenarioGen's traces, storage_generators.h).
struct WideScenario {
  std::vector<trace::Record> records;
};

// Namespaces, PriorityClasses and 1–4 nodes at t = 0, then 1–20 events of every kind at
// non-decreasing times within a few minutes.
// `newer_fields`: the fields newer releases read (compat 1.37): pods also get sidecars, pod-level
// requests, restart-all-containers rules and bind mount options (features NodeDeclaredFeatures
// infers), bound ones resize status, and nodes declared features.
rc::Gen<WideScenario> WideScenarioGen(bool newer_fields = false);

// For OpportunisticBatching (compat 1.37): newer-field traces whose pods often come in bursts of
// replicas (copies of one pod, 0 to 501 ms apart, a few changed in one field), between events of
// every kind, on 2–6 nodes.
rc::Gen<WideScenario> BatchScenarioGen();

// Preemption-heavy: 1–3 small nodes full of bound pods of mixed priorities (start times set or
// unset, some terminating), PDBs over them, then higher-priority pods (some with preemptionPolicy
// Never), deletes and PDB updates.
rc::Gen<WideScenario> PreemptionScenarioGen();

// Makes a generated trace consistent with what the API server would hold, following the
// decisions the reference makes for it with `seed` (the binding and tie-break seed): a write of a
// pod after the pod was bound carries spec.nodeName (the API server keeps it; a client cannot
// unset it), a write of a pod after a scheduler deleted it (preemption) is dropped, and a write
// of a still-pending pod after the scheduler nominated it is dropped (the client's object would
// carry a status.nominatedNodeName only the scheduler knows). Repeats until the trace is
// consistent with its own replay (the reference at `compat`). RC_FAILs if the reference cannot
// replay it.
std::vector<trace::Record> RealizeTrace(std::vector<trace::Record> records, uint64_t seed,
                                        const std::string& compat = "1.27");
// The same following the reference's replay with `options` (a configuration, feature gates).
std::vector<trace::Record> RealizeTraceAs(std::vector<trace::Record> records,
                                          const replay::ReplayOptions& options);

// One line per event, for RapidCheck's counterexample output.
void showValue(const WideScenario& s, std::ostream& os);

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_WIDE_GENERATORS_H_
