#include "reference/accel/queue/fast_move_walk.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kSec = kNanosPerSecond;
constexpr const char* kProfiles[] = {"default-scheduler", "second", "unknown"};
constexpr const char* kPlugins[] = {"A", "B", "C", "D"};
constexpr const char* kGatePlugin = "A";

ClusterEvent Ev(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

// Events plugins register for, and events that arrive (these, and some no plugin registers).
std::vector<ClusterEvent> RegisteredEvents() {
  return {Ev(resource::kNode, action::kAdd),
          Ev(resource::kNode, action::kUpdateNodeTaint),
          Ev(resource::kNode, action::kAdd | action::kUpdateV1_37),
          Ev(resource::kAssignedPod, action::kDelete),
          Ev(resource::kAssignedPod, action::kAllV1_37),
          Ev(resource::kPersistentVolume, action::kAdd),
          Ev(resource::kUnscheduledPod, action::kUpdatePodLabel)};
}
std::vector<ClusterEvent> IncomingEvents() {
  std::vector<ClusterEvent> events = {
      Ev(resource::kNode, action::kUpdateNodeLabel), Ev(resource::kStorageClass, action::kAdd),
      event_v1_37::UnschedulableTimeout(), event_v1_37::ForceActivate()};
  for (const ClusterEvent& e : RegisteredEvents()) events.push_back(e);
  return events;
}

// FNV-1a: a hint's answer as a fixed function of the case's salt, the plugin, the pod and the
// event, so that both queues get the same answers.
uint64_t Mix(uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

QueueingHintFn HashedHint(uint64_t salt, const std::string& plugin, const ClusterEvent& e) {
  const uint64_t base = Mix(Mix(Mix(salt, plugin), e.resource), std::to_string(e.action));
  return [base](const Pod& pod, const EventObjects&) -> Result<QueueingHint> {
    switch (Mix(base, pod.key) % 4) {
      case 0:
        return Error{"hint error"};  // counts as Queue
      case 1:
        return QueueingHint::kQueue;
      default:
        return QueueingHint::kQueueSkip;
    }
  };
}

// Hint maps for the first two profiles (pods of "unknown" have none), each registration with a
// random set of plugins; PreEnqueue gates of plugin A, closed for the pods in `closed`.
QueueSetupV1_37 GenSetup(const std::shared_ptr<std::set<std::string>>& closed, bool gate) {
  QueueSetupV1_37 setup;
  setup.less = [](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    if (a.pod().priority != b.pod().priority) return a.pod().priority > b.pod().priority;
    return a.timestamp_ns < b.timestamp_ns;
  };
  setup.pop_from_backoff_q = *rc::gen::arbitrary<bool>();
  const uint64_t salt = *rc::gen::arbitrary<uint64_t>();
  for (int p = 0; p < 2; ++p) {
    QueueProfileV1_37& profile = setup.profiles[kProfiles[p]];
    for (const ClusterEvent& e : RegisteredEvents()) {
      for (const char* plugin : kPlugins) {
        if (*rc::gen::inRange(0, 3) == 0)
          profile.hints.Add(e, {plugin, HashedHint(salt, plugin, e)});
      }
    }
    if (!gate) continue;
    profile.pre_enqueue.push_back({kGatePlugin, [closed](const Pod& pod) {
                                     if (closed->count(pod.key) == 0) return Status();
                                     return Status(Code::kUnschedulableAndUnresolvable, "gated");
                                   }});
  }
  return setup;
}

// One queue and everything it reported.
struct Recorded {
  Recorded(const VirtualClock& clock, QueueSetupV1_37 queue_setup)
      : setup(queue_setup),
        queue(QueueOptions{}, clock, std::move(queue_setup), 0,
              [this](const std::string& key, std::string_view from, std::string_view to,
                     std::string_view cause) {
                transitions += key + " " + std::string(from) + ">" + std::string(to) + " " +
                               std::string(cause) + "\n";
              }) {}

  // The sub-queues and what the pods in them carry.
  std::string State() const {
    std::string out = transitions + "active:";
    for (const std::string& k : queue.ActiveQKeys()) out += " " + k;
    out += "\nbackoff:";
    for (const std::string& k : queue.BackoffQKeys()) out += " " + k;
    out += "\nunschedulable:";
    for (const std::string& k : queue.UnschedulableKeys()) {
      const QueuedPodInfo* info = queue.Find(k);
      out += " " + k + (info->gated ? "(gated " + info->gating_plugin + ")" : "");
    }
    out += "\ninflight:";
    for (const std::string& k : queue.InFlightKeys()) out += " " + k;
    return out + "\nevents: " + std::to_string(queue.InFlightEventCount()) + "\n";
  }

  QueueSetupV1_37 setup;  // what the queue was built with
  SchedulingQueueV1_37 queue;
  std::string transitions;
  std::map<std::string, QueuedPodInfo> popped;  // by key
};

PodPtr GenPod() {
  const std::string ns = *rc::gen::element<std::string>("a", "a-b", "ab", "b");
  const std::string name = "p" + std::to_string(*rc::gen::inRange(0, 6));
  const std::string scheduler = kProfiles[*rc::gen::weightedElement<int>({{8, 0}, {3, 1}, {1, 2}})];
  return testing::ParsePod("metadata: {name: " + name + ", namespace: " + ns + ", uid: " + ns +
                               "." + name + "}\nspec: {schedulerName: " + scheduler +
                               ", priority: " + std::to_string(*rc::gen::inRange(0, 3)) +
                               ", containers: [{name: c}]}\n",
                           CompatLevel::kV1_27);
}

std::set<std::string> GenPlugins() {
  std::set<std::string> out;
  for (const char* plugin : kPlugins) {
    if (*rc::gen::inRange(0, 2) == 0) out.insert(plugin);
  }
  return out;
}

// The two queues, one with each walk, and what both were given.
struct Twins {
  Twins(const std::shared_ptr<std::set<std::string>>& gates_closed, bool gate)
      : closed(gates_closed), plain(clock, GenSetup(closed, gate)), fast(clock, FastSetup(plain)) {}

  static QueueSetupV1_37 FastSetup(const Recorded& plain) {
    QueueSetupV1_37 setup = plain.setup;
    setup.move_walk = std::make_shared<FastMoveWalk>();
    return setup;
  }

  void AddPod() {
    PodPtr pod = GenPod();
    if (plain.queue.Find(pod->key) != nullptr || plain.popped.count(pod->key) > 0) return;
    if (*rc::gen::inRange(0, 4) == 0) closed->insert(pod->key);
    pods.push_back(pod);
    plain.queue.Add(pod);
    fast.queue.Add(pod);
  }

  void Pop() {
    std::optional<QueuedPodInfo> p = plain.queue.Pop(), f = fast.queue.Pop();
    RC_ASSERT(p.has_value() == f.has_value());
    if (!p) return;
    RC_ASSERT(p->pod().key == f->pod().key);
    plain.popped[p->pod().key] = *p;
    fast.popped[f->pod().key] = *f;
  }

  // An attempt ends: failed with generated rejectors (none: an error), or bound.
  void EndAttempt() {
    if (plain.popped.empty()) return;
    auto it = std::next(plain.popped.begin(), *rc::gen::inRange<size_t>(0, plain.popped.size()));
    const std::string key = it->first;
    QueuedPodInfo p = it->second, f = fast.popped.at(key);
    plain.popped.erase(key);
    fast.popped.erase(key);
    if (*rc::gen::inRange(0, 5) == 0) {
      plain.queue.Done(p.pod().uid());
      fast.queue.Done(f.pod().uid());
      return;
    }
    p.unschedulable_plugins = f.unschedulable_plugins = GenPlugins();
    p.pending_plugins = f.pending_plugins = GenPlugins();
    RC_ASSERT(plain.queue.AddUnschedulableIfNotPresent(p, 0).ok() ==
              fast.queue.AddUnschedulableIfNotPresent(f, 0).ok());
  }

  // A move: an event, its objects, maybe a pre-check.
  void Move() {
    const std::vector<ClusterEvent> events = IncomingEvents();
    const ClusterEvent event = events[*rc::gen::inRange<size_t>(0, events.size())];
    EventObjects objects;
    if (!pods.empty() && *rc::gen::inRange(0, 3) == 0) objects.new_pod = AnyPod();
    std::function<bool(const Pod&)> pre_check;
    if (*rc::gen::arbitrary<bool>()) {
      const uint64_t salt = *rc::gen::arbitrary<uint64_t>();
      pre_check = [salt](const Pod& pod) { return Mix(salt, pod.key) % 3 != 0; };
    }
    plain.queue.MoveAllToActiveOrBackoffQueue(event, objects, pre_check);
    fast.queue.MoveAllToActiveOrBackoffQueue(event, objects, pre_check);
  }

  void Flush(int64_t advance_ns, bool leftover) {
    clock.AdvanceNs(advance_ns);
    for (Recorded* run : {&plain, &fast}) {
      if (leftover) {
        run->queue.FlushUnschedulablePodsLeftover();
      } else {
        run->queue.FlushBackoffQCompleted();
      }
    }
  }

  const PodPtr& AnyPod() { return pods[*rc::gen::inRange<size_t>(0, pods.size())]; }

  std::shared_ptr<std::set<std::string>> closed;  // pods whose gate is closed, by key
  VirtualClock clock{1000 * kSec};
  Recorded plain;
  Recorded fast;
  std::vector<PodPtr> pods;  // every pod added, deleted or not
};

// Pods that moves took out of the pool (the flush's and Activate's excluded).
int MovedByEvents(const std::string& transitions) {
  int moved = 0;
  for (size_t at = 0; (at = transitions.find("unschedulable>", at)) != std::string::npos;) {
    const size_t end = transitions.find('\n', at);
    const std::string line = transitions.substr(at, end - at);
    moved += line.find("UnschedulableTimeout") == std::string::npos &&
             line.find("ForceActivate") == std::string::npos;
    at = end;
  }
  return moved;
}

// Both walks leave a gated pod where it is for an event its gating plugin does not register,
// even when another of its rejectors would requeue it, and requeue it for one that it does.
TEST(FastMoveWalk, GatedPodWaitsForItsGatingPluginsEvents) {
  const ClusterEvent node_add = Ev(resource::kNode, action::kAdd);
  const ClusterEvent pv_add = Ev(resource::kPersistentVolume, action::kAdd);
  for (bool fast : {false, true}) {
    SCOPED_TRACE(fast ? "fast" : "plain");
    auto closed = std::make_shared<std::set<std::string>>();
    QueueSetupV1_37 setup;
    setup.less = [](const QueuedPodInfo&, const QueuedPodInfo&) { return false; };
    QueueProfileV1_37& profile = setup.profiles["default-scheduler"];
    auto queue = [](const Pod&, const EventObjects&) -> Result<QueueingHint> {
      return QueueingHint::kQueue;
    };
    profile.hints.Add(node_add, {"A", queue});
    profile.hints.Add(pv_add, {"B", queue});
    profile.pre_enqueue.push_back({"A", [closed](const Pod& pod) {
                                     if (closed->count(pod.key) == 0) return Status();
                                     return Status(Code::kUnschedulableAndUnresolvable, "gated");
                                   }});
    if (fast) setup.move_walk = std::make_shared<FastMoveWalk>();
    VirtualClock clock(1000 * kSec);
    Recorded run(clock, setup);
    PodPtr pod =
        testing::ParsePod("metadata: {name: p, namespace: a, uid: u}", CompatLevel::kV1_27);
    run.queue.Add(pod);
    QueuedPodInfo info = *run.queue.Pop();
    info.unschedulable_plugins = {"B"};
    ASSERT_TRUE(run.queue.AddUnschedulableIfNotPresent(info, 0).ok());
    closed->insert(pod->key);
    run.queue.Activate({pod});  // gated by A on the way to activeQ: back to the pool
    ASSERT_TRUE(run.queue.Find(pod->key)->gated);
    closed->clear();
    run.queue.MoveAllToActiveOrBackoffQueue(pv_add, {});
    EXPECT_EQ(run.queue.UnschedulableKeys(), std::vector<std::string>{"a/p"});
    run.queue.MoveAllToActiveOrBackoffQueue(node_add, {});
    EXPECT_EQ(run.queue.UnschedulableKeys(), std::vector<std::string>{});
    EXPECT_NE(run.transitions.find("a/p unschedulable>"), std::string::npos) << run.transitions;
  }
}

// The fast walk makes the plain walk's moves: two v1.37 queues, one with each walk, take the
// same generated pods, pops, failures (with generated rejectors), moves (with and without a
// pre-check, events of interest or not, wildcards), gates that close and open, activations,
// deletions, flushes and time, and after every step report the same transitions in the same
// order and hold the same sub-queues.
RC_GTEST_PROP(FastMoveWalk, MakesThePlainWalksMoves, ()) {
  Twins q(std::make_shared<std::set<std::string>>(), *rc::gen::arbitrary<bool>());
  const int steps = 40 + *rc::gen::inRange(0, 80);
  for (int step = 0; step < steps; ++step) {
    switch (*rc::gen::weightedElement<int>(
        {{4, 0}, {5, 1}, {6, 2}, {5, 3}, {4, 4}, {2, 5}, {1, 6}, {3, 7}, {1, 8}, {1, 9}})) {
      case 0:
        q.AddPod();
        break;
      case 1:
        q.Pop();
        break;
      case 2:
        q.Move();
        break;
      case 3:
        q.EndAttempt();
        break;
      case 4:  // a pop that fails at once: no event in flight decides its requeue
        q.Pop();
        if (!q.plain.popped.empty()) q.EndAttempt();
        break;
      case 5:
        q.Flush(*rc::gen::inRange<int64_t>(0, 40) * kSec / 2, false);
        break;
      case 6:
        q.Flush(*rc::gen::inRange<int64_t>(0, 400) * kSec, true);
        break;
      case 7:  // a gate opens or closes
        if (!q.pods.empty() && q.closed->erase(q.AnyPod()->key) == 0) {
          q.closed->insert(q.AnyPod()->key);
        }
        break;
      case 8:
        if (!q.pods.empty()) {
          const PodPtr pod = q.AnyPod();
          q.plain.queue.Activate({pod});
          q.fast.queue.Activate({pod});
        }
        break;
      case 9:
        if (!q.pods.empty()) {
          const PodPtr pod = q.AnyPod();
          q.plain.queue.Delete(*pod);
          q.fast.queue.Delete(*pod);
        }
        break;
    }
    const std::string want = q.plain.State(), got = q.fast.State();
    if (want != got) {
      RC_FAIL("after step " + std::to_string(step) + "\nplain:\n" + want + "fast:\n" + got);
    }
  }
  const int moved = MovedByEvents(q.plain.transitions);
  RC_TAG(moved == 0 ? "no pod moved by an event" : moved < 5 ? "1-4 moved" : "5+ moved");
}

}  // namespace
}  // namespace schedcheck::reference
