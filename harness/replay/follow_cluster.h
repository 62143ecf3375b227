// Follow-the-cluster replays of captures (docs/FORMATS.md, "Following the cluster"). An open-loop
// replay lets the scheduler place every pod itself, so one legitimate tie-break that differs from
// the cluster's drifts the state and every later decision is compared on a cluster that never
// existed. Following the cluster, the replay still makes its own decision at each attempt, and
// then, at each binding the capture observed, puts its copy of the pod where the cluster put it:
// later decisions start from the cluster's actual placements.
//
// ClusterFollower is the bookkeeping both drivers share (the in-process Replayer and the
// external-scheduler protocol): it reads the input events and the replay's decisions, and turns an
// observed binding into the API events that apply it the way an informer-fed scheduler cache can
// take them:
//   - the replay bound the pod to the same node: nothing;
//   - the replay bound it elsewhere: the pod is deleted (from the replay's node) and added again,
//     bound to the cluster's node (a cache refuses an update that moves a bound pod);
//   - the replay has not bound it: an update that sets the cluster's node (another scheduler bound
//     it, as far as the replay can tell: the pod leaves the queue and enters the cache).
// Each observed binding is also classified (FollowClass) against the replay's last attempt.
#ifndef SCHEDCHECK_HARNESS_REPLAY_FOLLOW_CLUSTER_H_
#define SCHEDCHECK_HARNESS_REPLAY_FOLLOW_CLUSTER_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::replay {

// How the replay's own decision compares with the cluster's binding of the same pod.
enum class FollowClass {
  kSameNode,       // the replay bound the pod to the cluster's node
  kInTieSet,       // bound elsewhere; the cluster's node was among the replay's top-score ties
  kOutsideTieSet,  // bound elsewhere; the cluster's node was not among them
  kUnschedulable,  // the replay's last attempt found no node (or failed with an error)
  kNotAttempted,   // the replay had not attempted the pod when the cluster bound it
  kNotComparable,  // the replay cannot hold the cluster's binding (pod unknown or being bound)
};
inline constexpr int kFollowClassCount = 6;
// "same node", "in tie set", ... as the summary prints them.
const char* FollowClassName(FollowClass c);

struct FollowReport {
  std::array<int64_t, kFollowClassCount> counts{};
  // One line per pod outside the tie set, unschedulable in the replay, or not comparable: what the
  // replay did and what the cluster did (the first kMaxListed).
  std::vector<std::string> listed;
  int64_t unlisted = 0;
  static constexpr size_t kMaxListed = 50;

  int64_t count(FollowClass c) const { return counts[static_cast<int>(c)]; }
  int64_t total() const;
};

// The summary's lines: the counts per class, then the listed pods, or a line saying the trace
// observed no binding (nothing was followed).
std::string FollowSummary(const FollowReport& report);

class ClusterFollower {
 public:
  // An input event the replay is given (a pod's object is remembered until it is deleted).
  void NoteInput(const trace::ApiEvent& event);
  // A decision record of the replay (attempts and bindings; others are ignored).
  void NoteDecision(const trace::Record& record);
  // The capture's binding `observed` at `t_ns` (seconds of the trace, for the report): classifies
  // it and appends the API events that put the replay's copy of the pod on the cluster's node
  // (none when it is there already or cannot be moved). The driver delivers them and does not
  // pass them to NoteInput: the follower has applied them already.
  void Follow(const trace::Binding& observed, int64_t t_ns, std::vector<trace::ApiEvent>* events);

  // One instant of the input (its API events and observed bindings, in trace order): notes the
  // events and follows the bindings. `events` is set to everything to deliver, in order: each
  // input event itself, and for each binding the events Follow made of it, kept in `made` (a
  // deque, so their addresses stay).
  void FollowInstant(const std::vector<const trace::Record*>& records, int64_t t_ns,
                     std::deque<trace::ApiEvent>* made,
                     std::vector<const trace::ApiEvent*>* events);

  const FollowReport& report() const { return report_; }

 private:
  struct PodState {
    trace::ApiEvent input;  // the pod's last input event (an ADDED or MODIFIED)
    std::string bound;      // the node of the replay's binding ("" until bound)
    bool attempted = false;
    bool scheduled = false;  // the last attempt chose a node (its binding may still be pending)
    std::string chosen;      // that node
    std::vector<std::string> ties;
    std::string last_message;  // the last unschedulable attempt's message
  };
  void Classify(FollowClass c, const std::string& line);

  std::map<std::string, PodState> pods_;
  FollowReport report_;
};

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_FOLLOW_CLUSTER_H_
