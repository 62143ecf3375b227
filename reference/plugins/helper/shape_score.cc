#include "reference/plugins/helper/shape_score.h"

#include <string_view>
#include <utility>

namespace schedcheck::reference {

std::function<int64_t(int64_t)> BuildBrokenLinearFunction(std::vector<FunctionShapePoint> shape) {
  return [shape = std::move(shape)](int64_t p) -> int64_t {
    for (size_t i = 0; i < shape.size(); ++i) {
      if (p <= shape[i].utilization) {
        if (i == 0) return shape[0].score;
        return shape[i - 1].score + (shape[i].score - shape[i - 1].score) *
                                        (p - shape[i - 1].utilization) /
                                        (shape[i].utilization - shape[i - 1].utilization);
      }
    }
    return shape[shape.size() - 1].score;
  };
}

Result<std::vector<FunctionShapePoint>> ParseFunctionShape(const nlohmann::json& points,
                                                           const std::string& path,
                                                           const Features& features) {
  if (!points.is_array()) return Error{path + ": expected a list"};
  const std::string_view unsorted = features.reworded_messages
                                        ? "values must be sorted in increasing order"
                                        : "utilization values must be sorted in increasing order";
  std::vector<FunctionShapePoint> shape;
  for (size_t i = 0; i < points.size(); ++i) {
    const std::string field = path + "[" + std::to_string(i) + "]";
    const nlohmann::json& p = points[i];
    if (!p.is_object()) return Error{field + ": expected an object"};
    FunctionShapePoint point;
    for (const auto& [key, v] : p.items()) {
      if (key != "utilization" && key != "score")
        return Error{field + "." + key + ": unknown field"};
      if (!v.is_number_integer()) {
        return Error{field + "." + key + ": expected an integer, got " + v.dump()};
      }
      (key == "utilization" ? point.utilization : point.score) = v.get<int64_t>();
    }
    if (i > 0 && shape.back().utilization >= point.utilization) {
      return Error{field + ".utilization: Invalid value: " + std::to_string(point.utilization) +
                   ": " + std::string(unsorted)};
    }
    if (point.utilization < 0 || point.utilization > 100) {
      return Error{field + ".utilization: Invalid value: " + std::to_string(point.utilization) +
                   ": not in valid range [0, 100]"};
    }
    if (point.score < 0 || point.score > 10) {
      return Error{field + ".score: Invalid value: " + std::to_string(point.score) +
                   ": not in valid range [0, 10]"};
    }
    shape.push_back(point);
  }
  return shape;
}

}  // namespace schedcheck::reference
