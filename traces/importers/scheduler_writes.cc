#include "traces/importers/scheduler_writes.h"

#include <algorithm>

#include <google/protobuf/util/message_differencer.h>

namespace schedcheck::trace {
namespace {

bool IsPreemptionTarget(const k8s::PodCondition& c) {
  return c.type() == "DisruptionTarget" && c.reason() == "PreemptionByScheduler";
}

bool IsSchedulerCondition(const k8s::PodCondition& c) {
  return c.type() == "PodScheduled" || IsPreemptionTarget(c);
}

bool Terminal(const std::string& phase) { return phase == "Succeeded" || phase == "Failed"; }

std::string Str(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// "namespace/name" of an object reference ("default" for an empty namespace); "" without a name.
std::string RefKey(const nlohmann::json& event, const char* key) {
  auto it = event.find(key);
  if (it == event.end() || !it->is_object() || Str(*it, "name").empty()) return "";
  const std::string ns = Str(*it, "namespace");
  return (ns.empty() ? "default" : ns) + "/" + Str(*it, "name");
}

// The word after `marker` in `text` (up to a space, or a final period), "" when absent.
std::string WordAfter(const std::string& text, const std::string& marker) {
  size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  at += marker.size();
  size_t end = text.find(' ', at);
  std::string word = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  while (!word.empty() && word.back() == '.') word.pop_back();
  return word;
}

}  // namespace

SchedulerFields SchedulerFieldsOf(const k8s::Pod& pod) {
  SchedulerFields f;
  f.nominated_node = pod.status().nominated_node_name();
  for (const k8s::PodCondition& c : pod.status().conditions()) {
    if (c.type() == "PodScheduled") {
      f.scheduled_status = c.status();
      f.scheduled_reason = c.reason();
      f.scheduled_message = c.message();
    }
    f.preemption_target |= IsPreemptionTarget(c);
  }
  f.deleting = !pod.metadata().deletion_timestamp().empty();
  return f;
}

void KeepInputFields(const k8s::Pod& input, const KeepFromInput& keep, k8s::Pod* pod) {
  k8s::PodStatus* status = pod->mutable_status();
  if (keep.status) {
    const std::string phase = status->phase();
    *status = input.status();
    if (Terminal(phase)) status->set_phase(phase);
  } else {
    status->set_nominated_node_name(input.status().nominated_node_name());
    auto* conditions = status->mutable_conditions();
    conditions->erase(
        std::remove_if(conditions->begin(), conditions->end(),
                       [](const k8s::PodCondition& c) { return IsSchedulerCondition(c); }),
        conditions->end());
    for (const k8s::PodCondition& c : input.status().conditions()) {
      if (IsSchedulerCondition(c)) *conditions->Add() = c;
    }
  }
  if (keep.deletion_mark) {
    pod->mutable_metadata()->set_deletion_timestamp(input.metadata().deletion_timestamp());
  }
  if (keep.node_name) pod->mutable_spec()->set_node_name(input.spec().node_name());
}

bool SameInput(const k8s::Pod& a, const k8s::Pod& b) {
  auto normalized = [](const k8s::Pod& pod) {
    k8s::Pod out = pod;
    out.mutable_metadata()->clear_resource_version();
    auto* conditions = out.mutable_status()->mutable_conditions();
    std::stable_sort(
        conditions->begin(), conditions->end(),
        [](const k8s::PodCondition& x, const k8s::PodCondition& y) { return x.type() < y.type(); });
    return out;
  };
  return google::protobuf::util::MessageDifferencer::Equals(normalized(a), normalized(b));
}

SchedulerEvent ParseSchedulerEvent(const nlohmann::json& event) {
  SchedulerEvent out;
  const std::string reason = Str(event, "reason");
  if (reason == "FailedScheduling") {
    out.reason = SchedulerEvent::Reason::kFailedScheduling;
  } else if (reason == "Preempted") {
    out.reason = SchedulerEvent::Reason::kPreempted;
  } else if (reason == "Scheduled") {
    out.reason = SchedulerEvent::Reason::kScheduled;
  } else {
    return out;
  }
  for (const char* key : {"involvedObject", "regarding"}) {
    if (std::string pod = RefKey(event, key); !pod.empty()) {
      out.pod = pod;
      out.pod_uid = Str(event[key], "uid");
    }
  }
  out.related = RefKey(event, "related");
  out.message = !Str(event, "message").empty() ? Str(event, "message") : Str(event, "note");
  if (out.pod.empty()) {
    out.reason = SchedulerEvent::Reason::kNone;
  } else if (out.reason == SchedulerEvent::Reason::kPreempted) {
    out.node = WordAfter(out.message, " on node ");
    const std::string uid = WordAfter(out.message, "Preempted by pod ");
    if (uid != "on") out.related_uid = uid;
  } else if (out.reason == SchedulerEvent::Reason::kScheduled) {
    out.node = WordAfter(out.message, " to ");
    if (out.node.empty()) out.reason = SchedulerEvent::Reason::kNone;
  }
  return out;
}

}  // namespace schedcheck::trace
