// Model-based test of the scheduling queue (reference/queue/scheduling_queue.h), in the spirit of
// leveldb's model-vs-real randomized test: RapidCheck generates command sequences (add, pop and
// fail, pop and bind, cluster-event moves, clock advances, both flushes, delete, update); each
// command is applied to a small model of the v1.27 queue (sub-queue membership, attempts,
// timestamps, backoff expiry, moveRequestCycle) and to the real queue, and after every command
// the real queue's sub-queues, their order and every backoff expiry must equal the model's.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "rapidcheck/state.h"
#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/runtime/queue_setup.h"

namespace schedcheck::properties {
namespace {

using reference::ClusterEvent;
using reference::PodPtr;

constexpr int64_t kSec = kNanosPerSecond;
constexpr int64_t kInitialNs = 1 * kSec;
constexpr int64_t kMaxNs = 10 * kSec;
constexpr int64_t kLeftoverNs = 60 * kSec;
const std::vector<std::string> kNames = {"a", "b", "c", "d", "e"};
// Test plugins and the events they register; "C" registers nothing.
const std::vector<std::pair<std::string, std::string>> kRegistrations = {
    {"NodeAdd", "A"}, {"AssignedPodDelete", "B"}};
const std::vector<std::string> kEvents = {"NodeAdd", "AssignedPodDelete", "NodeTaintChange"};

// An independent statement of the v1.27 backoff formula.
int64_t ModelBackoff(int attempts) {
  int64_t d = kInitialNs;
  for (int i = 1; i < attempts && d < kMaxNs; ++i) d *= 2;
  return std::min(d, kMaxNs);
}

struct ModelPod {
  int32_t priority = 0;
  bool gated = false;
  std::string sub;  // active, backoff, unschedulable
  int attempts = 0;
  int64_t timestamp = 0;
  uint64_t seq = 0;
  std::set<std::string> plugins;
  int version = 0;
  int64_t Expiry() const { return timestamp + ModelBackoff(attempts); }
};

struct Model {
  std::map<std::string, ModelPod> pods;
  int64_t now = 0;
  int64_t cycle = 0;
  int64_t move_request_cycle = -1;
  uint64_t next_seq = 0;

  std::vector<std::string> Keys(const std::string& sub) const {
    std::vector<std::string> out;
    for (const auto& [k, p] : pods) {
      if (p.sub == sub) out.push_back(k);
    }
    return out;
  }
  std::vector<std::string> ActiveOrder() const {
    auto keys = Keys("active");
    std::sort(keys.begin(), keys.end(), [&](const std::string& x, const std::string& y) {
      const ModelPod &a = pods.at(x), &b = pods.at(y);
      return std::make_tuple(-a.priority, a.timestamp, a.seq) <
             std::make_tuple(-b.priority, b.timestamp, b.seq);
    });
    return keys;
  }
  std::vector<std::string> BackoffOrder() const {
    auto keys = Keys("backoff");
    std::sort(keys.begin(), keys.end(), [&](const std::string& x, const std::string& y) {
      return std::make_pair(pods.at(x).Expiry(), pods.at(x).seq) <
             std::make_pair(pods.at(y).Expiry(), pods.at(y).seq);
    });
    return keys;
  }
  void Push(ModelPod& p, const std::string& sub) {
    p.sub = sub;
    p.seq = next_seq++;
  }
  bool BackingOff(const ModelPod& p) const { return !p.gated && p.Expiry() > now; }
  // MovePodsToActiveOrBackoffQueue for `keys` (in key order) with an event matching `matches`.
  void Move(const std::vector<std::string>& keys, bool wildcard, const std::string& event) {
    for (const std::string& k : keys) {
      ModelPod& p = pods.at(k);
      bool match = wildcard || p.plugins.empty();
      for (const auto& [e, plugin] : kRegistrations)
        match |= e == event && p.plugins.count(plugin) > 0;
      if (!match) continue;
      if (BackingOff(p)) {
        Push(p, "backoff");
      } else if (!p.gated) {
        Push(p, "active");
      }
    }
    move_request_cycle = cycle;
  }
};

struct Sut {
  VirtualClock clock;
  std::unique_ptr<check::Cluster> cluster;
  std::unique_ptr<reference::SchedulingQueue> queue;
  std::map<std::string, PodPtr> pods;

