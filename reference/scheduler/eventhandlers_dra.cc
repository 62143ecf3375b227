// The Scheduler's informer event handlers for Dynamic Resource Allocation (ResourceClaim,
// ResourceSlice through the ResourceSlice tracker with DeviceTaintRules, DeviceClass) and
// DynamicResources' claim writes (ClaimApi): the store, and the move upstream's handler makes when
// some profile registered the kind (MoveForStorage).
#include "reference/dra/device_taint_rules.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

std::string ClaimKey(const k8s::ResourceClaim& claim) {
  const std::string& ns = claim.metadata().namespace_();
  return (ns.empty() ? "default" : ns) + "/" + claim.metadata().name();
}

}  // namespace

void Scheduler::OnResourceClaim(WatchEvent type, k8s::ResourceClaim claim) {
  const std::string key = ClaimKey(claim);
  auto stored = objects_.resource_claims.find(key);
  if (type == WatchEvent::kDeleted || stored == objects_.resource_claims.end()) {
    replay_allocated_claims_.erase(key);
  } else if (replay_allocated_claims_.count(key) > 0) {
    // The replay's allocation stays, with the reservations of pods the replay still has.
    const k8s::ResourceClaimStatus& ours = stored->second.status();
    k8s::ResourceClaimStatus kept;
    for (const k8s::ResourceClaimConsumerReference& ref : ours.reserved_for()) {
      for (const auto& [pod_key, pod] : pods_) {
        if (pod->uid() == ref.uid()) {
          *kept.add_reserved_for() = ref;
          break;
        }
      }
    }
    if (kept.reserved_for_size() > 0 || claim.status().has_allocation()) {
      *kept.mutable_allocation() = ours.allocation();
      *kept.mutable_devices() = claim.status().devices();
      *claim.mutable_status() = std::move(kept);
    } else {
      replay_allocated_claims_.erase(key);  // deallocated by the trace: the trace's again
    }
  }
  if (claim.metadata().namespace_().empty()) claim.mutable_metadata()->set_namespace_("default");
  OnStorageObject(type, std::move(claim), true, &objects_.resource_claims, resource::kResourceClaim,
                  "ResourceClaim");
}

void Scheduler::OnResourceSlice(WatchEvent type, k8s::ResourceSlice slice) {
  if (type == WatchEvent::kDeleted) {
    published_slices_.erase(slice.metadata().name());
  } else {
    published_slices_[slice.metadata().name()] = slice;
    slice = dra::ApplyDeviceTaintRules(slice, objects_.device_taint_rules);
  }
  OnStorageObject(type, std::move(slice), false, &objects_.resource_slices,
                  resource::kResourceSlice, "ResourceSlice");
}

void Scheduler::OnDeviceTaintRule(WatchEvent type, k8s::DeviceTaintRule rule) {
  if (type == WatchEvent::kDeleted) {
    objects_.device_taint_rules.erase(rule.metadata().name());
  } else {
    objects_.device_taint_rules[rule.metadata().name()] = std::move(rule);
  }
  // syncSlice for the slices the rule may touch (here: all, in name order; a slice whose taints
  // stay the same sends nothing, as upstream's check after a rule event).
  for (const auto& [name, published] : published_slices_) {
    k8s::ResourceSlice patched = dra::ApplyDeviceTaintRules(published, objects_.device_taint_rules);
    auto stored = objects_.resource_slices.find(name);
    if (stored != objects_.resource_slices.end() && !dra::TaintsDiffer(stored->second, patched)) {
      continue;
    }
    OnStorageObject(WatchEvent::kModified, std::move(patched), false, &objects_.resource_slices,
                    resource::kResourceSlice, "ResourceSlice");
  }
}

void Scheduler::OnDeviceClass(WatchEvent type, k8s::DeviceClass device_class) {
  OnStorageObject(type, std::move(device_class), false, &objects_.device_classes,
                  resource::kDeviceClass, "DeviceClass");
}

Result<k8s::ResourceClaim> Scheduler::ClaimApi::UpdateResourceClaimStatus(
    const k8s::ResourceClaim& claim) {
  const std::string key = ClaimKey(claim);
  auto& store = scheduler_->objects_.resource_claims;
  auto it = store.find(key);
  if (it == store.end()) {
    return Error{"resourceclaims.resource.k8s.io \"" + claim.metadata().name() + "\" not found"};
  }
  EventObjects objects;
  objects.old_object = std::make_shared<const k8s::ResourceClaim>(it->second);
  *it->second.mutable_status() = claim.status();  // a status update keeps the spec
  objects.new_object = std::make_shared<const k8s::ResourceClaim>(it->second);
  if (it->second.status().has_allocation()) {
    scheduler_->replay_allocated_claims_.insert(key);
  } else {
    scheduler_->replay_allocated_claims_.erase(key);
  }
  scheduler_->pending_claim_events_.push_back(std::move(objects));
  return it->second;
}

void Scheduler::DeliverClaimWrites() {
  std::vector<EventObjects> pending = std::move(pending_claim_events_);
  pending_claim_events_.clear();
  for (const EventObjects& objects : pending) {
    MoveForStorage(WatchEvent::kModified, resource::kResourceClaim, "ResourceClaim", nullptr,
                   objects);
  }
}

}  // namespace schedcheck::reference
