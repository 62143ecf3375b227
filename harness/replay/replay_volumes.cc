// The replay's API server for VolumeBinding's PreBind writes, and the volume controllers that
// answer them (volume_controllers.h).
#include <string>

#include "harness/replay/replayer.h"
#include "harness/replay/replayer_internal.h"
#include "harness/replay/volume_controllers.h"

namespace schedcheck::replay {
namespace {

// The API server's Update: NotFound for an object it does not hold, Conflict for a write based
// on another resourceVersion than the stored one (the texts of apierrors.NewNotFound and
// NewConflict).
template <typename Object>
Outcome CheckUpdate(const Object* stored, const Object& written, const std::string& resource,
                    const std::string& name) {
  if (stored == nullptr) return Error{resource + " \"" + name + "\" not found"};
  if (written.metadata().resource_version() != stored->metadata().resource_version()) {
    return Error{"Operation cannot be fulfilled on " + resource + " \"" + name +
                 "\": the object has been modified; please apply your changes to the latest "
                 "version and try again"};
  }
  return Outcome::Ok();
}

}  // namespace

Result<k8s::PersistentVolume> Replayer::VolumeApiImpl::UpdatePersistentVolume(
    const k8s::PersistentVolume& pv) {
  const std::string& name = pv.metadata().name();
  // A write not delivered yet is the stored object.
  const k8s::PersistentVolume* stored =
      reference::ClusterObjects::Find(r_->scheduler_->objects().persistent_volumes, name);
  for (const trace::ApiEvent& w : writes_) {
    if (w.has_persistent_volume() && w.persistent_volume().metadata().name() == name) {
      stored = &w.persistent_volume();
    }
  }
  if (Outcome ok = CheckUpdate(stored, pv, "persistentvolumes", name); !ok) return ok.error();
  trace::ApiEvent write;
  write.set_type(trace::MODIFIED);
  k8s::PersistentVolume* saved = write.mutable_persistent_volume();
  *saved = pv;
  saved->mutable_status()->CopyFrom(stored->status());  // Update leaves the status subresource
  saved->mutable_metadata()->clear_resource_version();
  r_->StampVersion(saved->mutable_metadata());
  k8s::PersistentVolume result = *saved;
  writes_.push_back(std::move(write));
  return result;
}

Result<k8s::PersistentVolumeClaim> Replayer::VolumeApiImpl::UpdatePersistentVolumeClaim(
    const k8s::PersistentVolumeClaim& claim) {
  const std::string ns =
      claim.metadata().namespace_().empty() ? "default" : claim.metadata().namespace_();
  const std::string& name = claim.metadata().name();
  const k8s::PersistentVolumeClaim* stored = r_->scheduler_->objects().FindClaim(ns, name);
  for (const trace::ApiEvent& w : writes_) {
    if (w.has_persistent_volume_claim() && w.persistent_volume_claim().metadata().name() == name &&
        w.persistent_volume_claim().metadata().namespace_() == ns) {
      stored = &w.persistent_volume_claim();
    }
  }
  if (Outcome ok = CheckUpdate(stored, claim, "persistentvolumeclaims", name); !ok) {
    return ok.error();
  }
  trace::ApiEvent write;
  write.set_type(trace::MODIFIED);
  k8s::PersistentVolumeClaim* saved = write.mutable_persistent_volume_claim();
  *saved = claim;
  saved->mutable_metadata()->set_namespace_(ns);
  saved->mutable_status()->CopyFrom(stored->status());
  saved->mutable_metadata()->clear_resource_version();
  r_->StampVersion(saved->mutable_metadata());
  k8s::PersistentVolumeClaim result = *saved;
  writes_.push_back(std::move(write));
  return result;
}

const k8s::Node* Replayer::VolumeApiImpl::GetNode(const std::string& name) const {
  reference::NodePtr node = r_->scheduler_->GetNode(name);
  return node == nullptr ? nullptr : &node->obj;
}

void Replayer::VolumeApiImpl::Settle() {
  std::vector<trace::ApiEvent> writes = std::move(writes_);
  writes_.clear();
  // The scheduler's writes come back through its informers first, then the controllers' answers.
  for (const trace::ApiEvent& w : writes) r_->DeliverStorage(w);
  if (AnswersLater()) {
    if (writes.empty()) return;
    later_.push_back({r_->clock_.NowNs() + r_->options_.volume_latency_ns, std::move(writes)});
  } else {
    Answer(writes);
  }
}

std::optional<int64_t> Replayer::VolumeApiImpl::NextAnswersNs() const {
  if (later_.empty()) return std::nullopt;
  return later_.front().due_ns;  // one latency for all: due in Settle order
}

void Replayer::VolumeApiImpl::AnswerDue(int64_t now_ns) {
  while (!later_.empty() && later_.front().due_ns == now_ns) {
    std::vector<trace::ApiEvent> writes = std::move(later_.front().writes);
    later_.pop_front();
    Answer(writes);
  }
}

void Replayer::VolumeApiImpl::Answer(const std::vector<trace::ApiEvent>& writes) {
  for (const trace::ApiEvent& w : writes) {
    const reference::Labels* labels = nullptr;
    if (w.has_persistent_volume_claim()) {
      const auto& annotations = w.persistent_volume_claim().metadata().annotations();
      if (auto selected = annotations.find("volume.kubernetes.io/selected-node");
          selected != annotations.end()) {
        reference::NodePtr node = r_->scheduler_->GetNode(selected->second);
        if (node != nullptr) labels = &node->labels();
      }
    }
    for (const trace::ApiEvent& answer :
         VolumeControllerReactions(w, r_->scheduler_->objects(), labels)) {
      r_->DeliverStorage(answer);
    }
  }
}

}  // namespace schedcheck::replay
