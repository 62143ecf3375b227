#include "traces/importers/json_stream.h"
#include "reference/k8s/k8s_json.h"

#include <fstream>
#include <functional>
#include <sstream>

namespace schedcheck::trace {
namespace {

struct Position {
  int line = 1;
  int column = 1;
};

Position PositionOf(std::string_view text, size_t offset) {
  Position p;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::string Where(const std::string& source, std::string_view text, size_t offset) {
  Position p = PositionOf(text, offset);
  return source + ": line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

Outcome ForEachJsonValue(std::string_view text, const std::string& source,
                         const std::function<Outcome(k8s::Document&&)>& visit,
                         const std::function<void(size_t offset)>& done_before) {
  size_t pos = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // UTF-8 byte order mark
  // The line of `pos`, counted on from the previous value's: counting from the start of the
  // text for every value made a stream of n values cost O(n^2).
  int line = 1;
  size_t counted_to = 0;
  while (true) {
    while (pos < text.size() && IsSpace(text[pos])) ++pos;
    if (pos == text.size()) break;
    if (text[pos] != '{' && text[pos] != '[') {
      return Error{Where(source, text, pos) + ": JSON: expected an object ('{'), found '" +
                   std::string(1, text[pos]) + "'"};
    }
    size_t too_deep_at = std::string_view::npos;
    size_t end = k8s::ScanJsonNesting(text, pos, &too_deep_at);
    if (too_deep_at != std::string_view::npos) {
      return Error{Where(source, text, too_deep_at) + ": JSON: nested deeper than " +
                   std::to_string(k8s::kMaxJsonDepth) + " levels (kMaxJsonDepth)"};
    }
    if (end == std::string_view::npos) {
      return Error{Where(source, text, pos) + ": JSON: value never ends (truncated stream?)"};
    }
    for (; counted_to < pos; ++counted_to) line += text[counted_to] == '\n' ? 1 : 0;
    if (done_before) done_before(pos);
    k8s::Document doc;
    try {
      doc = {nlohmann::json::parse(text.substr(pos, end - pos)), line};
    } catch (const nlohmann::json::parse_error& e) {
      size_t at = pos + (e.byte > 0 ? e.byte - 1 : 0);
      std::string what = e.what();
      size_t colon = what.find("]: ");  // drop nlohmann's "[json.exception.parse_error.101]" tag
      return Error{Where(source, text, at) +
                   ": JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3))};
    } catch (const nlohmann::json::exception& e) {  // out_of_range: a number beyond double (5e2127)
      return Error{Where(source, text, pos) + ": JSON value: " + e.what()};
    }
    if (Outcome ok = visit(std::move(doc)); !ok) return ok;
    pos = end;
  }
  return Outcome::Ok();
}

Result<std::vector<k8s::Document>> ParseJsonStream(std::string_view text, const std::string& source,
                                                   bool unwrap_array) {
  std::vector<k8s::Document> docs;
  Outcome ok = ForEachJsonValue(text, source, [&docs](k8s::Document&& doc) {
    docs.push_back(std::move(doc));
    return Outcome::Ok();
  });
  if (!ok) return ok.error();
  if (unwrap_array && docs.size() == 1 && docs[0].json.is_array()) {
    std::vector<k8s::Document> items;
    int line = docs[0].line;
    for (auto& item : docs[0].json) items.push_back({std::move(item), line});
    return items;
  }
  return docs;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace schedcheck::trace
