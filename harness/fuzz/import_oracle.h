// The differential check of the capture fuzzers: `schedcheck import` streams its records to the
// writer (Import with a sink), the library's other callers take them whole; both must agree on
// every input, records, labels, warnings and errors alike.
#ifndef SCHEDCHECK_HARNESS_FUZZ_IMPORT_ORACLE_H_
#define SCHEDCHECK_HARNESS_FUZZ_IMPORT_ORACLE_H_

#include <string>

#include "traces/importers/imported.h"

namespace schedcheck::fuzz {

// Imports `path` both ways; aborts (a finding) when they differ.
void ImportBothWaysAndCompare(const std::string& format, const std::string& path,
                              const trace::ImportOptions& options);

}  // namespace schedcheck::fuzz

#endif  // SCHEDCHECK_HARNESS_FUZZ_IMPORT_ORACLE_H_
