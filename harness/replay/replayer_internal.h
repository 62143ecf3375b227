// Private pieces of the Replayer shared by its .cc files.
#ifndef SCHEDCHECK_HARNESS_REPLAY_REPLAYER_INTERNAL_H_
#define SCHEDCHECK_HARNESS_REPLAY_REPLAYER_INTERNAL_H_

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/replay/replayer.h"

namespace schedcheck::replay {

// The API server VolumeBinding's PreBind writes to, with the volume controllers behind it
// (ReplayOptions::volume_controllers; replay_volumes.cc). The API server's store is what the
// scheduler's informers hold (they never lag); writes reach them, and the queue, only in Settle.
class Replayer::VolumeApiImpl final : public reference::VolumeApi {
 public:
  explicit VolumeApiImpl(Replayer* replayer) : r_(replayer) {}
  Result<k8s::PersistentVolume> UpdatePersistentVolume(const k8s::PersistentVolume& pv) override;
  Result<k8s::PersistentVolumeClaim> UpdatePersistentVolumeClaim(
      const k8s::PersistentVolumeClaim& claim) override;
  void Settle() override;
  bool AnswersLater() const override { return r_->options_.volume_latency_ns > 0; }
  const k8s::Node* GetNode(const std::string& name) const override;
  // The instant of the next answers due (answering later), if any.
  std::optional<int64_t> NextAnswersNs() const;
  // Delivers the answers due at `now_ns`, Settle by Settle.
  void AnswerDue(int64_t now_ns);

 private:
  // The controllers' answers to `writes`, write by write, against the objects as they are now.
  void Answer(const std::vector<trace::ApiEvent>& writes);

  Replayer* r_;
  std::vector<trace::ApiEvent> writes_;  // since the last Settle, in order
  // Settled writes the controllers answer later, with the instant they do, in Settle order.
  struct Later {
    int64_t due_ns = 0;
    std::vector<trace::ApiEvent> writes;
  };
  std::deque<Later> later_;
};

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_REPLAYER_INTERNAL_H_
