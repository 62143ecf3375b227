// helper/shape_score.go: a piecewise-linear score of utilization, shared by NodeResourcesFit's
// RequestedToCapacityRatio strategy and (v1.37) VolumeBinding's capacity score.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_

#include <cstdint>
#include <functional>
#include <vector>

namespace schedcheck::reference {

// helper.FunctionShapePoint: a utilization (0..100) and its score (already scaled to 0..100).
struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};

// helper.BuildBrokenLinearFunction: linear between the points, shape[0].score before the first,
// shape[n-1].score after the last. REQUIRES: `shape` non-empty, utilizations increasing.
std::function<int64_t(int64_t)> BuildBrokenLinearFunction(std::vector<FunctionShapePoint> shape);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_HELPER_SHAPE_SCORE_H_
