// Traces for PodTopologySpread. DefaultSpreadTraceGen: its default constraints: nodes with hostname
// and (mostly) zone labels and unequal sizes, Services, ReplicaSets, StatefulSets and
// ReplicationControllers selecting some pods, pods owned by those controllers (or by absent ones,
// or by a group/version DefaultSelector ignores), and selector objects added, changed and deleted
// while pods arrive. Used by the kube differential test (the real scheduler's informers get the
// same objects).
#ifndef SCHEDCHECK_HARNESS_GENERATORS_SPREAD_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_SPREAD_GENERATORS_H_

#include <vector>

#include "rapidcheck.h"
#include "traces/trace.pb.h"

namespace schedcheck::generators {

// 2–6 nodes and 1–4 selector objects at t = 0, then 3–24 pods and selector-object changes at
// non-decreasing whole seconds.
rc::Gen<std::vector<trace::Record>> DefaultSpreadTraceGen();

// A rolling update under spread constraints with matchLabelKeys [version]: 3–6 nodes over two or
// three zones, then 4–20 pods of app web, each of version v1 or v2 (v2 mostly later), spreading
// by zone or hostname (DoNotSchedule or ScheduleAnyway), and now and then a v1 pod deleted. The
// matchLabelKeys make each version spread on its own; without them (the gate off) they count
// each other.
rc::Gen<std::vector<trace::Record>> MatchLabelKeysTraceGen();

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_SPREAD_GENERATORS_H_
