// The part of the watch and kss importers that does not depend on the file format: the event time
// rule, kind dispatch with redaction, FailedScheduling Events, merging several files by time, and
// turning a pending pod's nodeName becoming set into an observed binding (README.md "watch"), and
// workloads without captured pods expanded into pods (README.md "Workloads").
//
// Event time rule (first that applies):
//  1. the capture's explicit time (watch: a top-level "time" beside "type" and "object"; kss:
//     the record's "time");
//  2. from the object: core/v1 Event → lastTimestamp, eventTime, series.lastObservedTime,
//     deprecatedLastTimestamp, firstTimestamp; ADDED → metadata.creationTimestamp; DELETED →
//     metadata.deletionTimestamp; then (any type) the latest of metadata.managedFields[].time and
//     status.conditions[].lastTransitionTime;
//  3. the previous imported event's time in the same file (skipped kinds do not count);
//  4. the earliest time found anywhere in the input (t = 0 when there is none).
#ifndef SCHEDCHECK_TRACES_IMPORTERS_CAPTURE_H_
#define SCHEDCHECK_TRACES_IMPORTERS_CAPTURE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "traces/fast_record_parser.h"
#include "traces/importers/imported.h"
#include "traces/importers/redaction.h"
#include "traces/importers/scheduler_writes.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {

struct CapturedEvent {
  EventType type = ADDED;
  nlohmann::json object;                 // the Kubernetes object as captured
  std::string where;                     // "file: line N" for messages
  std::optional<int64_t> explicit_time;  // Unix ns (rule 1)
  bool during_attempt = false;           // "duringAttempt": docs/FORMATS.md#replay-conventions
};

class CaptureBuilder {
 public:
  explicit CaptureBuilder(const ImportOptions& options);

  // Starts the next input file (rule 3 and out-of-order reports are per file).
  void BeginFile(const std::string& path);
  // Adds one ADDED / MODIFIED / DELETED event. Errors (bad times, undecodable objects) name
  // event.where and the field.
  Outcome Add(CapturedEvent event);
  // Counters for stream entries that carry no object change.
  void CountIgnored(const std::string& label) { AddToLabel(&imported_, label, 1); }
  void Warn(std::string message) { imported_.warnings.push_back(std::move(message)); }
  // A `kubectl version -o json` object (its serverVersion): the level of the capture. Errors name
  // `where` and the field; a version without a level here is a warning (`import --compat`).
  Outcome SetServerVersion(const nlohmann::json& version, const std::string& where);

  // Sorts, detects observed bindings, applies --strip-bindings, and finalizes.
  Result<Imported> Finish() &&;
  // The same, but each finished record goes to `write` (in trace order) instead of into the
  // result's records, which stay empty: a day's capture parsed would not fit in memory twice.
  // Labels and warnings are complete only when it returns.
  Result<Imported> FinishStreaming(const std::function<Outcome(Record&&)>& write) &&;

 private:
  struct Item {
    std::optional<int64_t> time_ns;
    // api, or an observation from an Event: an attempt (FailedScheduling), a preemption
    // (Preempted) or a binding (Scheduled). Keep parks it:
    // `parked` holds it serialized until Finish, since parsed a node update takes about eight
    // times the bytes and a day's capture is a million events.
    Record record;
    std::string parked;
    // For a scheduler's Event: its reason and the pod it is about (read before the records are).
    SchedulerEvent::Reason event_reason = SchedulerEvent::Reason::kNone;
    std::string event_pod, event_pod_uid;
    // A Preempted Event naming its preemptor by uid only: resolved in ResolveBindings.
    std::string preemptor_uid;
    bool is_parked = false;
    // Set instead of `record` for a workload's first event: expanded in Finish.
    std::optional<nlohmann::json> workload;
    std::string where;
  };
  Outcome AddEvent(CapturedEvent& event, int64_t* time, bool* has_time);
  // Checks `item` against options_.limits (errors name `where`), then keeps it.
  Outcome Keep(Item item, const std::string& where);
  void NoteTime(const std::string& where, int64_t time);
  // The items' records, parsed back (parked ones) and emptied from `item`.
  Record Unpark(Item& item);
  // Sorted by time (untimed ones at the earliest time), workloads expanded.
  Result<std::vector<Item>> SortedItems();
  // The records in trace order, each handed to `emit` (parsed back one at a time), through an
  // ObservationResolver (observations.h).
  Outcome ResolveBindings(std::vector<Item> items, const std::function<Outcome(Record&&)>& emit);
  // Replaces each workload item (time-sorted) by the objects it expands to, with the nodes alive
  // at its time, unless captured pods (or ReplicaSets) belong to it.
  Result<std::vector<Item>> ExpandWorkloads(std::vector<Item> items);

  ImportOptions options_;
  RecordParser parser_;
  Redactor redactor_;
  Imported imported_;
  std::vector<Item> items_;
  std::string file_;
  std::optional<int64_t> last_time_in_file_;
  std::optional<int64_t> earliest_time_, latest_time_;  // of the items kept so far
  int64_t out_of_order_in_file_ = 0;
  std::string first_out_of_order_;
  std::set<std::string> warned_kinds_;
  std::set<std::string> seen_workloads_;  // WorkloadKeys whose first event is kept
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_CAPTURE_H_
