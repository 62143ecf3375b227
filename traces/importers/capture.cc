#include "traces/importers/capture.h"

#include <algorithm>

#include "reference/api/rfc3339.h"
#include "traces/importers/api_validation.h"
#include "traces/importers/observations.h"
#include "traces/importers/scheduler_writes.h"
#include "traces/importers/workloads.h"

namespace schedcheck::trace {
namespace {

std::string Str(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// The RFC 3339 time at `path` inside `obj`; nullopt when absent, null or empty.
Result<std::optional<int64_t>> TimeAt(const nlohmann::json& obj,
                                      const std::vector<const char*>& path,
                                      const std::string& where) {
  const nlohmann::json* node = &obj;
  std::string field;
  for (const char* key : path) {
    field += field.empty() ? key : std::string(".") + key;
    if (!node->is_object()) return std::optional<int64_t>();
    auto it = node->find(key);
    if (it == node->end() || it->is_null()) return std::optional<int64_t>();
    node = &*it;
  }
  if (!node->is_string())
    return Error{where + ": field " + field + ": expected an RFC 3339 string"};
  if (node->get_ref<const std::string&>().empty()) return std::optional<int64_t>();
  auto t = reference::ParseRfc3339(node->get<std::string>());
  if (!t.ok()) return Error{where + ": field " + field + ": " + t.message()};
  return std::optional<int64_t>(*t);
}

// The latest of metadata.managedFields[].time and status.conditions[].lastTransitionTime.
Result<std::optional<int64_t>> LatestChange(const nlohmann::json& obj, const std::string& where) {
  std::optional<int64_t> latest;
  auto scan = [&](const char* parent, const char* list, const char* key) -> Outcome {
    if (!obj.contains(parent) || !obj[parent].is_object() || !obj[parent].contains(list))
      return Outcome::Ok();
    const nlohmann::json& items = obj[parent][list];
    if (!items.is_array()) return Outcome::Ok();
    for (size_t i = 0; i < items.size(); ++i) {
      auto t = TimeAt(items[i], {key},
                      where + ": field " + parent + "." + list + "[" + std::to_string(i) + "]");
      if (!t.ok()) return t.error();
      if (*t && (!latest || **t > *latest)) latest = *t;
    }
    return Outcome::Ok();
  };
  if (Outcome ok = scan("metadata", "managedFields", "time"); !ok) return ok.error();
  if (Outcome ok = scan("status", "conditions", "lastTransitionTime"); !ok) return ok.error();
  return latest;
}

// Rule 2 of capture.h.
Result<std::optional<int64_t>> ObjectTime(const nlohmann::json& obj, EventType type,
                                          const std::string& kind, const std::string& where) {
  std::vector<std::vector<const char*>> paths;
  if (kind == "Event") {
    paths = {{"lastTimestamp"},
             {"eventTime"},
             {"series", "lastObservedTime"},
             {"deprecatedLastTimestamp"},
             {"firstTimestamp"}};
  } else if (type == ADDED) {
    paths = {{"metadata", "creationTimestamp"}};
  } else if (type == DELETED) {
    paths = {{"metadata", "deletionTimestamp"}};
  }
  for (const auto& path : paths) {
    auto t = TimeAt(obj, path, where);
    if (!t.ok() || *t) return t;
  }
  return LatestChange(obj, where);
}

std::string PodKey(const k8s::Pod& pod) {
  const std::string& ns = pod.metadata().namespace_();
  return (ns.empty() ? "default" : ns) + "/" + pod.metadata().name();
}

}  // namespace

CaptureBuilder::CaptureBuilder(const ImportOptions& options)
    : options_(options), redactor_(options.keep_annotations) {}

void CaptureBuilder::BeginFile(const std::string& path) {
  if (out_of_order_in_file_ > 0) {
    Warn(file_ + ": " + std::to_string(out_of_order_in_file_) +
         " events earlier than the event before them (first at " + first_out_of_order_ +
         "); sorted stably by time");
    AddToLabel(&imported_, "sorted.out_of_order", out_of_order_in_file_);
  }
  file_ = path;
  last_time_in_file_.reset();
  out_of_order_in_file_ = 0;
  first_out_of_order_.clear();
}

void CaptureBuilder::NoteTime(const std::string& where, int64_t time) {
  if (last_time_in_file_ && time < *last_time_in_file_ && out_of_order_in_file_++ == 0)
    first_out_of_order_ = where;
  last_time_in_file_ = time;
}

Outcome CaptureBuilder::Add(CapturedEvent event) {
  if (!event.object.is_object())
    return Error{event.where + ": field object: expected a Kubernetes object"};
  const std::string kind = Str(event.object, "kind");
  if (kind.empty()) return Error{event.where + ": field object.kind: missing"};
  Item item;
  item.time_ns = event.explicit_time;
  if (!item.time_ns) {
    auto t = ObjectTime(event.object, event.type, kind, event.where + ": object");
    if (!t.ok()) return t.error();
    item.time_ns = *t ? *t : last_time_in_file_;
  }
  if (kind == "Event") {
    const SchedulerEvent e =
        event.type == DELETED ? SchedulerEvent{} : ParseSchedulerEvent(event.object);
    switch (e.reason) {
      case SchedulerEvent::Reason::kNone:
        redactor_.SkipKind("Event");
        return Outcome::Ok();
      case SchedulerEvent::Reason::kFailedScheduling: {
        Attempt* attempt = item.record.mutable_attempt();
        attempt->set_pod(e.pod);
        attempt->set_result(UNSCHEDULABLE);
        attempt->set_message(e.message);
        attempt->set_observed(true);
        AddToLabel(&imported_, "observed.failed_scheduling", 1);
        break;
      }
      case SchedulerEvent::Reason::kPreempted: {
        Preemption* p = item.record.mutable_preemption();
        p->set_victim(e.pod);
        p->set_preemptor(e.related);
        p->set_node(e.node);
        p->set_observed(true);
        item.preemptor_uid = e.related_uid;
        AddToLabel(&imported_, "observed.preempted_events", 1);
        break;
      }
      case SchedulerEvent::Reason::kScheduled:
        item.record.mutable_binding()->set_pod(e.pod);
        item.record.mutable_binding()->set_node(e.node);
        item.record.mutable_binding()->set_observed(true);
        AddToLabel(&imported_, "observed.scheduled_events", 1);
        break;
    }
    item.event_reason = e.reason;
    item.event_pod = e.pod;
    item.event_pod_uid = e.pod_uid;
    return Keep(std::move(item), event.where);
  }
  // A workload's first event: expanded in Finish, right after the object's own event (if kept).
  std::optional<Item> workload;
  if (IsWorkloadKind(kind) && event.type != DELETED) {
    // Every write the API server accepted passed its validation: one it would refuse is an error.
    if (Outcome ok = ValidateWorkload(event.object, kind, event.where + ": object"); !ok) return ok;
    if (seen_workloads_.insert(WorkloadKeyOf(event.object)).second) {
      workload = item;
      workload->workload = event.object;
      workload->where = event.where;
    }
  }
  if (!IsTraceKind(kind)) {
    if (IsWorkloadKind(kind)) {
      redactor_.ReadWorkloadKind(kind);  // the object itself is not kept; its pods are
      if (workload) items_.push_back(std::move(*workload));
      return Outcome::Ok();
    }
    if (warned_kinds_.insert(kind).second) {
      Warn(event.where + ": skipping objects of kind " + kind +
           " (not held by the trace; counted in skipped.kinds)");
    }
    redactor_.SkipKind(kind);
    return Outcome::Ok();
  }
  ApiEvent* api = item.record.mutable_api();
  api->set_type(event.type);
  api->set_during_attempt(event.during_attempt);
  if (Outcome ok = redactor_.Decode(event.object, kind, event.where + ": object", api); !ok)
    return ok;
  if (Outcome ok = Keep(std::move(item), event.where); !ok) return ok;
  if (workload) items_.push_back(std::move(*workload));
  return Outcome::Ok();
}

Outcome CaptureBuilder::SetServerVersion(const nlohmann::json& version, const std::string& where) {
  if (!version.is_object())
    return Error{where + ": field serverVersion: expected an object (kubectl version -o json)"};
  const std::string git = Str(version, "gitVersion");
  std::string major = Str(version, "major"), minor = Str(version, "minor");
  if (git.empty() && (major.empty() || minor.empty()))
    return Error{where + ": field serverVersion.gitVersion: missing"};
  if (major.empty() || minor.empty()) {  // "v1.37.2": major and minor from gitVersion
    const size_t dot = git.find('.');
    major = git.substr(git[0] == 'v' ? 1 : 0, dot == std::string::npos ? 0 : dot - 1);
    minor = dot == std::string::npos ? "" : git.substr(dot + 1, git.find('.', dot + 1) - dot - 1);
  }
  while (!minor.empty() && minor.back() == '+') minor.pop_back();  // "27+" on some providers
  const std::string level = major + "." + minor;
  const std::string shown = git.empty() ? level : git;
  if (!imported_.compat.empty() && imported_.compat_source != "server version " + shown) {
    Warn(where + ": a second server version " + shown + " (first: " + imported_.compat_source +
         "); the first is kept");
    return Outcome::Ok();
  }
  imported_.labels["server_version"] = shown;
  if (level != "1.27" && level != "1.37") {
    Warn(where + ": server version " + shown +
         " has no compatibility level here (implemented: 1.27, 1.37); the trace says 1.27 unless "
         "--compat says otherwise");
    return Outcome::Ok();
  }
  imported_.compat = level;
  imported_.compat_source = "server version " + shown;
  return Outcome::Ok();
}

Outcome CaptureBuilder::Keep(Item item, const std::string& where) {
  if (static_cast<int64_t>(items_.size()) >= options_.limits.records) {
    return TooManyRecords(where, options_.limits.records);
  }
  if (!FitsTrivially(item.record, item.record.ByteSizeLong(), options_.limits)) {
    if (Outcome ok = CheckMessageLimits(item.record, options_.limits, where); !ok) return ok;
  }
  if (item.time_ns) {
    // Times become nanoseconds since the earliest event (Finalize): the span must fit in int64.
    const int64_t t = *item.time_ns;
    const int64_t lo = earliest_time_ ? std::min(*earliest_time_, t) : t;
    const int64_t hi = latest_time_ ? std::max(*latest_time_, t) : t;
    int64_t span = 0;
    if (__builtin_sub_overflow(hi, lo, &span)) {
      return Error{where + ": time " + reference::FormatRfc3339(t) +
                   ": more than 292 years from another event of the capture (" +
                   reference::FormatRfc3339(t == lo ? hi : lo) + ")"};
    }
    earliest_time_ = lo;
    latest_time_ = hi;
    NoteTime(where, t);
  }
  item.parked = item.record.SerializeAsString();
  item.record = Record();
  item.is_parked = true;
  items_.push_back(std::move(item));
  return Outcome::Ok();
}

Record CaptureBuilder::Unpark(Item& item) {
  if (!item.is_parked) return std::move(item.record);
  Record r;
  // Bytes this builder serialized itself: they parse.
  (void)parser_.Parse(item.parked.data(), item.parked.size(), &r);
  std::string().swap(item.parked);
  item.is_parked = false;
  return r;
}

Outcome CaptureBuilder::ResolveBindings(std::vector<Item> items,
                                        const std::function<Outcome(Record&&)>& emit) {
  ObservationResolver resolver(options_.strip_bindings, &imported_, emit);
  for (const Item& item : items) {
    if (item.event_reason != SchedulerEvent::Reason::kNone)
      resolver.NoteEvent(item.event_reason, item.event_pod, item.event_pod_uid);
  }
  for (Item& item : items) {
    Record r = Unpark(item);
    r.set_time_ns(*item.time_ns);
    if (Outcome ok = resolver.Next(std::move(r), item.preemptor_uid); !ok) return ok;
  }
  return Outcome::Ok();
}

Result<std::vector<CaptureBuilder::Item>> CaptureBuilder::ExpandWorkloads(std::vector<Item> items) {
  // Most captures hold the workloads' pods, or no workload at all: nothing to track then.
  if (std::none_of(items.begin(), items.end(), [](const Item& i) { return i.workload; })) {
    return items;
  }
  for (Item& item : items) item.record = Unpark(item);  // workloads read the objects
  GivenOwners owners;
  for (const Item& item : items) {
    if (item.workload || !item.record.has_api()) continue;
    if (item.record.api().has_pod()) owners.AddPod(item.record.api().pod().metadata());
    if (item.record.api().has_replica_set())
      owners.AddReplicaSet(item.record.api().replica_set().metadata());
    // A captured claim of any time: the controller made it (or found it), so it is not made again.
    if (item.record.api().has_persistent_volume_claim())
      owners.AddClaim(item.record.api().persistent_volume_claim().metadata());
  }
  std::map<std::string, k8s::Node> nodes;  // alive at the current item's time
  std::vector<Item> out;
  int64_t expanded = 0;          // pods, for the label
  int64_t expanded_objects = 0;  // everything expansions made, for limits.expanded_objects
  for (Item& item : items) {
    if (!item.workload) {
      if (item.record.has_api() && item.record.api().has_node()) {
        const k8s::Node& node = item.record.api().node();
        if (item.record.api().type() == DELETED) {
          nodes.erase(node.metadata().name());
        } else {
          nodes[node.metadata().name()] = node;
        }
      }
      out.push_back(std::move(item));
      continue;
    }
    if (owners.Has(*item.workload)) continue;  // its pods are in the capture: keep those
    std::vector<k8s::Node> alive;
    for (const auto& [name, node] : nodes) alive.push_back(node);
    auto objects = ExpandWorkload(
        *item.workload, item.where + ": object", alive,
        RoomFor(options_.limits, static_cast<int64_t>(out.size()), expanded_objects));
    if (!objects.ok()) return objects.error();
    expanded_objects += static_cast<int64_t>(objects->size());
    for (const nlohmann::json& obj : *objects) {
      if (owners.HasClaim(obj)) continue;  // captured: the controller would use that claim
      Item made;
      made.time_ns = item.time_ns;
      ApiEvent* api = made.record.mutable_api();
      api->set_type(ADDED);
      const std::string kind = obj.value("kind", "");
      if (Outcome ok = redactor_.Decode(
              obj, kind, item.where + ": " + kind + " " + obj["metadata"].value("name", ""), api);
          !ok) {
        return ok.error();
      }
      expanded += kind == "Pod" ? 1 : 0;
      out.push_back(std::move(made));
      // Expanded objects count against the records limit as captured ones do (Keep).
      if (static_cast<int64_t>(out.size()) > options_.limits.records) {
        return TooManyRecords(item.where, options_.limits.records);
      }
    }
  }
  if (expanded > 0) AddToLabel(&imported_, "expanded.pods", expanded);
  return out;
}

Result<std::vector<CaptureBuilder::Item>> CaptureBuilder::SortedItems() {
  BeginFile("");
  std::optional<int64_t> earliest;
  int64_t untimed = 0;
  for (const Item& item : items_) {
    if (item.time_ns && (!earliest || *item.time_ns < *earliest)) earliest = item.time_ns;
    untimed += item.time_ns ? 0 : 1;
  }
  if (untimed > 0) {
    Warn(std::to_string(untimed) +
         " events have no time (no explicit time, none in the object, none before them in their "
         "file); placed at the earliest time");
    AddToLabel(&imported_, "assumed.times", untimed);
  }
  for (Item& item : items_) {
    if (!item.time_ns) item.time_ns = earliest ? *earliest : options_.start_unix_ns.value_or(0);
  }
  std::stable_sort(items_.begin(), items_.end(),
                   [](const Item& a, const Item& b) { return *a.time_ns < *b.time_ns; });
  return ExpandWorkloads(std::move(items_));
}

Result<Imported> CaptureBuilder::Finish() && {
  // The streamed records are Finalize's: in time order already, its sort would change nothing.
  std::vector<Record> records;
  auto imported = std::move(*this).FinishStreaming([&records](Record&& r) {
    records.push_back(std::move(r));
    return Outcome::Ok();
  });
  if (imported.ok()) imported->records = std::move(records);
  return imported;
}

Result<Imported> CaptureBuilder::FinishStreaming(const std::function<Outcome(Record&&)>& write) && {
  auto items = SortedItems();
  if (!items.ok()) return items.error();
  // ResolveBindings keeps the items' time order, so Finalize's sort would change nothing.
  auto finalizer = Finalizer::Start(
      options_.start_unix_ns,
      items->empty() ? std::nullopt : std::optional<int64_t>(*items->front().time_ns));
  if (!finalizer.ok()) return finalizer.error();
  Outcome ok = ResolveBindings(std::move(*items), [&](Record&& r) {
    if (Outcome ok = finalizer->Next(&r); !ok) return ok;
    return write(std::move(r));
  });
  if (!ok) return ok.error();
  redactor_.AddLabels(&imported_);
  finalizer->End(&imported_);
  return std::move(imported_);
}

}  // namespace schedcheck::trace
