// The command line on bad input (README.md, "Untrusted input"): every fuzz finding that reaches a
// command is run through the real binary here, which must exit 2 with a message naming the file,
// the position and the field, never crash, hang or succeed silently.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace schedcheck {
namespace {

std::string Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/" + path;
}
std::string Schedcheck() { return Runfile("harness/cli/schedcheck"); }
std::string Tmp(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name;
}
std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}
bool Exists(const std::string& path) { return std::ifstream(path).good(); }

struct CommandRun {
  int code = -1;  // the exit status; -1 when the process died of a signal
  std::string err;
};

// Runs `schedcheck ARGS` with a 60 s limit; stdout is discarded, stderr kept.
CommandRun Schedcheck(const std::string& args) {
  std::string err_path = Tmp("stderr.txt");
  std::string command = "timeout -s KILL 60 " + Schedcheck() + " " + args + " >/dev/null 2>" + err_path;
  int status = std::system(command.c_str());
  CommandRun run;
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadFile(err_path);
  return run;
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE((haystack).find(needle), std::string::npos) << "missing \"" << (needle) << "\" in: " << (haystack)

TEST(UntrustedInputTest, EmptyTraceIsAnErrorForEveryCommand) {
  for (const char* bytes : {"", "\n\n  \n"}) {
    const std::string empty = Tmp("empty.trace");
    WriteFile(empty, bytes);
    for (const std::string& args :
         {"replay " + empty, "trace convert " + empty + " " + Tmp("out.trace"), "trace info " + empty,
          "trace cat " + empty, "diff " + empty + " " + empty}) {
      SCOPED_TRACE(args);
      CommandRun run = Schedcheck(args);
      EXPECT_EQ(run.code, 2) << run.err;
      EXPECT_CONTAINS(run.err, "empty.trace");
    }
    EXPECT_FALSE(Exists(Tmp("out.trace")));
  }
  CommandRun run = Schedcheck("replay " + Tmp("empty.trace"));
  EXPECT_CONTAINS(run.err, "empty");
}

}  // namespace
}  // namespace schedcheck
