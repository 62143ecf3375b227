#include "traces/importers/kss_importer.h"

#include "reference/api/rfc3339.h"
#include "traces/importers/capture.h"
#include "traces/importers/input_files.h"
#include "traces/importers/json_stream.h"

namespace schedcheck::trace {
namespace {

Outcome AddRecord(const nlohmann::json& record, const std::string& where, CaptureBuilder* builder) {
  if (!record.is_object()) return Error{where + ": expected a recorder record object"};
  CapturedEvent event;
  auto type = record.find("event");
  if (type == record.end() || !type->is_string()) return Error{where + ": field event: missing"};
  if (*type == "Add") {
    event.type = ADDED;
  } else if (*type == "Update") {
    event.type = MODIFIED;
  } else if (*type == "Delete") {
    event.type = DELETED;
  } else {
    return Error{where + ": field event: unknown recorder event \"" + type->get<std::string>() +
                 "\" (want Add, Update or Delete)"};
  }
  auto time = record.find("time");
  if (time != record.end() && !time->is_null()) {
    if (!time->is_string()) return Error{where + ": field time: expected an RFC 3339 string"};
    auto t = reference::ParseRfc3339(time->get<std::string>());
    if (!t.ok()) return Error{where + ": field time: " + t.message()};
    event.explicit_time = *t;
  }
  auto resource = record.find("resource");
  if (resource == record.end() || !resource->is_object()) {
    return Error{where + ": field resource: expected a Kubernetes object"};
  }
  event.object = *resource;
  event.where = where;
  return builder->Add(std::move(event));
}

}  // namespace

Result<Imported> ImportKss(const std::vector<std::string>& inputs, const ImportOptions& options,
                           const RecordSink& sink) {
  auto files = ExpandInputs(inputs, {".json", ".jsonl", ".log", ".txt"});
  if (!files.ok()) return files.error();
  CaptureBuilder builder(options);
  for (const std::string& file : *files) {
    auto text = ReadWholeFile(file);
    if (!text.ok()) return text.error();
    auto docs = ParseJsonStream(*text, file, /*unwrap_array=*/true);
    if (!docs.ok()) return docs.error();
    builder.BeginFile(file);
    for (size_t i = 0; i < docs->size(); ++i) {
      const k8s::Document& doc = (*docs)[i];
      std::string where =
          file + ": line " + std::to_string(doc.line) + ": record " + std::to_string(i + 1);
      if (Outcome ok = AddRecord(doc.json, where, &builder); !ok) return ok.error();
    }
  }
  return sink ? std::move(builder).FinishStreaming(sink) : std::move(builder).Finish();
}

}  // namespace schedcheck::trace