  Sut() {
    cluster = std::move(*check::Cluster::Build({}, reference::DefaultProfile("1.27"), "1.27"));
    reference::ClusterEventMap events;
    for (const auto& [e, plugin] : kRegistrations)
      events.emplace_back(*reference::PredefinedClusterEvent(e), plugin);
    reference::QueueOptions options{kInitialNs, kMaxNs, kLeftoverNs};
    queue = std::make_unique<reference::SchedulingQueue>(
        options, clock, reference::HooksFromFrameworks({&cluster->framework()}), events);
  }
};

PodPtr MakePod(const std::string& name, int32_t priority, bool gated, int version) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name(name);
  (*obj.mutable_metadata()->mutable_labels())["v"] = std::to_string(version);
  obj.mutable_spec()->add_containers()->set_name("c");
  obj.mutable_spec()->set_priority(priority);
  if (gated) obj.mutable_spec()->add_scheduling_gates()->set_name(kGateName);
  return *reference::BuildPod(obj, reference::FeaturesFor(reference::CompatLevel::kV1_27));
}

std::string Key(const std::string& name) { return "default/" + name; }

using Command = rc::state::Command<Model, Sut>;

// A subset of the test plugins (possibly empty: a failure no plugin explains).
std::set<std::string> SomePlugins() {
  std::set<std::string> out;
  for (const char* p : {"A", "B", "C"}) {
    if (*rc::gen::arbitrary<bool>()) out.insert(p);
  }
  return out;
}

struct AddPod : Command {
  std::string name = *rc::gen::elementOf(kNames);
  int32_t priority = *rc::gen::element(0, 0, 10);
  bool gated = *rc::gen::inRange(0, 5) == 0;
  void checkPreconditions(const Model& m) const override { RC_PRE(m.pods.count(Key(name)) == 0); }
  void apply(Model& m) const override {
    ModelPod p;
    p.priority = priority;
    p.gated = gated;
    p.timestamp = m.now;
    if (gated) {
      p.sub = "unschedulable";
      p.plugins = {"SchedulingGates"};
    } else {
      m.Push(p, "active");
    }
    m.pods[Key(name)] = p;
  }
  void run(const Model&, Sut& s) const override {
    s.pods[Key(name)] = MakePod(name, priority, gated, 0);
    s.queue->Add(s.pods[Key(name)]);
  }
  void show(std::ostream& os) const override {
    os << "Add(" << name << ", prio " << priority << (gated ? ", gated)" : ")");
  }
};

// Pops the head; the attempt fails with `plugins` (optionally after a cluster event delivered
// while it was in flight), or succeeds (bind) and the pod leaves the queue.
struct PopAttempt : Command {
  std::set<std::string> plugins = SomePlugins();
  int outcome = *rc::gen::inRange(0, 4);  // 0 bind, 1 event during the attempt then fail, else fail
  std::string event = *rc::gen::elementOf(kEvents);
  void checkPreconditions(const Model& m) const override { RC_PRE(!m.Keys("active").empty()); }
  void apply(Model& m) const override {
    const std::string key = m.ActiveOrder().front();
    ++m.cycle;
    const int64_t pod_cycle = m.cycle;
    if (outcome == 0) {
      m.pods.erase(key);
      return;
    }
    ModelPod& p = m.pods.at(key);
    p.attempts++;
    p.sub = "inflight";
    if (outcome == 1) m.Move(m.Keys("unschedulable"), false, event);
    p.timestamp = m.now;
    p.plugins = plugins;
    if (m.move_request_cycle >= pod_cycle) {
      m.Push(p, "backoff");
    } else {
      p.sub = "unschedulable";
    }
  }
  void run(const Model& m, Sut& s) const override {
    std::optional<reference::QueuedPodInfo> info = s.queue->Pop();
    RC_ASSERT(info.has_value());
    RC_ASSERT(info->pod().key == m.ActiveOrder().front());
    if (outcome == 0) {
      s.queue->Done(info->pod().key);
      s.pods.erase(info->pod().key);
      return;
    }
    if (outcome == 1)
      s.queue->MoveAllToActiveOrBackoffQueue(*reference::PredefinedClusterEvent(event));
    info->unschedulable_plugins = plugins;
    RC_ASSERT(s.queue->AddUnschedulableIfNotPresent(*info, s.queue->SchedulingCycle()).ok());
  }
  void show(std::ostream& os) const override {
    os << "Pop+"
       << (outcome == 0   ? "bind"
           : outcome == 1 ? "event " + event + " then fail"
                          : "fail")
       << " {";
    for (const auto& p : plugins) os << p << " ";
    os << "}";
  }
};

struct MoveAll : Command {
  std::string event = *rc::gen::elementOf(kEvents);
  void apply(Model& m) const override { m.Move(m.Keys("unschedulable"), false, event); }
  void run(const Model&, Sut& s) const override {
    s.queue->MoveAllToActiveOrBackoffQueue(*reference::PredefinedClusterEvent(event));
  }
  void show(std::ostream& os) const override { os << "MoveAll(" << event << ")"; }
};

struct AdvanceClock : Command {
  int64_t ms = *rc::gen::element<int64_t>(500, 1000, 2000, 5000, 30000, 61000);
  void apply(Model& m) const override { m.now += ms * 1000000; }
  void run(const Model&, Sut& s) const override { s.clock.AdvanceNs(ms * 1000000); }
  void show(std::ostream& os) const override { os << "Advance(" << ms << "ms)"; }
};

struct FlushBackoff : Command {
  void apply(Model& m) const override {
    for (const std::string& k : m.BackoffOrder()) {
      ModelPod& p = m.pods.at(k);
      if (p.Expiry() > m.now) break;
      m.Push(p, "active");
    }
  }
  void run(const Model&, Sut& s) const override { s.queue->FlushBackoffQCompleted(); }
  void show(std::ostream& os) const override { os << "FlushBackoff"; }
};

struct FlushLeftover : Command {
  void apply(Model& m) const override {
    std::vector<std::string> due;
    for (const std::string& k : m.Keys("unschedulable")) {
      if (m.now - m.pods.at(k).timestamp > kLeftoverNs) due.push_back(k);
    }
    if (!due.empty()) m.Move(due, true, "UnschedulableTimeout");
  }
  void run(const Model&, Sut& s) const override { s.queue->FlushUnschedulablePodsLeftover(); }
  void show(std::ostream& os) const override { os << "FlushLeftover"; }
};

struct DeletePod : Command {
  std::string name = *rc::gen::elementOf(kNames);
  void checkPreconditions(const Model& m) const override { RC_PRE(m.pods.count(Key(name)) > 0); }
  void apply(Model& m) const override { m.pods.erase(Key(name)); }
  void run(const Model&, Sut& s) const override {
    s.queue->Delete(*s.pods.at(Key(name)));
    s.pods.erase(Key(name));
  }
  void show(std::ostream& os) const override { os << "Delete(" << name << ")"; }
};

// A spec/label change: a gated pod loses its gate, any other pod gets a new label value.
struct UpdatePod : Command {
  std::string name = *rc::gen::elementOf(kNames);
  void checkPreconditions(const Model& m) const override { RC_PRE(m.pods.count(Key(name)) > 0); }
  void apply(Model& m) const override {
    ModelPod& p = m.pods.at(Key(name));
    p.version++;
    // Whether it is backing off is decided on the entry before the update (a gated entry never is).
    const bool backing_off = m.BackingOff(p);
    p.gated = false;
    if (p.sub != "unschedulable") return;  // updated in place
    if (backing_off) {
      m.Push(p, "backoff");
    } else {
      m.Push(p, "active");
    }
  }
  void run(const Model& m, Sut& s) const override {
    const ModelPod& p = m.pods.at(Key(name));
    PodPtr old_pod = s.pods.at(Key(name));
    s.pods[Key(name)] = MakePod(name, p.priority, false, p.version + 1);
    s.queue->Update(old_pod, s.pods[Key(name)]);
  }
  void show(std::ostream& os) const override { os << "Update(" << name << ")"; }
};

// After every command: the same pods in the same sub-queues, in the same order, with the same
// attempts and backoff expiries; a pending pod is in exactly one sub-queue.
void CheckAgainstModel(const Model& m, const Sut& s) {
  RC_ASSERT(s.queue->ActiveQKeys() == m.ActiveOrder());
  RC_ASSERT(s.queue->BackoffQKeys() == m.BackoffOrder());
  RC_ASSERT(s.queue->UnschedulableKeys() == m.Keys("unschedulable"));
  RC_ASSERT(s.queue->Len() == m.pods.size());
  for (const auto& [key, p] : m.pods) {
    int in = s.queue->InActiveQ(key) + s.queue->InBackoffQ(key) + s.queue->InUnschedulable(key);
    RC_ASSERT(in == 1);
    const reference::QueuedPodInfo* info = s.queue->Find(key);
    RC_ASSERT(info != nullptr);
    RC_ASSERT(info->attempts == p.attempts);
    RC_ASSERT(info->timestamp_ns == p.timestamp);
    RC_ASSERT(s.queue->BackoffExpiryNs(*info) == p.Expiry());
  }
}

template <typename Cmd>
struct Checked : Cmd {
  using Cmd::Cmd;
  void run(const Model& m, Sut& s) const override {
    Cmd::run(m, s);
    Model after = m;
    Cmd::apply(after);
    CheckAgainstModel(after, s);
  }
};

RC_GTEST_PROP(QueueModel, RealQueueFollowsTheModel, ()) {
  Sut sut;
  rc::state::check(Model{}, sut,
                   rc::state::gen::execOneOfWithArgs<
                       Checked<AddPod>, Checked<AddPod>, Checked<PopAttempt>, Checked<PopAttempt>,
                       Checked<MoveAll>, Checked<AdvanceClock>, Checked<FlushBackoff>,
                       Checked<FlushLeftover>, Checked<DeletePod>, Checked<UpdatePod>>());
}

}  // namespace
}  // namespace schedcheck::properties
