#include "traces/trace_file.h"

#include <fstream>

#include <google/protobuf/util/json_util.h>
#include <nlohmann/json.hpp>

#include "traces/trace_reader.h"

namespace schedcheck::trace {
namespace {

Result<Trace> LoadJsonLines(const std::string& path, const InputLimits& limits) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open"};
  Trace trace;
  std::string line;
  int number = 0;
  bool seen_line = false;  // a header line or a record
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = path + ": line " + std::to_string(number);
    if (number == 1 || trace.records.empty()) {
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) return Error{where + ": not a JSON object"};
      if (j.is_object() && j.size() == 1 && j.contains("header")) {
        auto status =
            google::protobuf::util::JsonStringToMessage(j["header"].dump(), &trace.header, options);
        if (!status.ok()) return Error{where + ": field header: " + std::string(status.message())};
        if (Outcome ok = CheckMessageLimits(trace.header, limits, where + ": header"); !ok)
          return ok.error();
        seen_line = true;
        continue;
      }
    }
    Record r;
    auto status = google::protobuf::util::JsonStringToMessage(line, &r, options);
    if (!status.ok()) return Error{where + ": invalid Record: " + std::string(status.message())};
    if (static_cast<int64_t>(trace.records.size()) >= limits.records)
      return TooManyRecords(where, limits.records);
    if (Outcome ok = CheckMessageLimits(r, limits, where); !ok) return ok.error();
    trace.records.push_back(std::move(r));
    seen_line = true;
  }
  if (!seen_line) {
    return Error{path +
                 ": empty: neither a binary trace (no file header) nor JSON Lines (no header line, "
                 "no record)"};
  }
  return trace;
}

}  // namespace

Result<Trace> LoadTrace(const std::string& path, const InputLimits& limits) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return Error{path + ": cannot open"};
  std::string magic(kFileMagic.size(), '\0');
  probe.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  magic.resize(static_cast<size_t>(probe.gcount()));
  if (magic == kFileMagic) return ReadTrace(path, limits);
  return LoadJsonLines(path, limits);
}

}  // namespace schedcheck::trace
