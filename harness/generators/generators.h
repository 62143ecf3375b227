// RapidCheck generators of the property suite (properties/) and `schedcheck campaign`: nodes, pods,
// small clusters and timed event sequences (trace records). Vocabularies are deliberately tiny (two
// zones, a handful of label values, tight resources, one or two host ports) so that conflicts
// between pods, taints, affinities and spread constraints are common rather than rare.
//
// Every Gen here shrinks (built with rc::gen::exec), so a failing case is reduced to a small
// cluster / trace before it is reported. Outside a property, sample one with a seeded rc::Random
// (sample.h).
#ifndef SCHEDCHECK_HARNESS_GENERATORS_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_GENERATORS_H_

#include <string>
#include <vector>

#include "rapidcheck.h"
#include "reference/k8s/k8s.pb.h"
#include "traces/trace.pb.h"

namespace schedcheck::generators {

// Label keys and values the generators use (and the oracles understand).
inline constexpr char kZoneKey[] = "topology.kubernetes.io/zone";
inline constexpr char kHostnameKey[] = "kubernetes.io/hostname";
inline constexpr char kDiskKey[] = "disk";
inline constexpr char kAppKey[] = "app";
inline constexpr char kGateName[] = "example.com/gate";

// A node named `name` with resources, labels (zone, hostname, disk), taints, images and
// occasionally spec.unschedulable.
k8s::Node GenNodeObject(const std::string& name);
// A pending pod named `name` (namespace default or other) with requests (init containers,
// overhead), host ports, node selector / affinity, pod (anti-)affinity, tolerations, spread
// constraints and a priority. `allow_gates`: may carry a scheduling gate.
k8s::Pod GenPodObject(const std::string& name, bool allow_gates);

rc::Gen<k8s::Node> NodeGen(const std::string& name);
rc::Gen<k8s::Pod> PodGen(const std::string& name, bool allow_gates = false);

// A cluster for one scheduling decision: 1..5 nodes, 0..8 pods already bound (placed with a
// round-robin nodeName; they may overcommit, which the scheduler must tolerate), and the pod to
// schedule (never gated).
struct ClusterCase {
  std::vector<k8s::Node> nodes;
  std::vector<k8s::Pod> bound;
  k8s::Pod pod;
};
rc::Gen<ClusterCase> ClusterCaseGen();

// A timed event sequence: nodes added at t = 0, then pod adds, pod updates (label change or gate
// removal), pod deletes, node adds, node updates (taint / label / unschedulable changes; never
// allocatable) and node deletes (a deleted name is never re-added), at non-decreasing times
// within a few minutes. Every record is an API event; the first is at time 0.
struct Scenario {
  std::vector<trace::Record> records;
};
rc::Gen<Scenario> ScenarioGen();

// The nodes of a cluster case as a vector of names (convenience).
std::vector<std::string> NodeNames(const std::vector<k8s::Node>& nodes);

// Counterexample printing for RapidCheck (found by ADL): the objects as Kubernetes JSON, one per
// line, and for scenarios one line per event.
void showValue(const ClusterCase& c, std::ostream& os);
void showValue(const Scenario& s, std::ostream& os);

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_GENERATORS_H_
