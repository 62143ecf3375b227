// Test helpers for code that reads or writes traces: temporary paths under $TEST_TMPDIR, raw
// file bytes, record comparison, and writing the sample trace. testonly.
#ifndef SCHEDCHECK_TRACES_TRACE_TESTING_H_
#define SCHEDCHECK_TRACES_TRACE_TESTING_H_

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "traces/sample_trace.h"
#include "traces/trace.pb.h"
#include "traces/trace_format.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace::testing {

// A path under $TEST_TMPDIR (or /tmp) named `name`.
inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

inline bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

inline bool SameRecords(const std::vector<Record>& a, const std::vector<Record>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!google::protobuf::util::MessageDifferencer::Equals(a[i], b[i])) return false;
  }
  return true;
}

// Writes the sample trace (traces/sample_trace.h) to TempPath(name) and returns the path, or ""
// on failure.
inline std::string WriteSampleTrace(const std::string& name, WriterOptions options = {}) {
  const std::string path = TempPath(name);
  return WriteTrace(path, MakeSampleTrace(), options).ok() ? path : std::string();
}

}  // namespace schedcheck::trace::testing

#endif  // SCHEDCHECK_TRACES_TRACE_TESTING_H_
