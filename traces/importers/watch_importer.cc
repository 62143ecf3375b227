#include "traces/importers/watch_importer.h"

#include <set>
#include <utility>

#include "reference/api/rfc3339.h"
#include "traces/importers/capture.h"
#include "traces/importers/input_files.h"
#include "traces/importers/json_stream.h"
#include "traces/importers/mapped_text.h"

namespace schedcheck::trace {
namespace {

std::string Str(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// kind/namespace/name of a plain (unwrapped) object.
std::string ObjectKey(const nlohmann::json& obj) {
  std::string key = Str(obj, "kind") + "/";
  if (obj.contains("metadata") && obj["metadata"].is_object()) {
    key += Str(obj["metadata"], "namespace") + "/" + Str(obj["metadata"], "name");
  }
  return key;
}

// `entry` is the stream's own value: its object is moved into the event, not copied.
Outcome AddEntry(nlohmann::json& entry, const std::string& where, std::set<std::string>* seen,
                 CaptureBuilder* builder) {
  if (!entry.is_object()) return Error{where + ": expected a watch event object"};
  if (!entry.contains("type") && entry.contains("items") && entry["items"].is_array()) {  // a List
    for (size_t i = 0; i < entry["items"].size(); ++i) {
      std::string item_where = where + ": items[" + std::to_string(i) + "]";
      if (Outcome ok = AddEntry(entry["items"][i], item_where, seen, builder); !ok) return ok;
    }
    return Outcome::Ok();
  }
  if (!entry.contains("type") && !entry.contains("kind") && entry.contains("serverVersion"))
    return builder->SetServerVersion(entry["serverVersion"], where);  // kubectl version -o json
  if (!entry.contains("type") && entry.contains("kind")) {            // plain --watch output
    bool first = seen->insert(ObjectKey(entry)).second;
    return builder->Add({first ? ADDED : MODIFIED, std::move(entry), where, std::nullopt, false});
  }
  if (!entry.contains("type") || !entry["type"].is_string())
    return Error{where + ": field type: missing"};
  const std::string type = entry["type"].get<std::string>();
  if (type == "BOOKMARK") {
    builder->CountIgnored("ignored.bookmarks");
    return Outcome::Ok();
  }
  nlohmann::json object;
  if (auto it = entry.find("object"); it != entry.end()) object = std::move(*it);
  if (type == "ERROR") {
    builder->CountIgnored("watch.errors");
    builder->Warn(where +
                  ": watch ERROR event: " + (object.is_object() ? Str(object, "message") : ""));
    return Outcome::Ok();
  }
  CapturedEvent event;
  if (type == "ADDED") {
    event.type = ADDED;
  } else if (type == "MODIFIED") {
    event.type = MODIFIED;
  } else if (type == "DELETED") {
    event.type = DELETED;
  } else {
    return Error{where + ": field type: unknown watch event type \"" + type +
                 "\" (want ADDED, MODIFIED, DELETED, BOOKMARK or ERROR)"};
  }
  if (!object.is_object()) return Error{where + ": field object: expected a Kubernetes object"};
  if (entry.contains("time") && !entry["time"].is_null()) {
    if (!entry["time"].is_string())
      return Error{where + ": field time: expected an RFC 3339 string"};
    auto t = reference::ParseRfc3339(entry["time"].get<std::string>());
    if (!t.ok()) return Error{where + ": field time: " + t.message()};
    event.explicit_time = *t;
  }
  if (entry.contains("duringAttempt")) {
    if (!entry["duringAttempt"].is_boolean())
      return Error{where + ": field duringAttempt: expected true or false"};
    event.during_attempt = entry["duringAttempt"].get<bool>();
  }
  seen->insert(ObjectKey(object));
  event.object = std::move(object);
  event.where = where;
  return builder->Add(std::move(event));
}

}  // namespace

Result<Imported> ImportWatch(const std::vector<std::string>& inputs, const ImportOptions& options,
                             const RecordSink& sink) {
  auto files = ExpandInputs(inputs, {".json", ".jsonl", ".log", ".txt", ".watch"});
  if (!files.ok()) return files.error();
  CaptureBuilder builder(options);
  std::set<std::string> seen;
  for (const std::string& file : *files) {
    auto text = MappedText::Open(file);
    if (!text.ok()) return text.error();
    builder.BeginFile(file);
    Outcome ok = ForEachJsonValue(
        text->text(), file,
        [&](k8s::Document&& doc) {
          return AddEntry(doc.json, file + ": line " + std::to_string(doc.line), &seen, &builder);
        },
        [&text](size_t offset) { text->Release(offset); });
    if (!ok) return ok.error();
  }
  return sink ? std::move(builder).FinishStreaming(sink) : std::move(builder).Finish();
}

}  // namespace schedcheck::trace
