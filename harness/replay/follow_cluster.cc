#include "harness/replay/follow_cluster.h"

#include <algorithm>

#include "harness/replay/decision_log.h"

namespace schedcheck::replay {
namespace {

std::string PodKey(const k8s::Pod& pod) {
  return (pod.metadata().namespace_().empty() ? "default" : pod.metadata().namespace_()) + "/" +
         pod.metadata().name();
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

const char* FollowClassName(FollowClass c) {
  switch (c) {
    case FollowClass::kSameNode:
      return "same node";
    case FollowClass::kInTieSet:
      return "in the replay's tie set";
    case FollowClass::kOutsideTieSet:
      return "outside the replay's tie set";
    case FollowClass::kUnschedulable:
      return "unschedulable in the replay";
    case FollowClass::kNotAttempted:
      return "not attempted by the replay";
    case FollowClass::kNotComparable:
      return "not comparable";
  }
  return "?";
}

int64_t FollowReport::total() const {
  int64_t n = 0;
  for (int64_t c : counts) n += c;
  return n;
}

std::string FollowSummary(const FollowReport& report) {
  if (report.total() == 0) {
    return "following the cluster: the trace observed no binding, so the replay followed "
           "nothing (a capture imported with bindings stripped, the default of --from watch and "
           "kss, holds them)\n";
  }
  std::string out =
      "following the cluster: " + std::to_string(report.total()) + " bindings observed: ";
  bool first = true;
  for (int c = 0; c < kFollowClassCount; ++c) {
    if (report.counts[c] == 0) continue;
    out += (first ? "" : ", ") + std::to_string(report.counts[c]) + " " +
           FollowClassName(static_cast<FollowClass>(c));
    first = false;
  }
  out += "\n";
  for (const std::string& line : report.listed) out += "  " + line + "\n";
  if (report.unlisted > 0) out += "  ... " + std::to_string(report.unlisted) + " more\n";
  return out;
}

void ClusterFollower::NoteInput(const trace::ApiEvent& event) {
  if (!event.has_pod()) return;
  const std::string key = PodKey(event.pod());
  if (event.type() == trace::DELETED) {
    pods_.erase(key);
    return;
  }
  PodState& st = pods_[key];
  st.input = event;
  // A pod added already bound (another scheduler, a kept binding) is where its input says.
  if (st.bound.empty()) st.bound = event.pod().spec().node_name();
}

void ClusterFollower::NoteDecision(const trace::Record& record) {
  if (record.has_binding()) {
    auto it = pods_.find(record.binding().pod());
    if (it != pods_.end()) it->second.bound = record.binding().node();
    return;
  }
  if (!record.has_attempt()) return;
  const trace::Attempt& a = record.attempt();
  auto it = pods_.find(a.pod());
  if (it == pods_.end()) return;
  PodState& st = it->second;
  st.attempted = true;
  st.scheduled = a.result() == trace::SCHEDULED;
  st.chosen = st.scheduled ? a.node() : "";
  st.ties.assign(a.ties().begin(), a.ties().end());
  st.last_message = st.scheduled ? "" : a.message();
}

void ClusterFollower::Classify(FollowClass c, const std::string& line) {
  ++report_.counts[static_cast<int>(c)];
  if (line.empty()) return;
  if (report_.listed.size() < FollowReport::kMaxListed) {
    report_.listed.push_back(line);
  } else {
    ++report_.unlisted;
  }
}

void ClusterFollower::Follow(const trace::Binding& observed, int64_t t_ns,
                             std::vector<trace::ApiEvent>* events) {
  const std::string& key = observed.pod();
  const std::string& node = observed.node();
  const std::string at =
      key + " at t=" + FormatSeconds(t_ns) + "s: the cluster bound it to " + node;
  auto it = pods_.find(key);
  if (it == pods_.end()) {
    Classify(FollowClass::kNotComparable, at + "; the replay has no such pod");
    return;
  }
  PodState& st = it->second;
  if (st.bound == node) {
    Classify(FollowClass::kSameNode, "");
    return;
  }
  if (st.bound.empty() && st.scheduled) {
    // Assumed and being bound (a binding latency): the replay's own binding is still to come.
    Classify(FollowClass::kNotComparable,
             at + "; the replay chose " + st.chosen + " and was still binding it");
    return;
  }
  const bool moved = !st.bound.empty();
  if (moved) {
    const bool in_ties = std::find(st.ties.begin(), st.ties.end(), node) != st.ties.end();
    if (in_ties) {
      Classify(FollowClass::kInTieSet, "");
    } else {
      Classify(FollowClass::kOutsideTieSet,
               at + "; the replay bound it to " + st.bound + " (tie set: " +
                   Joined(st.ties.empty() ? std::vector<std::string>{st.bound} : st.ties) + ")");
    }
    trace::ApiEvent gone = st.input;
    gone.set_type(trace::DELETED);
    gone.mutable_pod()->mutable_spec()->set_node_name(st.bound);
    events->push_back(std::move(gone));
  } else if (st.attempted) {
    Classify(FollowClass::kUnschedulable, at + "; the replay found no node: " + st.last_message);
  } else {
    Classify(FollowClass::kNotAttempted, "");
  }
  trace::ApiEvent placed = st.input;
  placed.set_type(moved ? trace::ADDED : trace::MODIFIED);
  placed.set_during_attempt(false);
  placed.mutable_pod()->mutable_spec()->set_node_name(node);
  st.input = placed;
  st.bound = node;
  st.scheduled = false;
  events->push_back(std::move(placed));
}

}  // namespace schedcheck::replay

namespace schedcheck::replay {

void ClusterFollower::FollowInstant(const std::vector<const trace::Record*>& records, int64_t t_ns,
                                    std::deque<trace::ApiEvent>* made,
                                    std::vector<const trace::ApiEvent*>* events) {
  events->clear();
  std::vector<trace::ApiEvent> followed;
  for (const trace::Record* r : records) {
    if (r->has_api()) {
      NoteInput(r->api());
      events->push_back(&r->api());
      continue;
    }
    followed.clear();
    Follow(r->binding(), t_ns, &followed);
    for (trace::ApiEvent& e : followed) {
      made->push_back(std::move(e));
      events->push_back(&made->back());
    }
  }
}

}  // namespace schedcheck::replay
