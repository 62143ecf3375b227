// Test support: runs a plain plugin (reference/plugins/<p>) and its accelerated variant
// (reference/accel/<p>) through the same scheduling cycle and names the first result that
// differs. Compared: PreFilter (status and node narrowing), Filter per node (code, reasons,
// plugin), the batch Filter against the per-node rejections, PreScore, Score per node, the batch
// Score, NormalizeScore, and the Uniform* shortcuts against the per-node scores. For tests only.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_PLUGIN_EQUALITY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_PLUGIN_EQUALITY_H_

#include <string>
#include <vector>

#include "reference/framework/interface.h"

namespace schedcheck::reference {

struct CycleOptions {
  // False: PreFilter / PreScore are not run, so Filter and Score meet an empty cycle state (the
  // fallbacks and errors upstream has for a disabled PreFilter or PreScore).
  bool run_pre_filter = true;
  bool run_pre_score = true;
};

// "" when `plain` and `fast` agree on everything above for `pod` over `nodes` (which may include
// NodeInfos without a node; the batch forms only see the others), else a description of the
// first difference. Both plugins must have been made with the same args and handle.
std::string FirstDifference(Plugin& plain, Plugin& fast, const Pod& pod,
                            const std::vector<const NodeInfo*>& nodes, CycleOptions options = {});

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_PLUGIN_EQUALITY_H_
