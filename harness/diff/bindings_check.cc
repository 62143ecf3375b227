#include "harness/diff/bindings_check.h"

#include <map>

#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

struct Scheduled {
  std::string node;
  int32_t attempt = 0;
  size_t index = 0;
};

}  // namespace

Outcome CheckBindings(const std::vector<trace::Record>& log,
                      const std::function<std::string(size_t)>& where) {
  std::map<std::string, Scheduled> last;  // each pod's latest Scheduled attempt
  std::map<std::string, size_t> unbound;  // pods scheduled, not yet bound nor failed: index
  size_t binds = 0;
  for (size_t i = 0; i < log.size(); ++i) {
    const trace::Record& r = log[i];
    if (r.has_attempt() && !r.attempt().observed()) {
      const trace::Attempt& a = r.attempt();
      if (a.result() == trace::SCHEDULED) {
        last[a.pod()] = {a.node(), a.attempt(), i};
        unbound[a.pod()] = i;
      } else {
        unbound.erase(a.pod());  // an Error after Scheduled: the binding cycle failed
      }
      continue;
    }
    if (!r.has_binding() || r.binding().observed()) continue;
    const trace::Binding& b = r.binding();
    ++binds;
    auto it = last.find(b.pod());
    if (it == last.end()) {
      return Error{where(i) + ": pod " + b.pod() + " is bound to " + b.node() +
                   " at t=" + replay::FormatSeconds(r.time_ns()) +
                   ", but no attempt before it scheduled the pod: the log's bindings contradict "
                   "its attempts (an edited or truncated log?), so it is not compared"};
    }
    if (it->second.node != b.node()) {
      return Error{where(i) + ": pod " + b.pod() + " is bound to " + b.node() +
                   ", but its attempt " + std::to_string(it->second.attempt) + " (" +
                   where(it->second.index) + ") scheduled it to " + it->second.node +
                   ": the log's bindings contradict its attempts, so it is not compared"};
    }
    unbound.erase(b.pod());
  }
  if (binds == 0 && !unbound.empty()) {
    // The earliest attempt left without a binding names the log's first problem.
    size_t first = log.size();
    std::string pod;
    for (const auto& [p, index] : unbound) {
      if (index < first) first = index, pod = p;
    }
    return Error{where(first) + ": pod " + pod + " was scheduled to " + last[pod].node +
                 ", but the log has no bind record at all (" + std::to_string(unbound.size()) +
                 " scheduled pod(s) never bound): a replay's log records every completed "
                 "binding, so this one is cut or edited and is not compared"};
  }
  return Outcome::Ok();
}

}  // namespace schedcheck::diff
