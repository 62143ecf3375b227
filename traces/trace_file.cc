#include "traces/trace_file.h"

#include <fstream>

#include <google/protobuf/util/json_util.h>
#include <nlohmann/json.hpp>

#include "reference/k8s/k8s_json.h"
#include "traces/trace_reader.h"

namespace schedcheck::trace {
namespace {

Outcome StreamJsonLines(const std::string& path, const InputLimits& limits, Header* header,
                        const std::function<Outcome(Record&&)>& each) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open"};
  std::string line;
  int number = 0;
  int64_t records = 0;
  bool seen_line = false;  // a header line or a record
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = path + ": line " + std::to_string(number);
    if (number == 1 || records == 0) {
      if (size_t at = k8s::JsonTooDeepAt(line); at != std::string_view::npos)
        return k8s::JsonTooDeep(where, at);
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) return Error{where + ": not a JSON object"};
      if (j.is_object() && j.size() == 1 && j.contains("header")) {
        auto status =
            google::protobuf::util::JsonStringToMessage(j["header"].dump(), header, options);
        if (!status.ok()) return Error{where + ": field header: " + std::string(status.message())};
        if (Outcome ok = CheckMessageLimits(*header, limits, where + ": header"); !ok)
          return ok.error();
        seen_line = true;
        continue;
      }
    }
    Record r;
    auto status = google::protobuf::util::JsonStringToMessage(line, &r, options);
    if (!status.ok()) return Error{where + ": invalid Record: " + std::string(status.message())};
    if (records >= limits.records) return TooManyRecords(where, limits.records);
    if (Outcome ok = CheckMessageLimits(r, limits, where); !ok) return ok.error();
    ++records;
    seen_line = true;
    if (Outcome ok = each(std::move(r)); !ok) return ok;
  }
  if (!seen_line) {
    return Error{path +
                 ": empty: neither a binary trace (no file header) nor JSON Lines (no header line, "
                 "no record)"};
  }
  return Outcome::Ok();
}

Outcome StreamBinary(const std::string& path, const InputLimits& limits, Header* header,
                     const std::function<Outcome(Record&&)>& each) {
  Result<TraceReader> reader = TraceReader::Open(path, limits);
  if (!reader.ok()) return reader.error();
  *header = reader->header();
  Record record;
  while (true) {
    switch (reader->Next(&record)) {
      case ReadStatus::kRecord:
        if (Outcome ok = each(std::move(record)); !ok) return ok;
        record.Clear();  // a moved-from message is valid but unspecified
        break;
      case ReadStatus::kEnd:
        return Outcome::Ok();
      case ReadStatus::kError:
        return Error{reader->error()};
    }
  }
}

}  // namespace

bool IsBinaryTrace(const std::string& path) {
  std::ifstream probe(path, std::ios::binary);
  std::string magic(kFileMagic.size(), '\0');
  probe.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  return probe && magic == kFileMagic;
}

Outcome StreamTrace(const std::string& path, const InputLimits& limits, Header* header,
                    const std::function<Outcome(Record&&)>& each) {
  // A file that cannot be opened is reported by the JSON Lines reader ("F: cannot open").
  if (IsBinaryTrace(path)) return StreamBinary(path, limits, header, each);
  return StreamJsonLines(path, limits, header, each);
}

Result<Trace> LoadTrace(const std::string& path, const InputLimits& limits) {
  Trace trace;
  Outcome ok = StreamTrace(path, limits, &trace.header, [&trace](Record&& r) {
    trace.records.push_back(std::move(r));
    return Outcome::Ok();
  });
  if (!ok) return ok.error();
  return trace;
}

}  // namespace schedcheck::trace
