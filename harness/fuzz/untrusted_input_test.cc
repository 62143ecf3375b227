// The command line on bad input (harness/fuzz/README.md): every fuzz finding that reaches a
// command is run through the real binary here, which must exit 2 with a message naming the file,
// the position and the field, never crash, hang or succeed silently.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  std::string command =
      "timeout -s KILL 60 " + Schedcheck() + " " + args + " >/dev/null 2>" + err_path;
  int status = std::system(command.c_str());
  CommandRun run;
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadFile(err_path);
  return run;
}

#define EXPECT_CONTAINS(haystack, needle)               \
  EXPECT_NE((haystack).find(needle), std::string::npos) \
      << "missing \"" << (needle) << "\" in: " << (haystack)

TEST(UntrustedInputTest, EmptyTraceIsAnErrorForEveryCommand) {
  for (const char* bytes : {"", "\n\n  \n"}) {
    const std::string empty = Tmp("empty.trace");
    WriteFile(empty, bytes);
    for (const std::string& args :
         {"replay " + empty, "trace convert " + empty + " " + Tmp("out.trace"),
          "trace info " + empty, "trace cat " + empty, "diff " + empty + " " + empty}) {
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

// Workload counts are bounded (traces/importers/workloads.h kMaxWorkloadPods): absurd replicas in
// a manifest or a capture exit 2 naming the file and the field, and write nothing.
TEST(UntrustedInputTest, AbsurdWorkloadCountsExitTwoNamingTheField) {
  const std::string manifest = Tmp("absurd-replicas.yaml");
  WriteFile(manifest,
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: "
            "1000000000\n"
            "  template: {spec: {containers: [{name: c}]}}\n");
  const std::string capture = Tmp("absurd-parallelism.json");
  WriteFile(
      capture,
      R"({"type": "ADDED", "object": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},)"
      R"( "spec": {"parallelism": 1e12, "template": {"spec": {"containers": [{"name": "c"}]}}}}})");
  for (const auto& [args, field] : std::vector<std::pair<std::string, std::string>>{
           {"import --from manifests " + manifest, "field spec.replicas"},
           {"import --from watch " + capture, "field spec.parallelism"}}) {
    SCOPED_TRACE(args);
    std::remove(Tmp("absurd.trace").c_str());
    CommandRun run = Schedcheck(args + " -o " + Tmp("absurd.trace"));
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_CONTAINS(run.err, args.substr(args.rfind(' ') + 1));
    EXPECT_CONTAINS(run.err, field);
    EXPECT_CONTAINS(run.err, "kMaxWorkloadPods");
    EXPECT_FALSE(Exists(Tmp("absurd.trace")));
  }
}

// The fuzz targets' regression inputs (harness/fuzz/regressions/<target>/) through the commands
// that read them: each exits 2 naming the file, leaves no output file, and never crashes or hangs.
// An input named valid-* is one a cluster can produce that once crashed (an int64 product that
// wraps in Go, a workload slow only under ASan): it exits 0 and writes its output.
// `strip_selector`: the target's first byte chooses the file type (ext[byte % ext.size()]).
struct Through {
  const char* target;
  std::vector<std::string> ext;
  bool strip_selector;
  std::string command;  // INPUT and OUT are replaced
};

TEST(UntrustedInputTest, EveryRegressionInputIsABadInputErrorOrValid) {
  const std::vector<Through> commands = {
      {"scheduler_config_fuzzer",
       {".yaml"},
       false,
       "replay " + Runfile("traces/corpus/unblock.jsonl") + " --config INPUT -o OUT"},
      {"case_file_fuzzer", {".json", ".jsonl", ".yaml"}, true, "check INPUT"},
      {"manifests_fuzzer", {".yaml", ".json"}, true, "import --from manifests INPUT -o OUT"},
      {"dra_fuzzer", {".yaml", ".json"}, true, "import --from manifests INPUT -o OUT"},
      {"pod_group_fuzzer", {".yaml", ".json"}, true, "import --from manifests INPUT -o OUT"},
      {"watch_fuzzer", {".json"}, false, "import --from watch INPUT -o OUT"},
      {"kss_fuzzer", {".jsonl"}, false, "import --from kss INPUT -o OUT"},
      {"audit_fuzzer", {".jsonl"}, false, "import --from audit INPUT -o OUT"},
      {"trace_jsonl_fuzzer", {".jsonl"}, false, "replay INPUT -o OUT"},
      {"replay_fuzzer", {".jsonl"}, false, "replay INPUT -o OUT"},
  };
  int ran = 0;
  for (const Through& t : commands) {
    std::string dir = Runfile("harness/fuzz/regressions/") + t.target;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string bytes = ReadFile(entry.path().string());
      if (bytes.empty() && t.strip_selector) continue;
      std::string ext =
          t.ext[t.strip_selector ? static_cast<unsigned char>(bytes[0]) % t.ext.size() : 0];
      std::string input = Tmp(entry.path().filename().string() + ext);
      WriteFile(input, t.strip_selector ? bytes.substr(1) : bytes);
      std::string out = Tmp("out.trace");
      std::remove(out.c_str());
      std::string command = t.command;
      command.replace(command.find("INPUT"), 5, input);
      if (size_t at = command.find("OUT"); at != std::string::npos) command.replace(at, 3, out);
      SCOPED_TRACE(std::string(t.target) + "/" + entry.path().filename().string() +
                   ": schedcheck " + command);
      CommandRun run = Schedcheck(command);
      if (entry.path().filename().string().rfind("valid-", 0) == 0) {
        EXPECT_EQ(run.code, 0) << run.err;
        if (t.command.find("OUT") != std::string::npos) {
          EXPECT_TRUE(Exists(out));
        }
        ++ran;
        continue;
      }
      EXPECT_EQ(run.code, 2) << run.err;
      EXPECT_CONTAINS(run.err, entry.path().filename().string());
      EXPECT_FALSE(Exists(out));
      ++ran;
    }
  }
  EXPECT_GT(ran, 0);
}

TEST(UntrustedInputTest, YamlLimitsNameTheLimit) {
  const std::string trace = Runfile("traces/corpus/unblock.jsonl");
  struct Case {
    const char* file;
    const char* message;
  };
  for (const Case& c :
       {Case{"lone-comma", "made no progress"}, Case{"billion-laughs", "yaml-alias-nodes=1000000"},
        Case{"deep-nesting", "yaml-depth=100"}}) {
    std::string input = Tmp(std::string(c.file) + ".yaml");
    WriteFile(input,
              ReadFile(Runfile("harness/fuzz/regressions/scheduler_config_fuzzer/") + c.file));
    CommandRun run = Schedcheck("replay " + trace + " --config " + input);
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_CONTAINS(run.err, c.message);
  }
}

TEST(UntrustedInputTest, TimesOutsideInt64NanosecondsAreErrors) {
  const std::string input = Tmp("far.json");
  WriteFile(input,
            "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{"
            "\"name\":\"n\","
            "\"creationTimestamp\":\"1000-01-01T00:00:00Z\"}}}\n");
  CommandRun run = Schedcheck("import --from watch " + input + " -o " + Tmp("far.trace"));
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_CONTAINS(run.err, "outside the years 1678-2261");

  const std::string trace = Tmp("span.jsonl");
  WriteFile(trace,
            "{\"timeNs\":\"-9223372036854775807\",\"api\":{\"type\":\"ADDED\",\"node\":{"
            "\"metadata\":{\"name\":\"a\"}}}}\n"
            "{\"timeNs\":\"9223372036854775807\",\"api\":{\"type\":\"ADDED\",\"node\":{"
            "\"metadata\":{\"name\":\"b\"}}}}\n");
  run = Schedcheck("replay " + trace);
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_CONTAINS(run.err, "100 years");
}

}  // namespace
}  // namespace schedcheck
