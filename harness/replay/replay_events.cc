// Replayer: trace events → the Scheduler's informer handlers (reference/scheduler/
// eventhandlers.h), with what the API server does to them on the way (Priority admission,
// resourceVersion stamps, StorageClass defaults), and the scheduler's attempts as decision records.
#include <algorithm>
#include <charconv>

#include "harness/replay/replayer_internal.h"
#include "reference/dra/allocator.h"
#include "reference/dra/counters.h"

namespace schedcheck::replay {
namespace {

std::string PodKey(const k8s::Pod& pod) {
  return (pod.metadata().namespace_().empty() ? "default" : pod.metadata().namespace_()) + "/" +
         pod.metadata().name();
}

// The global default class Priority admission picks: the lowest value among classes marked
// globalDefault (several exist only after a race); equal values in name order.
const k8s::PriorityClass* DefaultPriorityClass(
    const std::map<std::string, k8s::PriorityClass>& classes) {
  const k8s::PriorityClass* out = nullptr;
  for (const auto& [name, pc] : classes) {
    if (pc.global_default() && (out == nullptr || pc.value() < out->value())) out = &pc;
  }
  return out;
}

reference::WatchEvent ToWatchEvent(trace::EventType type) {
  return type == trace::ADDED     ? reference::WatchEvent::kAdded
         : type == trace::DELETED ? reference::WatchEvent::kDeleted
                                  : reference::WatchEvent::kModified;
}

}  // namespace

// The Priority admission plugin (plugin/pkg/admission/priority, v1.27), for traces that hold pods
// as clients wrote them: on create, spec.priority and spec.preemptionPolicy come from the named
// class, or from the global default class when none is named (else 0 and PreemptLowerPriority);
// what the pod already carries stays (the API server would refuse a different value). On update
// the API server keeps what admission set at create, so a write without them keeps the stored
// pod's (a class deleted or added meanwhile changes nothing). A class that does not exist leaves
// the pod without a priority (the API server would refuse the pod).
void Replayer::AdmitPriority(trace::EventType type, k8s::Pod* pod) const {
  k8s::PodSpec* spec = pod->mutable_spec();
  if (type == trace::DELETED) return;
  if (reference::PodPtr stored_pod = scheduler_->GetPod(PodKey(*pod))) {
    const k8s::PodSpec& stored = stored_pod->obj.spec();
    if (!spec->has_priority() && stored.has_priority()) spec->set_priority(stored.priority());
    if (!spec->has_preemption_policy() && stored.has_preemption_policy()) {
      spec->set_preemption_policy(stored.preemption_policy());
    }
    return;
  }
  const k8s::PriorityClass* pc = nullptr;
  const auto& classes = scheduler_->objects().priority_classes;
  if (spec->priority_class_name().empty()) {
    pc = DefaultPriorityClass(classes);
  } else if (auto it = classes.find(spec->priority_class_name()); it != classes.end()) {
    pc = &it->second;
  } else {
    return;
  }
  if (!spec->has_priority()) spec->set_priority(pc != nullptr ? pc->value() : 0);
  if (!spec->has_preemption_policy()) {
    // A class's preemptionPolicy defaults to PreemptLowerPriority (scheduling/v1 defaults).
    spec->set_preemption_policy(pc != nullptr && pc->has_preemption_policy()
                                    ? pc->preemption_policy()
                                    : "PreemptLowerPriority");
  }
}

void Replayer::KeepBoundNode(trace::EventType type, size_t index, k8s::Pod* pod) {
  reference::PodPtr stored = scheduler_->GetPod(PodKey(*pod));
  if (stored == nullptr || stored->node_name().empty() ||
      pod->spec().node_name() == stored->node_name()) {
    return;
  }
  // A deletion names the pod's last state, which is on its node (a capture's importer clears the
  // node of pods the replay places itself): not an attempt to move it.
  if (type != trace::DELETED) {
    if (kept_placements_.first.size() < KeptPlacements::kMaxListed) {
      const std::string& named = pod->spec().node_name();
      kept_placements_.first.push_back(PodKey(*pod) + " at t=" + FormatSeconds(clock_.NowNs()) +
                                       "s (record " + std::to_string(index) +
                                       "): the update names " +
                                       (named.empty() ? std::string("no node") : "node " + named) +
                                       ", bound to " + stored->node_name());
    }
    ++kept_placements_.count;
  }
  pod->mutable_spec()->set_node_name(stored->node_name());
}

Outcome Replayer::Deliver(const trace::ApiEvent& event, size_t index) {
  std::string where = "record " + std::to_string(index);
  const reference::WatchEvent type = ToWatchEvent(event.type());
  switch (event.object_case()) {
    case trace::ApiEvent::kPod: {
      k8s::Pod obj = event.pod();
      KeepBoundNode(event.type(), index, &obj);
      AdmitPriority(event.type(), &obj);
      auto pod = reference::BuildPod(std::move(obj), features_);
      if (!pod.ok())
        return Error{where + ": pod " + event.pod().metadata().name() + ": " + pod.message()};
      scheduler_->OnPod(type, *pod);
      return Outcome::Ok();
    }
    case trace::ApiEvent::kNode: {
      auto node = reference::BuildNode(event.node());
      if (!node.ok())
        return Error{where + ": node " + event.node().metadata().name() + ": " + node.message()};
      scheduler_->OnNode(type, *node);
      return Outcome::Ok();
    }
    case trace::ApiEvent::kNamespace:
      scheduler_->OnNamespace(type, event.namespace_());
      return Outcome::Ok();
    case trace::ApiEvent::kPriorityClass:
      scheduler_->OnPriorityClass(type, event.priority_class());
      return Outcome::Ok();
    case trace::ApiEvent::kPodDisruptionBudget:
      scheduler_->OnPodDisruptionBudget(type, event.pod_disruption_budget());
      return Outcome::Ok();
    case trace::ApiEvent::kService:
      scheduler_->OnService(type, event.service());
      return Outcome::Ok();
    case trace::ApiEvent::kReplicationController:
      scheduler_->OnReplicationController(type, event.replication_controller());
      return Outcome::Ok();
    case trace::ApiEvent::kReplicaSet:
      scheduler_->OnReplicaSet(type, event.replica_set());
      return Outcome::Ok();
    case trace::ApiEvent::kStatefulSet:
      scheduler_->OnStatefulSet(type, event.stateful_set());
      return Outcome::Ok();
    case trace::ApiEvent::kPersistentVolume:
    case trace::ApiEvent::kPersistentVolumeClaim:
    case trace::ApiEvent::kStorageClass:
    case trace::ApiEvent::kCsiNode:
    case trace::ApiEvent::kCsiDriver:
    case trace::ApiEvent::kCsiStorageCapacity:
      DeliverStorage(event);
      return Outcome::Ok();
    // Dynamic Resource Allocation: read by DynamicResources at 1.37 (reference/dra); at 1.27 the
    // objects replay without effect (a pod with claims is refused there).
    case trace::ApiEvent::kResourceClaim:
    case trace::ApiEvent::kResourceClaimTemplate:
    case trace::ApiEvent::kResourceSlice:
    case trace::ApiEvent::kDeviceClass:
    case trace::ApiEvent::kDeviceTaintRule:
      if (!features_.dynamic_resource_allocation) return Outcome::Ok();
      return DeliverDra(event, where);
    // Workloads and PodGroups: pod groups are not modelled. With GenericWorkload off upstream
    // reads neither; with it on a pod naming a group is refused (BuildPod), and the objects
    // alone change nothing the reference models.
    case trace::ApiEvent::kWorkload:
    case trace::ApiEvent::kPodGroup:
      return Outcome::Ok();
    case trace::ApiEvent::OBJECT_NOT_SET:
      break;
  }
  return Error{where + ": field api.object: missing"};
}

Outcome Replayer::DeliverDra(const trace::ApiEvent& event, const std::string& where) {
  const reference::WatchEvent type = ToWatchEvent(event.type());
  const std::string unmodelled =
      " is not modelled by schedcheck (docs/DEVIATIONS.md, row "
      "\"DynamicResources\")";
  // The allocator is modelled at the default gates only; these change what it does (the
  // implementation upstream picks, slices it ignores). DRASchedulerFilterTimeout is a wall-clock
  // limit (no effect in virtual time) and DRAWorkloadResourceClaims matters only for pod groups.
  for (const char* gate : {"DRAConsumableCapacity", "DRADeviceBindingConditions",
                           "DRAFractionalCapacityRange", "DRAPartitionableDevices"}) {
    auto set = options_.feature_gates.find(gate);
    if (set != options_.feature_gates.end() && !set->second) {
      return Error{where + ": a DRA object with --feature-gates " + gate +
                   "=false: DRA allocation with that gate off" + unmodelled};
    }
  }
  // DynamicResources' PreQueueingHint (narrowing a claim event's move to the claim's pods) is
  // not modelled.
  auto pre_hints = options_.feature_gates.find("SchedulerPreQueueingHints");
  if (pre_hints != options_.feature_gates.end() && pre_hints->second) {
    return Error{where +
                 ": a DRA object with --feature-gates SchedulerPreQueueingHints=true: "
                 "DynamicResources' PreQueueingHint" +
                 unmodelled};
  }
  switch (event.object_case()) {
    case trace::ApiEvent::kResourceClaim: {
      k8s::ResourceClaim claim = event.resource_claim();
      const std::string field = reference::dra::UnmodelledClaimField(claim);
      if (!field.empty() && type != reference::WatchEvent::kDeleted) {
        return Error{where + ": ResourceClaim " + claim.metadata().namespace_() + "/" +
                     claim.metadata().name() + ": field " + field + unmodelled};
      }
      StampVersion(claim.mutable_metadata());
      scheduler_->OnResourceClaim(type, std::move(claim));
      return Outcome::Ok();
    }
    case trace::ApiEvent::kResourceSlice: {
      const std::string field = reference::dra::UnmodelledSliceField(event.resource_slice());
      if (!field.empty() && type != reference::WatchEvent::kDeleted) {
        return Error{where + ": ResourceSlice " + event.resource_slice().metadata().name() +
                     ": field " + field + unmodelled};
      }
      // The API server rejects these; the allocator adds and compares them exactly.
      if (std::string bad = reference::dra::InvalidSliceQuantity(event.resource_slice());
          !bad.empty() && type != reference::WatchEvent::kDeleted) {
        return Error{where + ": ResourceSlice " + event.resource_slice().metadata().name() +
                     ": field " + bad};
      }
      scheduler_->OnResourceSlice(type, event.resource_slice());
      return Outcome::Ok();
    }
    case trace::ApiEvent::kDeviceClass:
      if (event.device_class().spec().has_extended_resource_name()) {
        return Error{where + ": DeviceClass " + event.device_class().metadata().name() +
                     ": field spec.extendedResourceName (extended resources backed by devices)" +
                     unmodelled};
      }
      scheduler_->OnDeviceClass(type, event.device_class());
      return Outcome::Ok();
    case trace::ApiEvent::kDeviceTaintRule:
      scheduler_->OnDeviceTaintRule(type, event.device_taint_rule());
      return Outcome::Ok();
    default:  // ResourceClaimTemplates: only the ResourceClaim controller reads them
      return Outcome::Ok();
  }
}

void Replayer::DeliverStorage(const trace::ApiEvent& event) {
  const reference::WatchEvent type = ToWatchEvent(event.type());
  switch (event.object_case()) {
    case trace::ApiEvent::kPersistentVolume: {
      k8s::PersistentVolume pv = event.persistent_volume();
      StampVersion(pv.mutable_metadata());
      scheduler_->OnPersistentVolume(type, std::move(pv));
      break;
    }
    case trace::ApiEvent::kPersistentVolumeClaim: {
      k8s::PersistentVolumeClaim pvc = event.persistent_volume_claim();
      StampVersion(pvc.mutable_metadata());
      scheduler_->OnPersistentVolumeClaim(type, std::move(pvc));
      break;
    }
    case trace::ApiEvent::kStorageClass: {
      k8s::StorageClass sc = event.storage_class();
      // The API server's default (SetDefaults_StorageClass), as the adapters apply it.
      if (!sc.has_volume_binding_mode()) sc.set_volume_binding_mode("Immediate");
      scheduler_->OnStorageClass(type, std::move(sc));
      break;
    }
    case trace::ApiEvent::kCsiNode:
      scheduler_->OnCSINode(type, event.csi_node());
      break;
    case trace::ApiEvent::kCsiDriver:
      scheduler_->OnCSIDriver(type, event.csi_driver());
      break;
    case trace::ApiEvent::kCsiStorageCapacity:
      scheduler_->OnCSIStorageCapacity(type, event.csi_storage_capacity());
      break;
    default:
      break;
  }
}

void Replayer::StampVersion(k8s::ObjectMeta* meta) {
  // As the adapters' API server (adapterkit Objects.stamp): a missing version becomes a decimal
  // integer above every one given so far, from 2^40 up; VolumeBinding's assume cache compares them.
  constexpr uint64_t kStampBase = uint64_t{1} << 40;
  const std::string& given = meta->resource_version();
  if (given.empty()) {
    version_stamp_ = std::max(version_stamp_, kStampBase) + 1;
    meta->set_resource_version(std::to_string(version_stamp_));
    return;
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(given.data(), given.data() + given.size(), n);
  if (ec == std::errc() && end == given.data() + given.size()) {
    version_stamp_ = std::max(version_stamp_, n);
  }
}

void Replayer::RecordAttempt(const reference::QueuedPodInfo& info,
                             const reference::CycleOutcome& outcome) {
  if (!options_.log_attempts) return;
  trace::Record r;
  r.set_time_ns(clock_.NowNs());
  trace::Attempt* a = r.mutable_attempt();
  a->set_pod(info.info->pod->key);
  a->set_attempt(info.attempts);
  if (outcome.status.IsSuccess() || outcome.status.IsWait()) {
    a->set_result(trace::SCHEDULED);
    a->set_node(outcome.result.node);
    a->mutable_ties()->Reserve(static_cast<int>(outcome.result.ties.size()));
    for (const std::string& n : outcome.result.ties) a->add_ties(n);
    for (const reference::TopScore& top : outcome.result.top_scores) {
      trace::NodeScore* score = a->add_scores();
      score->set_node(top.node);
      score->set_total(top.total);
      for (const auto& [plugin, value] : top.plugins) {
        trace::PluginScore* p = score->add_plugins();
        p->set_plugin(plugin);
        p->set_score(value);
      }
    }
  } else {
    a->set_result(outcome.status.code() == reference::Code::kError ? trace::ERROR
                                                                   : trace::UNSCHEDULABLE);
    for (const std::string& p : outcome.unschedulable_plugins) a->add_unschedulable_plugins(p);
    a->set_message(outcome.message);
  }
  if (outcome.nominating.mode == reference::NominatingInfo::Mode::kOverride) {
    a->set_nominated_node(outcome.nominating.nominated_node_name);
  }
  std::vector<std::string> victims;
  for (const reference::PodPtr& v : outcome.victims) victims.push_back(v->key);
  std::sort(victims.begin(), victims.end());
  for (const std::string& v : victims) a->add_victims(v);
  log_.Add(std::move(r));
}

}  // namespace schedcheck::replay
