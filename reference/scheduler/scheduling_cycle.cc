#include "reference/scheduler/scheduling_cycle.h"

namespace schedcheck::reference {
namespace {

NominatingInfo ClearNomination() { return {NominatingInfo::Mode::kOverride, ""}; }

}  // namespace

PodPtr WithNodeName(const Pod& pod, const std::string& node) {
  auto copy = std::make_shared<Pod>(pod);
  copy->obj.mutable_spec()->set_node_name(node);
  return copy;
}

CycleOutcome RunSchedulingCycle(const Framework& fw, PodScheduler& scheduler, Cache& cache,
                                const Snapshot& snapshot, CycleState& state, const PodPtr& pod,
                                const std::function<void()>& after_schedule_pod,
                                const BatchRequest* batch) {
  CycleOutcome out;
  out.result = scheduler.SchedulePod(fw, state, *pod, snapshot, batch);
  if (after_schedule_pod) after_schedule_pod();
  ScheduleResult& r = out.result;
  switch (r.kind) {
    case ScheduleResult::Kind::kNoNodes:
      out.status = Status(Code::kUnschedulableAndUnresolvable, std::string(kNoNodesAvailableMsg));
      out.message = std::string(kNoNodesAvailableMsg);
      out.nominating = ClearNomination();
      return out;
    case ScheduleResult::Kind::kError:
      out.status = Status::Error(r.error_status.Message());
      out.message = r.error_status.Message();
      out.nominating = ClearNomination();
      return out;
    case ScheduleResult::Kind::kFitError: {
      out.unschedulable_plugins = r.diagnosis.unschedulable_plugins;
      if (fw.HasPostFilterPlugins()) {
        PostFilterResult post;
        Status ps = fw.RunPostFilterPlugins(state, *pod, r.diagnosis.node_to_status, &post);
        r.diagnosis.post_filter_msg = ps.Message();
        r.diagnosis.post_filter_msg_verbatim =
            fw.handle().features.reworded_messages;  // FitError.Error() of v1.37: " %v"
        out.nominating = post.nominating_info;
        out.victims = post.victims;
        out.clear_nomination = post.clear_nomination;
      }
      out.message = scheduler.FitErrorText(r.num_all_nodes, r.diagnosis);
      out.status = Status(Code::kUnschedulable, out.message);
      return out;
    }
    case ScheduleResult::Kind::kScheduled:
      break;
  }
  // Assume: the pod counts against its node from now on, for every later cycle.
  PodPtr assumed = WithNodeName(*pod, r.node);
  if (Outcome ok = cache.AssumePod(assumed); !ok) {
    out.status = Status::Error(ok.message());
    out.message = ok.message();
    out.nominating = ClearNomination();
    return out;
  }
  Status rs = fw.RunReservePluginsReserve(state, *assumed, r.node);
  if (rs.IsSuccess()) {
    rs = fw.RunPermitPlugins(state, *assumed, r.node, &out.waits);
    if (rs.IsSuccess() || rs.IsWait()) {
      out.status = rs;
      out.assumed = assumed;
      return out;
    }
  }
  fw.RunReservePluginsUnreserve(state, *assumed, r.node);
  (void)cache.ForgetPod(*assumed);
  out.status = rs;
  out.message = rs.Message();
  out.nominating = ClearNomination();
  return out;
}

}  // namespace schedcheck::reference
