#include "reference/engine/engine.h"

#include "reference/accel/fast_pod_scheduler.h"
#include "reference/accel/queue/fast_move_walk.h"
#include "reference/accel/registry.h"
#include "reference/plugins/registry.h"

namespace schedcheck::reference {

std::string_view EngineName(Engine engine) { return engine == Engine::kPlain ? "plain" : "fast"; }

std::optional<Engine> ParseEngine(std::string_view name) {
  if (name == "plain") return Engine::kPlain;
  if (name == "fast") return Engine::kFast;
  return std::nullopt;
}

const Registry& PluginRegistryFor(Engine engine) {
  return engine == Engine::kPlain ? PluginRegistry() : FastPluginRegistry();
}

std::unique_ptr<PodScheduler> MakePodScheduler(Engine engine, uint64_t seed,
                                               int32_t percentage_of_nodes_to_score) {
  if (engine == Engine::kPlain)
    return std::make_unique<PodScheduler>(seed, percentage_of_nodes_to_score);
  return std::make_unique<FastPodScheduler>(seed, percentage_of_nodes_to_score);
}

std::shared_ptr<const MoveWalk> MoveWalkFor(Engine engine) {
  if (engine == Engine::kPlain) return nullptr;
  return std::make_shared<FastMoveWalk>();
}

}  // namespace schedcheck::reference
