// The runner of `kind: queue` cases' ops (docs/FORMATS.md#conformance-case-files): one queue of
// the case's level, built by NewSchedulingQueue and driven only through SchedulingQueueInterface,
// but for the v1.27 queue's test hooks (addUnschedulable, addBackoff, a timestamp offset on add,
// expectBackoff's backoffSeconds), which write or read its sub-queues as upstream's v1.27 tests do.
// run_queue.cc builds the runner from the case.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_RUNNER_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_RUNNER_H_

#include <map>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/check/case.h"
#include "harness/check/cluster.h"
#include "harness/check/queue_op_fields.h"
#include "reference/base/clock.h"
#include "reference/base/compat_level.h"
#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/queue/new_scheduling_queue.h"
#include "reference/queue/scheduling_queue.h"

namespace schedcheck::check {

struct QueueRunnerConfig {
  reference::CompatLevel level;
  reference::QueueOptions options;
  reference::QueueSetup setup;
  reference::QueueEnvironment environment;
};

class QueueCaseRunner {
 public:
  // `cluster`: the v1.27 case's nodes and pods (event ops name its nodes); null at 1.37.
  QueueCaseRunner(const Case& c, const Cluster* cluster, QueueRunnerConfig config);

  // "" when every op ran and every expectation held; else "ops[i] (op): what differed". An error
  // is a malformed op (bad input), naming the op index and field.
  Result<std::string> Run(const nlohmann::json& ops);

 private:
  Result<std::string> RunOp(const std::string& name, const OpFields& op);
  Result<std::string> RunTestHook(const std::string& name, const OpFields& op);
  Result<std::string> Update(const OpFields& op);
  Result<std::string> Pop(const OpFields& op);
  Result<std::string> Failed(const OpFields& op);
  Result<std::string> Event(const OpFields& op);
  Result<std::string> Activate(const OpFields& op);
  Result<std::string> ExpectQueues(const OpFields& op) const;
  Result<std::string> ExpectActiveQ(const OpFields& op) const;
  Result<std::string> ExpectBackoff(const OpFields& op) const;
  Result<std::string> AdvanceClock(const OpFields& op);

  // Now plus queueTimestampOffsetSeconds: within ±2 kMaxQueueCaseSeconds, as the clock is bounded.
  Result<int64_t> TimestampFor(const OpFields& op) const;
  // A pod given inline (from now on the latest object of its key; `replaced`, when given, gets
  // the object it replaced or null) or as "ns/name" (the latest object given for that key).
  Result<reference::PodPtr> PodArg(const nlohmann::json& v, const std::string& field,
                                   reference::PodPtr* replaced = nullptr);
  Result<reference::PodPtr> PodArg(const OpFields& op, const char* name);
  Result<std::set<std::string>> Names(const OpFields& op, const char* name) const;

  const Case& c_;
  const Cluster* cluster_;
  reference::CompatLevel level_;
  reference::Features features_;  // the case's level (queue cases set no gates)
  VirtualClock clock_;
  reference::ClusterObjects objects_;
  std::unique_ptr<reference::SchedulingQueueInterface> queue_;
  // The v1.27 queue's test hooks; null at other levels.
  reference::SchedulingQueue* v1_27_ = nullptr;
  std::map<std::string, reference::PodPtr> pods_;              // latest object per key
  std::map<std::string, reference::QueuedPodInfo> in_flight_;  // popped, attempt not ended
};

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_RUNNER_H_
