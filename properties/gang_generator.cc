#include "properties/gang_generator.h"

namespace schedcheck::properties {

rc::Gen<GangScenario> GenGangScenario() {
  return rc::gen::exec([] {
    GangScenario s;
    const int nodes = *rc::gen::inRange(1, 4);
    for (int i = 0; i < nodes; ++i) s.node_cpus.push_back(*rc::gen::inRange(1, 5));
    const int gangs = *rc::gen::inRange(1, 4);
    for (int g = 0; g < gangs; ++g) {
      Gang gang;
      gang.name = "pg" + std::to_string(g);
      gang.min_count = *rc::gen::inRange(1, 5);
      // One fewer than minCount (never schedulable), exactly minCount, or one more.
      const int members = std::max(1, gang.min_count + *rc::gen::inRange(-1, 2));
      for (int m = 0; m < members; ++m) {
        // Mostly at once; sometimes a member arrives late (within or after the Permit timeout).
        const int arrival =
            *rc::gen::weightedOneOf<int>({{3, rc::gen::just(0)}, {1, rc::gen::inRange(1, 400)}});
        gang.members.push_back({gang.name + "-m" + std::to_string(m), arrival});
      }
      s.gangs.push_back(std::move(gang));
    }
    return s;
  });
}

}  // namespace schedcheck::properties
