// Test helpers for the importers: testdata paths, labels, the JSON text of imported records (to
// check that redacted values never reach the trace), temporary files, the shared openb data.
// testonly; a test using FindSharedOpenbDir needs //traces/importers:testdata as data.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_
#define SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_

#include <filesystem>
#include <string>
#include <system_error>

#include "reference/k8s/k8s_json.h"
#include "traces/importers/imported.h"
#include "traces/importers/openb_importer.h"
#include "traces/trace_testing.h"

namespace schedcheck::trace::testing {

// Tests run in the runfiles tree, where the package's files keep their workspace paths.
inline std::string TestData(const std::string& name) { return "traces/importers/testdata/" + name; }

inline std::string Label(const Imported& imported, const std::string& key) {
  auto it = imported.labels.find(key);
  return it == imported.labels.end() ? "<absent>" : it->second;
}

// Every record as Kubernetes JSON, one per line.
inline std::string RecordsText(const Imported& imported) {
  std::string out;
  for (const Record& r : imported.records) out += k8s::ToJson(r) + "\n";
  return out;
}

inline std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = TempPath(name);
  WriteFileBytes(path, text);
  return path;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The folder of the real openb trace (FindOpenbDataDir), also looked up in ../shared/data beside
// the source tree this test's runfiles link to; empty when absent.
inline std::string FindSharedOpenbDir() {
  std::error_code ec;
  std::filesystem::path source = std::filesystem::canonical(TestData("openb/nodes.csv"), ec);
  if (ec) return FindOpenbDataDir();
  return FindOpenbDataDir({(source.parent_path() / "../../../../../shared/data").string()});
}

}  // namespace schedcheck::trace::testing

#endif  // SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_
