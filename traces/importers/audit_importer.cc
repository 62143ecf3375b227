#include "traces/importers/audit_importer.h"

#include <map>

#include "reference/api/rfc3339.h"
#include "traces/importers/capture.h"
#include "traces/importers/input_files.h"
#include "traces/importers/json_stream.h"

namespace schedcheck::trace {
namespace {

// The kind of an object of `resource` (objectRef.resource), for request bodies sent without
// their kind: the kinds the importers read.
std::string KindOfResource(const std::string& resource) {
  static const std::map<std::string, std::string> kKinds = {
      {"pods", "Pod"},
      {"nodes", "Node"},
      {"namespaces", "Namespace"},
      {"priorityclasses", "PriorityClass"},
      {"poddisruptionbudgets", "PodDisruptionBudget"},
      {"services", "Service"},
      {"replicationcontrollers", "ReplicationController"},
      {"replicasets", "ReplicaSet"},
      {"statefulsets", "StatefulSet"},
      {"deployments", "Deployment"},
      {"daemonsets", "DaemonSet"},
      {"jobs", "Job"},
      {"persistentvolumes", "PersistentVolume"},
      {"persistentvolumeclaims", "PersistentVolumeClaim"},
      {"storageclasses", "StorageClass"},
      {"csinodes", "CSINode"},
      {"csidrivers", "CSIDriver"},
      {"csistoragecapacities", "CSIStorageCapacity"},
      {"events", "Event"},
      {"resourceclaims", "ResourceClaim"},
      {"resourceclaimtemplates", "ResourceClaimTemplate"},
      {"resourceslices", "ResourceSlice"},
      {"deviceclasses", "DeviceClass"},
      {"devicetaintrules", "DeviceTaintRule"},
      {"workloads", "Workload"},
      {"podgroups", "PodGroup"},
  };
  auto it = kKinds.find(resource);
  return it == kKinds.end() ? "" : it->second;
}

std::string StrAt(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

class AuditReader {
 public:
  explicit AuditReader(CaptureBuilder* builder) : builder_(builder) {}

  // One audit.k8s.io Event, or an EventList of them.
  Outcome Read(const nlohmann::json& doc, const std::string& where) {
    if (!doc.is_object()) return Error{where + ": expected an audit.k8s.io/v1 Event object"};
    const std::string kind = StrAt(doc, "kind");
    if (kind == "EventList") {
      auto items = doc.find("items");
      if (items == doc.end() || !items->is_array())
        return Error{where + ": field items: expected the list's Events"};
      for (size_t i = 0; i < items->size(); ++i) {
        if (Outcome ok = ReadEvent((*items)[i], where + ": items[" + std::to_string(i) + "]"); !ok)
          return ok;
      }
      return Outcome::Ok();
    }
    return ReadEvent(doc, where);
  }

  // The counts of what could not be rebuilt, as one warning (empty: none).
  void Finish() {
    std::string counts;
    for (const auto& [what, n] : unreconstructed_)
      counts += (counts.empty() ? "" : ", ") + what + ": " + std::to_string(n);
    if (counts.empty()) return;
    builder_->Warn("audit: " + counts +
                   ": requests whose objects the audit level does not record (RequestResponse "
                   "records every object; Request loses patches; Metadata loses every body), or "
                   "deletions of objects never seen; they are missing from the trace");
  }

 private:
  Outcome ReadEvent(const nlohmann::json& e, const std::string& where) {
    if (!e.is_object() || StrAt(e, "kind") != "Event" ||
        StrAt(e, "apiVersion").rfind("audit.k8s.io/", 0) != 0) {
      return Error{where + ": not an audit.k8s.io Event (kind " +
                   std::string(e.is_object() ? StrAt(e, "kind") : "") + ", apiVersion " +
                   std::string(e.is_object() ? StrAt(e, "apiVersion") : "") +
                   "): is this an audit log? (the log backend's --audit-log-format=json)"};
    }
    builder_->CountIgnored("audit.events");
    if (StrAt(e, "stage") != "ResponseComplete") return Count("audit.ignored_stages");
    const std::string verb = StrAt(e, "verb");
    if (verb == "get" || verb == "list" || verb == "watch") return Count("audit.reads");
    auto status = e.find("responseStatus");
    if (status != e.end() && status->is_object()) {
      auto code = status->find("code");
      if (code != status->end() && code->is_number_integer() &&
          (code->get<int64_t>() < 200 || code->get<int64_t>() > 299)) {
        return Count("audit.failed_requests");
      }
    }
    auto ref = e.find("objectRef");
    if (ref == e.end() || !ref->is_object()) return Count("audit.without_object");
    const std::string resource = StrAt(*ref, "resource");
    const std::string subresource = StrAt(*ref, "subresource");
    const std::string ns = StrAt(*ref, "namespace");
    const std::string name = StrAt(*ref, "name");
    const std::string level = StrAt(e, "level");
    auto stamp = e.find("stageTimestamp");
    if (stamp == e.end() || !stamp->is_string())
      return Error{where + ": field stageTimestamp: missing (every audit Event has one)"};
    auto time = reference::ParseRfc3339(stamp->get<std::string>());
    if (!time.ok()) return Error{where + ": field stageTimestamp: " + time.message()};

    const std::string kind = KindOfResource(resource);
    const std::string key = resource + "/" + ns + "/" + name;
    const nlohmann::json* response = Body(e, "responseObject");
    const nlohmann::json* request = Body(e, "requestObject");
    auto lost = [&] {
      builder_->CountIgnored("audit.unreconstructed");
      ++unreconstructed_[verb + (subresource.empty() ? " " : " " + subresource + " of ") +
                         resource + " (level " + (level.empty() ? "?" : level) + ")"];
      return Outcome::Ok();
    };
    if (verb == "deletecollection") return lost();
    if (resource == "pods" && subresource == "binding") {
      if (verb != "create") return Count("audit.ignored_subresources");
      auto seen = last_.find(key);
      std::string node;
      if (request != nullptr) {
        auto target = request->find("target");
        if (target != request->end() && target->is_object()) node = StrAt(*target, "name");
      }
      if (seen == last_.end() || node.empty()) return lost();
      nlohmann::json pod = seen->second;
      pod["spec"]["nodeName"] = node;
      return Emit(MODIFIED, std::move(pod), key, *time, where);
    }
    if (!subresource.empty() && subresource != "status") return Count("audit.ignored_subresources");
    if (verb == "delete") {
      nlohmann::json obj;
      if (response != nullptr && StrAt(*response, "kind") != "Status") {
        obj = *response;
      } else if (auto seen = last_.find(key); seen != last_.end()) {
        obj = seen->second;
      } else {
        return lost();
      }
      // A bound pod deleted with a grace period is only marked: its kubelet deletes it later.
      const bool bound = obj.contains("spec") && obj["spec"].is_object() &&
                         !StrAt(obj["spec"], "nodeName").empty();
      if (resource == "pods" && bound && GracePeriod(request, obj) > 0) {
        if (!obj["metadata"].contains("deletionTimestamp"))
          obj["metadata"]["deletionTimestamp"] = stamp->get<std::string>();
        return Emit(MODIFIED, std::move(obj), key, *time, where);
      }
      last_.erase(key);
      return Emit(DELETED, std::move(obj), key, *time, where, /*remember=*/false);
    }
    const nlohmann::json* body = response;
    if (body == nullptr && verb != "patch") body = request;
    if (body == nullptr || (verb != "create" && verb != "update" && verb != "patch")) {
      return verb == "create" || verb == "update" || verb == "patch" ? lost()
                                                                     : Count("audit.other_verbs");
    }
    nlohmann::json obj = *body;
    if (!obj.contains("kind")) {
      if (kind.empty()) return Count("audit.skipped_resources");
      obj["kind"] = kind;
    }
    std::string object_key = key;
    if (obj.contains("metadata") && obj["metadata"].is_object()) {
      nlohmann::json& meta = obj["metadata"];
      if (!ns.empty() && !meta.contains("namespace")) meta["namespace"] = ns;
      if (!name.empty() && !meta.contains("name")) meta["name"] = name;
      // A create's objectRef often names no object: the body does.
      object_key = resource + "/" + StrAt(meta, "namespace") + "/" + StrAt(meta, "name");
    }
    // A create the watch would show as ADDED; a create of an object seen already (a recreated
    // name) too. Status writes and updates are MODIFIED.
    const EventType type = verb == "create" && subresource.empty() ? ADDED : MODIFIED;
    return Emit(type, std::move(obj), object_key, *time, where);
  }

  static const nlohmann::json* Body(const nlohmann::json& e, const char* field) {
    auto it = e.find(field);
    return it != e.end() && it->is_object() ? &*it : nullptr;
  }

  // The grace period of a pod deletion: the request's DeleteOptions, else the object's
  // deletionGracePeriodSeconds or spec.terminationGracePeriodSeconds, else upstream's 30 s.
  static int64_t GracePeriod(const nlohmann::json* options, const nlohmann::json& pod) {
    auto part = [&](const char* key) -> const nlohmann::json* {
      auto it = pod.find(key);
      return it == pod.end() ? nullptr : &*it;
    };
    for (const nlohmann::json* from : {options, part("metadata"), part("spec")}) {
      if (from == nullptr || !from->is_object()) continue;
      for (const char* field :
           {"gracePeriodSeconds", "deletionGracePeriodSeconds", "terminationGracePeriodSeconds"}) {
        auto it = from->find(field);
        if (it != from->end() && it->is_number_integer()) return it->get<int64_t>();
      }
    }
    return 30;
  }

  Outcome Emit(EventType type, nlohmann::json obj, const std::string& key, int64_t time,
               const std::string& where, bool remember = true) {
    if (remember) last_[key] = obj;
    CapturedEvent event;
    event.type = type;
    event.object = std::move(obj);
    event.where = where;
    event.explicit_time = time;
    return builder_->Add(std::move(event));
  }

  Outcome Count(const char* label) {
    builder_->CountIgnored(label);
    return Outcome::Ok();
  }

  CaptureBuilder* builder_;
  // The last object each write gave, by resource/namespace/name: a binding or a deletion names
  // the object without carrying it.
  std::map<std::string, nlohmann::json> last_;
  std::map<std::string, int64_t> unreconstructed_;
};

}  // namespace

Result<Imported> ImportAudit(const std::vector<std::string>& inputs, const ImportOptions& options,
                             const RecordSink& sink) {
  auto files = ExpandInputs(inputs, {".json", ".jsonl", ".log", ".txt"});
  if (!files.ok()) return files.error();
  CaptureBuilder builder(options);
  AuditReader reader(&builder);
  for (const std::string& file : *files) {
    auto text = ReadWholeFile(file);
    if (!text.ok()) return text.error();
    auto docs = ParseJsonStream(*text, file, /*unwrap_array=*/false);
    if (!docs.ok()) return docs.error();
    builder.BeginFile(file);
    for (const k8s::Document& doc : *docs) {
      if (Outcome ok = reader.Read(doc.json, file + ": line " + std::to_string(doc.line)); !ok)
        return ok.error();
    }
  }
  reader.Finish();
  return sink ? std::move(builder).FinishStreaming(sink) : std::move(builder).Finish();
}

}  // namespace schedcheck::trace
