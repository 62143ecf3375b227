// The engine a run uses, chosen once per run (`--engine plain|fast`) and recorded in the
// decision-log header. Plain: the rules as upstream's functions of the same names
// (reference/plugins, reference/scheduler). Fast: the accelerator (reference/accel), held equal
// to the plain rules by properties/engine_equivalence_test.
#ifndef SCHEDCHECK_REFERENCE_ENGINE_ENGINE_H_
#define SCHEDCHECK_REFERENCE_ENGINE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "reference/framework/registry.h"
#include "reference/queue/move_walk.h"
#include "reference/scheduler/schedule_one.h"

namespace schedcheck::reference {

enum class Engine { kPlain, kFast };

std::string_view EngineName(Engine engine);  // "plain" or "fast"
std::optional<Engine> ParseEngine(std::string_view name);

// The plugin factories of an engine (same names, same results).
const Registry& PluginRegistryFor(Engine engine);
// A PodScheduler of an engine.
std::unique_ptr<PodScheduler> MakePodScheduler(Engine engine, uint64_t seed,
                                               int32_t percentage_of_nodes_to_score);

// The walk a v1.37 queue's move makes over its unschedulable pool (QueueSetupV1_37::move_walk):
// null (the queue's plain walk) for plain, the in-place walk of reference/accel/queue for fast.
std::shared_ptr<const MoveWalk> MoveWalkFor(Engine engine);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ENGINE_ENGINE_H_
