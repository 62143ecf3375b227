// The Scheduler's construction (scheduler.New) and the queue its features call for.
#include "reference/scheduler/scheduler.h"

#include <utility>

#include "reference/queue/new_scheduling_queue.h"
#include "reference/runtime/queue_setup.h"

namespace schedcheck::reference {

Scheduler::Scheduler(SchedulerOptions options, const Clock& clock, SchedulerListener listener)
    : options_(std::move(options)),
      features_(*options_.features),
      clock_(clock),
      listener_(std::move(listener)),
      cache_(features_) {}

Scheduler::~Scheduler() = default;

Result<std::unique_ptr<Scheduler>> Scheduler::New(SchedulerOptions options, const Clock& clock,
                                                  SchedulerListener listener) {
  if (!options.features) return Error{"a scheduler needs the run's features (FeaturesFor)"};
  if (options.registry == nullptr || options.pod_scheduler == nullptr) {
    return Error{"a scheduler needs a plugin registry and a pod scheduler"};
  }
  std::unique_ptr<Scheduler> s(new Scheduler(std::move(options), clock, std::move(listener)));
  if (Outcome ok = s->Init(); !ok) return ok.error();
  return s;
}

Outcome Scheduler::Init() {
  pod_resource_gates_ = PodResourceGatesOf(features_);
  std::vector<const Framework*> frameworks;
  for (const reference::Profile& profile : options_.config.profiles) {
    auto p = std::make_unique<Profile>(features_);
    p->handle.snapshot = &snapshot_;
    p->handle.objects = &objects_;
    p->handle.pods = &pod_lister_;
    p->handle.clock = &clock_;
    p->handle.epoch_unix_ns = options_.epoch_unix_ns;
    p->handle.async_preemptions = &async_preemptions_;
    p->handle.volume_api = options_.volume_api;
    p->handle.pod_groups = &cache_.pod_groups();
    p->handle.waiting_pods = &waiting_pods_;
    p->handle.dra_api = &claim_api_;
    auto fw = Framework::Create(profile, *options_.registry, &p->handle);
    if (!fw.ok()) return fw.error();
    if (features_.opportunistic_batching) {
      PodSigner signer = PodSigner::ForProfile(**fw, profile, pod_resource_gates_);
      if (signer.enabled()) {
        p->signer = std::move(signer);
        p->batch = std::make_unique<OpportunisticBatch>(features_.generic_workload);
      }
    }
    p->framework = std::move(*fw);
    p->handle.framework = p->framework.get();
    frameworks.push_back(p->framework.get());
    profiles_.push_back(std::move(p));
  }
  QueueOptions qo;
  qo.initial_backoff_ns = options_.config.pod_initial_backoff_seconds * kNanosPerSecond;
  qo.max_backoff_ns = options_.config.pod_max_backoff_seconds * kNanosPerSecond;
  auto lookup = [this](const std::string& key) { return GetPod(key); };
  for (const auto& [event, plugin] : EventMapFromFrameworks(frameworks)) {
    registered_actions_[event.resource] |= event.action;
  }
  QueueSetup setup = QueueSetupFor(frameworks);
  setup.move_walk = options_.move_walk;
  if (features_.opportunistic_batching) {
    setup.sign_pod = [this](const Pod& pod) -> PodSignature {
      Profile* profile = ProfileFor(pod);
      return profile != nullptr && profile->signer ? profile->signer->Sign(pod) : nullptr;
    };
  }
  QueueEnvironment environment;
  environment.epoch_ns = options_.epoch_unix_ns;
  environment.objects = &objects_;
  environment.sink = listener_.queue_transition;
  environment.pod_lookup = lookup;
  queue_ = NewSchedulingQueue(features_, qo, clock_, std::move(setup), std::move(environment));
  for (auto& p : profiles_) p->handle.nominator = &queue_->nominator();
  SetPodScheduler(std::move(options_.pod_scheduler));
  return Outcome::Ok();
}

void Scheduler::SetPodScheduler(std::unique_ptr<PodScheduler> engine) {
  options_.pod_scheduler = std::move(engine);
}

const Framework* Scheduler::FrameworkFor(std::string_view scheduler_name) const {
  for (size_t i = 0; i < profiles_.size(); ++i) {
    if (options_.config.profiles[i].scheduler_name == scheduler_name)
      return profiles_[i]->framework.get();
  }
  return nullptr;
}

Scheduler::Profile* Scheduler::ProfileFor(const Pod& pod) {
  for (size_t i = 0; i < profiles_.size(); ++i) {
    if (options_.config.profiles[i].scheduler_name == pod.scheduler_name())
      return profiles_[i].get();
  }
  return nullptr;
}

PodPtr Scheduler::GetPod(const std::string& key) const {
  auto it = pods_.find(key);
  return it == pods_.end() ? nullptr : it->second;
}

NodePtr Scheduler::GetNode(const std::string& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : it->second;
}

void Scheduler::FlushBackoffQCompleted() { queue_->FlushBackoffQCompleted(); }

void Scheduler::FlushUnschedulablePodsLeftover() { queue_->FlushUnschedulablePodsLeftover(); }

}  // namespace schedcheck::reference
