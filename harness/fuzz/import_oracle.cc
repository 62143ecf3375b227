#include "harness/fuzz/import_oracle.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "traces/importers/importer.h"

namespace schedcheck::fuzz {
namespace {

[[noreturn]] void Differ(const std::string& what) {
  std::fprintf(stderr, "streamed and whole imports differ: %s\n", what.c_str());
  std::abort();
}

}  // namespace

void ImportBothWaysAndCompare(const std::string& format, const std::string& path,
                              const trace::ImportOptions& options) {
  auto whole = trace::Import(format, {path}, options);
  std::vector<trace::Record> records;
  auto streamed = trace::Import(format, {path}, options, [&records](trace::Record&& r) {
    records.push_back(std::move(r));
    return Outcome::Ok();
  });
  if (whole.ok() != streamed.ok()) {
    Differ(whole.ok() ? "only the streamed one failed: " + streamed.message()
                      : "only the whole one failed: " + whole.message());
  }
  if (!whole.ok()) {
    if (whole.message() != streamed.message())
      Differ("errors: " + whole.message() + " | " + streamed.message());
    return;
  }
  if (records.size() != whole->records.size()) Differ("record counts");
  for (size_t i = 0; i < records.size(); ++i) {
    // Field by field: two equal maps may serialize in different orders.
    if (!google::protobuf::util::MessageDifferencer::Equals(records[i], whole->records[i]))
      Differ("record " + std::to_string(i));
  }
  if (streamed->labels != whole->labels) Differ("labels");
  if (streamed->warnings != whole->warnings) Differ("warnings");
  if (streamed->start_unix_ns != whole->start_unix_ns) Differ("start time");
}

}  // namespace schedcheck::fuzz
