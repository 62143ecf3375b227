#include "harness/diff/agreement.h"

#include <algorithm>
#include <vector>

namespace schedcheck::diff {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

bool Agrees(const Placement& reference, const trace::Attempt* side) {
  if (side == nullptr) return false;
  if (reference.bound) {
    if (side->result() != trace::SCHEDULED) return false;
    if (reference.ties.empty()) return side->node() == reference.node;
    return std::find(reference.ties.begin(), reference.ties.end(), side->node()) !=
           reference.ties.end();
  }
  if (side->result() != trace::UNSCHEDULABLE) return false;
  std::vector<std::string> plugins(side->unschedulable_plugins().begin(),
                                   side->unschedulable_plugins().end());
  std::sort(plugins.begin(), plugins.end());
  return plugins == reference.plugins;
}

std::string AgreementText(const std::string& who, const std::string& pod,
                          const Placement& reference, const trace::Attempt* a,
                          const trace::Attempt* b, const SideNames& names) {
  std::string out = who;
  out += reference.bound
             ? " places pod " + pod + " on " + reference.node + " (ties {" + Join(reference.ties) +
                   "})"
             : " finds pod " + pod + " unschedulable by [" + Join(reference.plugins) + "]";
  const bool with_a = Agrees(reference, a), with_b = Agrees(reference, b);
  out += ": agrees with ";
  if (with_a && with_b) {
    out += "both";
  } else if (with_a || with_b) {
    out += "the " + (with_a ? names.a : names.b);
  } else {
    out += "neither";
    if (reference.bound) out += " (its tie set: {" + Join(reference.ties) + "})";
  }
  return out + "\n";
}

const trace::Attempt* AttemptAtIndex(const std::vector<trace::Record>& log, int64_t index) {
  if (index < 0 || static_cast<size_t>(index) >= log.size()) return nullptr;
  return log[index].has_attempt() ? &log[index].attempt() : nullptr;
}

}  // namespace schedcheck::diff
