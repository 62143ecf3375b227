#include "traces/importers/imported.h"

#include <algorithm>
#include <set>
#include <utility>

#include "reference/api/rfc3339.h"
#include "traces/trace_format.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

constexpr size_t kMaxListedWarnings = 10;

k8s::ObjectMeta* MutableMeta(ApiEvent* api) {
  switch (api->object_case()) {
    case ApiEvent::kPod:
      return api->mutable_pod()->mutable_metadata();
    case ApiEvent::kNode:
      return api->mutable_node()->mutable_metadata();
    case ApiEvent::kNamespace:
      return api->mutable_namespace_()->mutable_metadata();
    case ApiEvent::kPriorityClass:
      return api->mutable_priority_class()->mutable_metadata();
    case ApiEvent::kPodDisruptionBudget:
      return api->mutable_pod_disruption_budget()->mutable_metadata();
    case ApiEvent::kService:
      return api->mutable_service()->mutable_metadata();
    case ApiEvent::kReplicationController:
      return api->mutable_replication_controller()->mutable_metadata();
    case ApiEvent::kReplicaSet:
      return api->mutable_replica_set()->mutable_metadata();
    case ApiEvent::kStatefulSet:
      return api->mutable_stateful_set()->mutable_metadata();
    case ApiEvent::kPersistentVolume:
      return api->mutable_persistent_volume()->mutable_metadata();
    case ApiEvent::kPersistentVolumeClaim:
      return api->mutable_persistent_volume_claim()->mutable_metadata();
    case ApiEvent::kStorageClass:
      return api->mutable_storage_class()->mutable_metadata();
    case ApiEvent::kCsiNode:
      return api->mutable_csi_node()->mutable_metadata();
    case ApiEvent::kCsiDriver:
      return api->mutable_csi_driver()->mutable_metadata();
    case ApiEvent::kCsiStorageCapacity:
      return api->mutable_csi_storage_capacity()->mutable_metadata();
    case ApiEvent::kResourceClaim:
      return api->mutable_resource_claim()->mutable_metadata();
    case ApiEvent::kResourceClaimTemplate:
      return api->mutable_resource_claim_template()->mutable_metadata();
    case ApiEvent::kResourceSlice:
      return api->mutable_resource_slice()->mutable_metadata();
    case ApiEvent::kDeviceClass:
      return api->mutable_device_class()->mutable_metadata();
    case ApiEvent::kDeviceTaintRule:
      return api->mutable_device_taint_rule()->mutable_metadata();
    case ApiEvent::kWorkload:
      return api->mutable_workload()->mutable_metadata();
    case ApiEvent::kPodGroup:
      return api->mutable_pod_group()->mutable_metadata();
    case ApiEvent::OBJECT_NOT_SET:
      break;
  }
  return nullptr;
}

std::string PodKey(const k8s::Pod& pod) {
  const std::string& ns = pod.metadata().namespace_();
  return (ns.empty() ? "default" : ns) + "/" + pod.metadata().name();
}

}  // namespace

void AddToLabel(Imported* imported, const std::string& key, int64_t n) {
  auto it = imported->labels.find(key);
  int64_t old = it == imported->labels.end() ? 0 : std::stoll(it->second);
  imported->labels[key] = std::to_string(old + n);
}

std::string JoinCounts(const std::map<std::string, int64_t>& counts) {
  std::string out;
  for (const auto& [key, n] : counts) {
    if (!out.empty()) out += ",";
    out += key + "=" + std::to_string(n);
  }
  return out;
}

Result<Finalizer> Finalizer::Start(std::optional<int64_t> start_unix_ns,
                                   std::optional<int64_t> earliest_ns) {
  Finalizer f;
  f.start_ = earliest_ns.value_or(0);
  if (start_unix_ns) {
    if (earliest_ns && *start_unix_ns > *earliest_ns) {
      return Error{"--start-time " + reference::FormatRfc3339(*start_unix_ns) +
                   " is after the earliest event (" + reference::FormatRfc3339(*earliest_ns) + ")"};
    }
    f.start_ = *start_unix_ns;
  }
  return f;
}

Outcome Finalizer::Next(Record* r) {
  int64_t relative = 0;
  if (__builtin_sub_overflow(r->time_ns(), start_, &relative)) {
    return Error{"an event at " + reference::FormatRfc3339(r->time_ns()) +
                 " is more than 292 years after the start " + reference::FormatRfc3339(start_)};
  }
  r->set_time_ns(relative);
  if (!r->has_api()) return Outcome::Ok();
  k8s::ObjectMeta* meta = MutableMeta(r->mutable_api());
  if (meta != nullptr && meta->resource_version().empty()) {
    meta->set_resource_version(std::to_string(next_rv_++));
  }
  if (r->api().has_node()) nodes_.insert(r->api().node().metadata().name());
  if (r->api().has_pod() && !r->api().pod().spec().node_name().empty()) {
    std::pair<std::string, std::string> bound{PodKey(r->api().pod()),
                                              r->api().pod().spec().node_name()};
    if (bound_seen_.insert(bound).second) bound_.push_back(std::move(bound));
  }
  return Outcome::Ok();
}

void Finalizer::End(Imported* imported) {
  if (next_rv_ > 1) AddToLabel(imported, "assigned.resource_versions", next_rv_ - 1);
  // Pods bound to a node that no Node record names (kept: the replayer accepts them), each
  // named once, in the order of their first such record.
  std::set<std::string> flagged;
  for (const auto& [pod, node] : bound_) {
    if (nodes_.count(node) || !flagged.insert(pod).second) continue;
    if (flagged.size() <= kMaxListedWarnings) {
      imported->warnings.push_back("pod " + pod + " is bound to node " + node +
                                   ", which is not in the input (kept)");
    }
  }
  if (!flagged.empty()) {
    if (flagged.size() > kMaxListedWarnings) {
      imported->warnings.push_back(std::to_string(flagged.size() - kMaxListedWarnings) +
                                   " more pods bound to nodes not in the input");
    }
    AddToLabel(imported, "flagged.unknown_nodes", static_cast<int64_t>(flagged.size()));
  }
  imported->start_unix_ns = start_;
  imported->labels["start_time"] = reference::FormatRfc3339(start_);
}

Outcome Finalize(std::optional<int64_t> start_unix_ns, Imported* imported) {
  auto& records = imported->records;
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.time_ns() < b.time_ns(); });
  auto finalizer = Finalizer::Start(
      start_unix_ns,
      records.empty() ? std::nullopt : std::optional<int64_t>(records.front().time_ns()));
  if (!finalizer.ok()) return finalizer.error();
  for (Record& r : records) {
    if (Outcome ok = finalizer->Next(&r); !ok) return ok;
  }
  finalizer->End(imported);
  return Outcome::Ok();
}

Header MakeImportHeader(const std::string& format, const Imported& imported) {
  Header header;
  header.set_format_version(kFormatVersion);
  header.set_producer("schedcheck import --from " + format);
  header.set_compat(imported.compat.empty() ? std::string(kCompatLevel) : imported.compat);
  header.set_seed(imported.seed);
  for (const auto& [key, value] : imported.labels) (*header.mutable_labels())[key] = value;
  return header;
}

Outcome WriteImported(const std::string& path, const std::string& format,
                      const Imported& imported) {
  auto writer = TraceWriter::Open(path, MakeImportHeader(format, imported));
  if (!writer.ok()) return writer.error();
  for (const Record& r : imported.records) {
    if (Outcome ok = (*writer)->Append(r); !ok) return ok;
  }
  return (*writer)->Finish();
}

}  // namespace schedcheck::trace
