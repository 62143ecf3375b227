#include "traces/importers/csv.h"

#include "traces/importers/json_stream.h"

namespace schedcheck::trace {
namespace {

// Reads one record starting at *pos; advances *pos and *line past it.
Result<std::vector<std::string>> ReadRecord(std::string_view text, size_t* pos, int* line,
                                            const std::string& source) {
  std::vector<std::string> fields(1);
  const int start_line = *line;
  bool quoted = false;
  size_t i = *pos;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++*line;
        fields.back() += c;
      }
    } else if (c == '"' && fields.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++*line;
      ++i;
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted)
    return Error{source + ": line " + std::to_string(start_line) + ": unterminated quoted field"};
  *pos = i;
  return fields;
}

}  // namespace

int CsvTable::Column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Result<CsvTable> ParseCsv(std::string_view text, const std::string& source) {
  CsvTable table;
  table.source = source;
  size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  int line = 1;
  bool have_header = false;
  while (pos < text.size()) {
    int row_line = line;
    auto fields = ReadRecord(text, &pos, &line, source);
    if (!fields.ok()) return fields.error();
    if (fields->size() == 1 && (*fields)[0].find_first_not_of(" \t") == std::string::npos)
      continue;  // blank
    if (!have_header) {
      for (std::string& f : *fields) {
        size_t b = f.find_first_not_of(' '), e = f.find_last_not_of(' ');
        f = b == std::string::npos ? "" : f.substr(b, e - b + 1);
      }
      table.header = std::move(*fields);
      have_header = true;
      continue;
    }
    if (fields->size() != table.header.size()) {
      return Error{source + ": line " + std::to_string(row_line) + ": expected " +
                   std::to_string(table.header.size()) + " fields, got " +
                   std::to_string(fields->size())};
    }
    table.rows.push_back(std::move(*fields));
    table.lines.push_back(row_line);
  }
  if (!have_header) return Error{source + ": line 1: empty file (expected a CSV header)"};
  return table;
}

Result<CsvTable> ReadCsvFile(const std::string& path) {
  auto text = ReadWholeFile(path);
  if (!text.ok()) return text.error();
  return ParseCsv(*text, path);
}

}  // namespace schedcheck::trace
