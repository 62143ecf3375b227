// helper/shape_score.go: a piecewise-linear score of utilization, shared by NodeResourcesFit's
// RequestedToCapacityRatio strategy and (v1.37) VolumeBinding's capacity score.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "reference/base/features.h"
#include "reference/base/result.h"

namespace schedcheck::reference {

// helper.FunctionShapePoint: a utilization (0..100) and its score (already scaled to 0..100).
struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};

// helper.BuildBrokenLinearFunction: linear between the points, shape[0].score before the first,
// shape[n-1].score after the last. REQUIRES: `shape` non-empty, utilizations increasing.
std::function<int64_t(int64_t)> BuildBrokenLinearFunction(std::vector<FunctionShapePoint> shape);

// validateFunctionShape over a configuration's list of points at `path` (NodeResourcesFit's
// RequestedToCapacityRatio shape, VolumeBinding's shape): objects with integer `utilization`
// (increasing, in [0, 100]) and `score` (in [0, 10], returned unscaled). The first error only,
// in upstream's order of checks per point; v1.27 words the order error "utilization values must
// be sorted in increasing order", reworded_messages (v1.37) "values must be sorted in increasing
// order". An empty
// list is for the caller to judge (upstream's Required value, or a default).
Result<std::vector<FunctionShapePoint>> ParseFunctionShape(const nlohmann::json& points,
                                                           const std::string& path,
                                                           const Features& features);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_
