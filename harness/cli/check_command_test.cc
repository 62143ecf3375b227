// `schedcheck check` on bad case files: each is bad input (exit 2) naming the file, the case, and
// for a queue case the op index and field; never a FAIL (exit 1), a silent narrowing or a PASS.
#include "harness/cli/check_command.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

#define EXPECT_CONTAINS(text, part)                                                           \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "missing: " << (part) << "\n" \
                                                             << (text)

struct CheckRun {
  int code;
  std::string out;
  std::string err;
};

CheckRun Check(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  WriteFileBytes(path, text);
  std::ostringstream out, err;
  const int code = RunCheck({path}, false, reference::Engine::kPlain, {}, out, err);
  return {code, out.str(), err.str()};
}

TEST(CheckCommandTest, FileWithoutCasesIsBadInput) {
  const std::pair<const char*, const char*> files[] = {
      {"empty.yaml", ""},
      {"blank.yaml", "\n  \n"},
      {"comment.yaml", "# nothing\n"},
      {"dashes.yaml", "---\n---\n"},
      {"empty.jsonl", ""},
      {"list.json", "[]"},
  };
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    CheckRun r = Check(name, text);
    EXPECT_EQ(r.code, 2);
    EXPECT_CONTAINS(r.err, "schedcheck check: " + TempPath(name) + ": no cases");
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace schedcheck::cli
