#include "reference/plugins/node_resources_fit/resource_allocation.h"

#include <cmath>
#include <utility>

#include "reference/api/resource.h"
#include "reference/framework/interface.h"

namespace schedcheck::reference {
namespace {

// The configured shape scores range over 0..10 (MaxCustomPriorityScore); node scores over 0..100.
constexpr int64_t kMaxCustomPriorityScore = 10;
constexpr int64_t kMaxUtilization = 100;

ResourceScorer WeightedAverage(std::vector<ResourceSpec> resources, int64_t (*per_resource)(int64_t, int64_t)) {
  return [resources = std::move(resources), per_resource](std::span<const int64_t> requested,
                                                          std::span<const int64_t> allocatable) {
    return WeightedAverageScore(resources, requested, allocatable, per_resource);
  };
}

// helper.BuildBrokenLinearFunction: piecewise-linear through the points, flat outside them,
// integer arithmetic.
int64_t BrokenLinear(const std::vector<UtilizationShapePoint>& shape, int64_t p) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      const UtilizationShapePoint& a = shape[i - 1];
      const UtilizationShapePoint& b = shape[i];
      return a.score + (b.score - a.score) * (p - a.utilization) / (b.utilization - a.utilization);
    }
  }
  return shape.back().score;
}

Result<int64_t> IntField(const nlohmann::json& v, const std::string& field) {
  if (!v.is_number_integer()) return Error{field + ": expected an integer, got " + v.dump()};
  return v.get<int64_t>();
}

}  // namespace

ResourceKind ClassifyResource(std::string_view name) {
  if (name == kResourceCpu) return ResourceKind::kCpu;
  if (name == kResourceMemory) return ResourceKind::kMemory;
  if (name == kResourceEphemeralStorage) return ResourceKind::kEphemeralStorage;
  if (IsScalarResourceName(name)) return ResourceKind::kScalar;
  return ResourceKind::kOther;
}

std::vector<ResourceSpec> DefaultResourceSpecs() {
  return {{std::string(kResourceCpu), 1, ResourceKind::kCpu}, {std::string(kResourceMemory), 1, ResourceKind::kMemory}};
}

Result<std::vector<ResourceSpec>> ParseResourceSpecs(const nlohmann::json& value,
                                                     const std::string& field) {
  std::vector<ResourceSpec> specs;
  if (!value.is_null() && !value.is_array()) return Error{field + ": expected a list"};
  for (size_t i = 0; value.is_array() && i < value.size(); ++i) {
    const nlohmann::json& item = value[i];
    std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!item.is_object()) return Error{item_field + ": expected an object"};
    ResourceSpec spec;
    for (const auto& [key, v] : item.items()) {
      if (key == "name") {
        if (!v.is_string()) return Error{item_field + ".name: expected a string"};
        spec.name = v.get<std::string>();
      } else if (key == "weight") {
        Result<int64_t> w = IntField(v, item_field + ".weight");
        if (!w.ok()) return w.error();
        spec.weight = *w;
      } else {
        return Error{item_field + "." + key + ": unknown field"};
      }
    }
    // v1 defaulting: an unset (or explicit 0) weight means 1.
    if (spec.weight == 0) spec.weight = 1;
    spec.kind = ClassifyResource(spec.name);
    specs.push_back(std::move(spec));
  }
  if (specs.empty()) specs = DefaultResourceSpecs();
  return specs;
}

ResourceScorer LeastAllocatedScorer(std::vector<ResourceSpec> resources) {
  return WeightedAverage(std::move(resources), &LeastRequestedScore);
}

ResourceScorer MostAllocatedScorer(std::vector<ResourceSpec> resources) {
  return WeightedAverage(std::move(resources), &MostRequestedScore);
}

ResourceScorer RequestedToCapacityRatioScorer(std::vector<ResourceSpec> resources,
                                              const std::vector<UtilizationShapePoint>& shape) {
  std::vector<UtilizationShapePoint> scaled = shape;
  for (UtilizationShapePoint& p : scaled) p.score *= kMaxNodeScore / kMaxCustomPriorityScore;
  return [resources = std::move(resources), scaled = std::move(scaled)](
             std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
    int64_t node_score = 0, weight_sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      int64_t utilization = requested[i] > allocatable[i]
                                ? kMaxUtilization
                                : requested[i] * kMaxUtilization / allocatable[i];
      int64_t resource_score = BrokenLinear(scaled, utilization);
      // Only resources scoring above zero take part in the weighted average.
      if (resource_score > 0) {
        node_score += resource_score * resources[i].weight;
        weight_sum += resources[i].weight;
      }
    }
    if (weight_sum == 0) return int64_t{0};
    return static_cast<int64_t>(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  };
}

AllocatableRequest CalculateResourceAllocatableRequest(const NodeInfo& node, const Pod& pod,
                                                       std::string_view resource,
                                                       bool use_requested) {
  return CalculateResourceAllocatableRequest(node, pod, resource, ClassifyResource(resource), use_requested);
}

Status ScoreResourceAllocation(const NodeInfo& node, const Pod& pod,
                               const std::vector<ResourceSpec>& resources, bool use_requested,
                               const ResourceScorer& scorer, int64_t* score) {
  *score = 0;
  if (node.node() == nullptr) return Status::Error("node not found");
  if (resources.empty()) return Status::Error("resources not found");
  // Reused buffers: this runs for every node and score plugin in the hot path.
  static thread_local std::vector<int64_t> requested, allocatable;
  requested.resize(resources.size());
  allocatable.resize(resources.size());
  for (size_t i = 0; i < resources.size(); ++i) {
    AllocatableRequest ar =
        CalculateResourceAllocatableRequest(node, pod, resources[i].name, resources[i].kind, use_requested);
    allocatable[i] = ar.allocatable;
    requested[i] = ar.allocatable == 0 ? 0 : ar.requested;
  }
  *score = scorer(requested, allocatable);
  return Status();
}

}  // namespace schedcheck::reference
