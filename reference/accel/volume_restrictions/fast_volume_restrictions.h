// VolumeRestrictions for the fast engine: the plain rule (plugins/volume_restrictions) with a
// batch Filter that, for a pod without inline disks (the usual case: claims only), computes the
// verdict once for the whole batch, since Filter then reads only the PreFilter state.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_VOLUME_RESTRICTIONS_FAST_VOLUME_RESTRICTIONS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_VOLUME_RESTRICTIONS_FAST_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/volume_restrictions/volume_restrictions.h"

namespace schedcheck::reference {

class FastVolumeRestrictions final : public VolumeRestrictions, public BatchFilterPlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  using VolumeRestrictions::VolumeRestrictions;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_VOLUME_RESTRICTIONS_FAST_VOLUME_RESTRICTIONS_H_
