// Test helpers for the importers: testdata paths, labels, the JSON text of imported records (to
// check that redacted values never reach the trace), temporary files. testonly.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_
#define SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_

#include <string>

#include "traces/importers/imported.h"
#include "reference/k8s/k8s_json.h"
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

}  // namespace schedcheck::trace::testing

#endif  // SCHEDCHECK_TRACES_IMPORTERS_IMPORT_TESTING_H_
