// Generated gangs for the pod-group properties (gang_properties_test.cc): a few nodes and a few
// PodGroups with a gang policy, each with members arriving over a few minutes. minCount may be
// below, at or above the members that ever exist, and the nodes may hold all of a gang, part of
// it or none, so gangs complete, time out at Permit, stay gated, or compete for the same nodes.
#ifndef SCHEDCHECK_PROPERTIES_GANG_GENERATOR_H_
#define SCHEDCHECK_PROPERTIES_GANG_GENERATOR_H_

#include <string>
#include <vector>

#include "rapidcheck.h"

namespace schedcheck::properties {

struct GangMember {
  std::string name;   // also its UID
  int arrival_s = 0;  // when the pod is created
};

struct Gang {
  std::string name;  // the PodGroup, namespace "ns"
  int min_count = 1;
  std::vector<GangMember> members;  // each requests 1 CPU
};

struct GangScenario {
  std::vector<int> node_cpus;  // node "n<i>" with that many CPUs
  std::vector<Gang> gangs;
};

rc::Gen<GangScenario> GenGangScenario();

}  // namespace schedcheck::properties

#endif  // SCHEDCHECK_PROPERTIES_GANG_GENERATOR_H_
