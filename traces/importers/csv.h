// A small CSV reader (RFC 4180: comma separated, "quoted" fields with "" escapes and line breaks,
// CRLF or LF, an optional UTF-8 byte order mark). The first row is the header; every other
// non-empty row must have as many fields. Used by the openb importer.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_CSV_H_
#define SCHEDCHECK_TRACES_IMPORTERS_CSV_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"

namespace schedcheck::trace {

struct CsvTable {
  std::string source;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // 1-based line each row starts on

  // Index of a header column, or -1.
  int Column(std::string_view name) const;
};

// Errors name `source` and the line: "pods.csv: line 12: expected 11 fields, got 10".
Result<CsvTable> ParseCsv(std::string_view text, const std::string& source);
Result<CsvTable> ReadCsvFile(const std::string& path);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_CSV_H_
