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
#include "reference/scheduler/opportunistic_batch.h"
#include "reference/scheduler/pod_signatures.h"

namespace schedcheck::replay {

struct Replayer::Profile {
  explicit Profile(const reference::Features& features) : handle(features) {}
  reference::Handle handle;
  std::unique_ptr<reference::Framework> framework;
  // v1.37 with OpportunisticBatching, when the profile signs pods: its signer and its batch.
  std::optional<reference::PodSigner> signer;
  std::unique_ptr<reference::OpportunisticBatch> batch;
};

// The scheduling cycle in progress (only one at a time, as upstream).
struct Replayer::InFlight {
  reference::QueuedPodInfo info;
  reference::CycleOutcome outcome;
  std::unique_ptr<reference::CycleState> state;
  Profile* profile = nullptr;
  int64_t finish_ns = 0;
};

// An assumed pod whose binding cycle completes at `complete_ns`.
struct Replayer::Binding {
  std::string key;
  reference::PodPtr assumed;
  std::string node;
  std::shared_ptr<reference::CycleState> state;
  Profile* profile = nullptr;
  int64_t complete_ns = 0;
  reference::QueuedPodInfo info;
  // Set when Permit made the pod wait: the plugin whose timeout fires first and that timeout.
  std::string waiting_plugin;
  int64_t wait_ns = 0;
  // v1.37 (NominatedNodeNameForExpectation): RunPreBindPreFlights' status, and whether the
  // binding cycle wrote status.nominatedNodeName = node because PreBind or Permit will work.
  // The write reaches the informer when the cycle is over, as the adapters deliver writes.
  reference::Status pre_flight;
  bool nominated_for_expectation = false;
  // PreBind returned Wait (it polls while the volume controllers answer later): at complete_ns
  // the binding cycle resumes with PreBind's next look.
  bool in_pre_bind = false;
};

// The API server VolumeBinding's PreBind writes to, with the volume controllers behind it
// (ReplayOptions::volume_controllers; replay_volumes.cc). The API server's store is the replay's
// objects_ (its informers never lag); writes reach them, and the queue, only in Settle.
class Replayer::VolumeApiImpl final : public reference::VolumeApi {
 public:
  explicit VolumeApiImpl(Replayer* replayer) : r_(replayer) {}
  Result<k8s::PersistentVolume> UpdatePersistentVolume(const k8s::PersistentVolume& pv) override;
  Result<k8s::PersistentVolumeClaim> UpdatePersistentVolumeClaim(
      const k8s::PersistentVolumeClaim& claim) override;
  void Settle() override;
  bool AnswersLater() const override { return r_->options_.volume_latency_ns > 0; }
  const k8s::Node* GetNode(const std::string& name) const override;
  // Whether writes wait for Settle (a PreBind that failed after a successful write).
  bool HasPendingWrites() const { return !writes_.empty(); }
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

// Which of a node's scheduling properties changed (eventhandlers.go
// nodeSchedulingPropertiesChange): the first applicable of unschedulable → false, allocatable,
// labels, taints, conditions; null when none (no move request).
std::optional<reference::ClusterEvent> NodeUpdateEvent(const k8s::Node& old_node,
                                                       const k8s::Node& new_node);

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_REPLAYER_INTERNAL_H_
