#include "harness/replay/summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "harness/replay/decision_log.h"

namespace schedcheck::replay {
namespace {

struct PodStory {
  int64_t first_seen_ns = -1;
  int64_t bound_ns = -1;
  std::string node;
  int attempts = 0;
  bool gone = false;
  std::vector<std::string> path;
  int64_t unschedulable_since_ns = -1;
  std::set<std::string> last_rejectors;
};

std::string Seconds(int64_t ns) { return FormatSeconds(ns) + "s"; }

int64_t Percentile(std::vector<int64_t> v, int p) {
  std::sort(v.begin(), v.end());
  size_t i = (v.size() * static_cast<size_t>(p) + 99) / 100;
  return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The events in [from_ns, until_ns) for a pod rejected by `rejectors`, worded after who
// registered them: ", none registered by the rejecting plugins: NodeAdd@3s", or ", registered by
// a rejecting plugin but skipped by its QueueingHint (...): NodeUpdate@5s (TaintToleration); not
// registered by the rejecting plugins: ...", or without registrants ": NodeAdd@3s". "" if none.
std::string EventsMeanwhile(const ClusterEventLog& events,
                            const std::vector<std::set<std::string>>* registrants, int64_t from_ns,
                            int64_t until_ns, const std::set<std::string>& rejectors,
                            bool queueing_hints) {
  std::vector<std::string> skipped, unregistered, unknown;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& [t, label] = events[i];
    if (t < from_ns || t >= until_ns) continue;
    const std::string event = label + "@" + Seconds(t);
    if (registrants == nullptr || i >= registrants->size()) {
      unknown.push_back(event);
      continue;
    }
    std::vector<std::string> by;
    for (const std::string& plugin : (*registrants)[i]) {
      if (rejectors.count(plugin) > 0) by.push_back(plugin);
    }
    if (by.empty()) {
      unregistered.push_back(event);
    } else {
      skipped.push_back(event + " (" + Join(by) + ")");
    }
  }
  std::string out;
  if (!skipped.empty()) {
    out += queueing_hints
               ? ", registered by a rejecting plugin but skipped by its QueueingHint (or the "
                 "move's pre-check): "
               : ", registered by a rejecting plugin but kept by the move's pre-check (the "
                 "changed node would not fit the pod): ";
    out += Join(skipped);
  }
  if (!unregistered.empty()) {
    out += skipped.empty() ? ", none registered by the rejecting plugins: "
                           : "; not registered by the rejecting plugins: ";
    out += Join(unregistered);
  }
  if (!unknown.empty()) out += (out.empty() ? ": " : "; others: ") + Join(unknown);
  return out;
}

}  // namespace

std::string Summarize(const std::vector<trace::Record>& decisions, const ClusterEventLog& events,
                      const SummaryOptions& options) {
  std::map<std::string, PodStory> pods;
  std::map<std::string, int> causes;
  std::vector<std::string> flush_waits;
  int attempts = 0;
  for (const trace::Record& r : decisions) {
    if (r.has_queue()) {
      const trace::QueueTransition& q = r.queue();
      PodStory& s = pods[q.pod()];
      if (s.first_seen_ns < 0) s.first_seen_ns = r.time_ns();
      if (q.to() == "active" || q.to() == "backoff" || q.to() == "unschedulable")
        ++causes[q.cause()];
      if (q.to() != "inflight")
        s.path.push_back(q.to() + "(" + q.cause() + ")@" + Seconds(r.time_ns()));
      if (q.to() == "none") s.gone = true;
      if (q.to() == "unschedulable") s.unschedulable_since_ns = r.time_ns();
      if (q.from() == "unschedulable" && q.cause() == "UnschedulableTimeout" &&
          s.unschedulable_since_ns >= 0) {
        const std::string meanwhile =
            EventsMeanwhile(events, options.registrants, s.unschedulable_since_ns, r.time_ns(),
                            s.last_rejectors, options.queueing_hints);
        if (!meanwhile.empty()) {
          std::string rejectors;
          for (const std::string& p : s.last_rejectors)
            rejectors += (rejectors.empty() ? "" : ",") + p;
          flush_waits.push_back(q.pod() + ": unschedulable from " +
                                Seconds(s.unschedulable_since_ns) + " (rejected by " +
                                (rejectors.empty() ? "-" : rejectors) +
                                ") until the leftover flush at " + Seconds(r.time_ns()) +
                                "; cluster events meanwhile" + meanwhile);
        }
      }
    } else if (r.has_attempt()) {
      ++attempts;
      PodStory& s = pods[r.attempt().pod()];
      if (s.first_seen_ns < 0) s.first_seen_ns = r.time_ns();
      s.attempts = std::max(s.attempts, r.attempt().attempt());
      s.last_rejectors = {r.attempt().unschedulable_plugins().begin(),
                          r.attempt().unschedulable_plugins().end()};
      std::string what =
          r.attempt().result() == trace::SCHEDULED ? "scheduled:" + r.attempt().node() : "failed";
      s.path.push_back("attempt" + std::to_string(r.attempt().attempt()) + "(" + what + ")@" +
                       Seconds(r.time_ns()));
    } else if (r.has_binding()) {
      PodStory& s = pods[r.binding().pod()];
      s.bound_ns = r.time_ns();
      s.node = r.binding().node();
      s.path.push_back("bound:" + s.node + "@" + Seconds(r.time_ns()));
    }
  }
  int bound = 0, pending = 0, gone = 0;
  std::vector<int64_t> waits;
  for (const auto& [key, s] : pods) {
    if (s.bound_ns >= 0) {
      ++bound;
      waits.push_back(s.bound_ns - s.first_seen_ns);
    } else if (s.gone) {
      ++gone;
    } else {
      ++pending;
    }
  }
  std::ostringstream out;
  out << "pods through the queue: " << pods.size() << ", " << bound << " bound, " << pending
      << " pending, " << gone << " deleted before binding\n";
  out << "attempts: " << attempts << "\n";
  out << "queue moves by cause:";
  for (const auto& [cause, n] : causes) out << " " << cause << "=" << n;
  out << "\n";
  if (!waits.empty()) {
    out << "time to schedule (first queued to bound): p50 " << Seconds(Percentile(waits, 50))
        << ", p90 " << Seconds(Percentile(waits, 90)) << ", p99 " << Seconds(Percentile(waits, 99))
        << ", max " << Seconds(*std::max_element(waits.begin(), waits.end())) << "\n";
  }
  out << "waited for the periodic flush although the cluster changed meanwhile: "
      << flush_waits.size() << "\n";
  for (const std::string& w : flush_waits) out << "  " << w << "\n";
  out << "paths through the queue"
      << (pods.size() > options.max_paths ? " (first " + std::to_string(options.max_paths) + ")"
                                          : "")
      << ":\n";
  size_t shown = 0;
  for (const auto& [key, s] : pods) {
    if (shown++ == options.max_paths) break;
    out << "  " << key << ":";
    for (const std::string& step : s.path) out << " " << step;
    out << "\n";
  }
  return out.str();
}

}  // namespace schedcheck::replay
