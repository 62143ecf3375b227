// Nothing lost (harness/fuzz/README.md): the real `schedcheck replay -o/--jsonl` and `import
// -o`, and a TraceWriter in recorder mode, are killed with SIGKILL at seeded random moments. After
// each kill, an output path holds either nothing or the complete output (byte for byte what an
// uninterrupted run writes), and a leftover temporary file ("<out>.tmp.<pid>") or a recorder's file
// holds a prefix of it: every complete frame (or JSON line) reads back and equals the uninterrupted
// run's, the cut reported as truncation, never as corruption.
//
// Delays are wall-clock (this is about real processes dying), drawn from one seeded generator: the
// seed is printed first; rerun with
//   bazel test //harness/cli:sigkill_test --test_env=SCHEDCHECK_KILL_SEED=<seed> --test_output=all
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "traces/sample_trace.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck {
namespace {

namespace fs = std::filesystem;
using trace::testing::ReadFileBytes;
using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

constexpr int kKills = 20;  // per command

std::string Runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/" + path;
}

// splitmix64: our own generator, so a seed means the same delays everywhere.
struct Rng {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double Uniform() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }
};

uint64_t Seed() {
  static const uint64_t seed = [] {
    const char* env = std::getenv("SCHEDCHECK_KILL_SEED");
    uint64_t s = env ? std::strtoull(env, nullptr, 10) : 20261125;
    std::printf(
        "seed=%llu (reproduce: bazel test //harness/cli:sigkill_test "
        "--test_env=SCHEDCHECK_KILL_SEED=%llu "
        "--test_output=all)\n",
        static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
    std::fflush(stdout);  // before any fork, or each child would print it again
    return s;
  }();
  return seed;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Sleep(double seconds) {
  timespec ts{static_cast<time_t>(seconds),
              static_cast<long>((seconds - static_cast<time_t>(seconds)) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

pid_t Spawn(const std::vector<std::string>& args) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

// Runs to completion; the wall time in seconds.
double RunToEnd(const std::vector<std::string>& args) {
  const double start = Now();
  int status = 0;
  waitpid(Spawn(args), &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << args[1];
  return Now() - start;
}

// The records of a binary trace file up to its first damage; *truncated tells a cut from the end.
std::vector<trace::Record> ReadPrefix(const std::string& path, std::string* damage) {
  std::vector<trace::Record> out;
  auto reader = trace::TraceReader::Open(path);
  if (!reader.ok()) {
    *damage = reader.message();
    return out;
  }
  trace::Record r;
  trace::ReadStatus s;
  while ((s = reader->Next(&r)) == trace::ReadStatus::kRecord) out.push_back(r);
  *damage = s == trace::ReadStatus::kEnd
                ? ""
                : trace::DamageKindName(reader->damage()) + std::string(": ") + reader->error();
  return out;
}

bool IsPrefix(const std::vector<trace::Record>& part, const std::vector<trace::Record>& whole) {
  if (part.size() > whole.size()) return false;
  return trace::testing::SameRecords(
      part, std::vector<trace::Record>(whole.begin(), whole.begin() + part.size()));
}

// Checks one output after a kill against the uninterrupted run's bytes (`want`), then removes it
// and its temporary files. Counts what it found in *seen.
void CheckOutput(const std::string& path, const std::string& want, bool binary,
                 std::map<std::string, int>* seen) {
  if (fs::exists(path)) {
    EXPECT_EQ(ReadFileBytes(path), want) << path << ": present but not the complete output";
    ++(*seen)["complete"];
    fs::remove(path);
  } else {
    ++(*seen)["absent"];
  }
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    ++(*seen)["temporary file left"];
    const std::string tmp = entry.path().string();
    if (binary) {
      std::string damage, want_damage;
      std::vector<trace::Record> got = ReadPrefix(tmp, &damage);
      WriteFileBytes(TempPath("want.bin"), want);
      std::vector<trace::Record> all = ReadPrefix(TempPath("want.bin"), &want_damage);
      // A cut inside the 16-byte prefix or the header is a truncated header; otherwise frames.
      EXPECT_TRUE(damage.empty() || damage.rfind("truncated", 0) == 0 ||
                  damage.find(": truncated file header") != std::string::npos)
          << tmp << ": " << damage;
      EXPECT_TRUE(IsPrefix(got, all))
          << tmp << ": " << got.size() << " records are not a prefix of the output";
    } else {
      // JSON Lines: every complete line is the uninterrupted run's line.
      const std::string got = ReadFileBytes(tmp);
      const std::string complete = got.substr(0, got.rfind('\n') + 1);
      EXPECT_EQ(want.substr(0, complete.size()), complete) << tmp;
    }
    fs::remove(entry.path());
  }
}

void Print(const std::string& what, const std::map<std::string, int>& seen) {
  std::printf("%s:", what.c_str());
  for (const auto& [k, n] : seen) std::printf(" %s %d;", k.c_str(), n);
  std::printf("\n");
}

// Kills `args` kKills times at delays in [0, 1.1 x its uninterrupted time] (half of them in the
// last quarter, where the outputs are written), checking `outputs` (path -> binary?) after each.
void KillRepeatedly(const std::string& name, uint64_t salt, const std::vector<std::string>& args,
                    const std::map<std::string, bool>& outputs) {
  SCOPED_TRACE(name + ", seed " + std::to_string(Seed()));
  for (const auto& [path, binary] : outputs) fs::remove(path);
  const double full = RunToEnd(args);
  std::map<std::string, std::string> want;
  for (const auto& [path, binary] : outputs) {
    want[path] = ReadFileBytes(path);
    ASSERT_FALSE(want[path].empty()) << path;
    fs::remove(path);
  }
  Rng rng{Seed() ^ salt};
  std::map<std::string, int> seen;
  for (int i = 0; i < kKills; ++i) {
    const double delay =
        i % 2 == 0 ? rng.Uniform() * 1.1 * full : (0.75 + rng.Uniform() * 0.35) * full;
    SCOPED_TRACE("kill " + std::to_string(i) + " after " + std::to_string(delay) + " s");
    const pid_t pid = Spawn(args);
    Sleep(delay);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ++seen[WIFSIGNALED(status) ? "killed" : "finished first"];
    for (const auto& [path, binary] : outputs) CheckOutput(path, want.at(path), binary, &seen);
  }
  Print(name + " (uninterrupted " + std::to_string(full) + " s)", seen);
}

TEST(SigkillTest, ReplayOutputsAreAbsentCompleteOrAReadablePrefix) {
  const std::string schedcheck = Runfile("harness/cli/schedcheck");
  const std::string trace = TempPath("kill-input.trace");
  RunToEnd({schedcheck, "generate", "--shape", "SchedulingBasic", "--nodes", "300", "--initial",
            "0", "--measured", "1500", "--seed", "1", "-o", trace});
  const std::string out = TempPath("kill-replay.trace"), jsonl = TempPath("kill-replay.jsonl");
  KillRepeatedly("replay -o --jsonl", 1,
                 {schedcheck, "replay", trace, "-q", "--no-progress", "-o", out, "--jsonl", jsonl},
                 {{out, true}, {jsonl, false}});
}

TEST(SigkillTest, ImportOutputIsAbsentCompleteOrAReadablePrefix) {
  const std::string schedcheck = Runfile("harness/cli/schedcheck");
  const std::string input = TempPath("kill-cluster.jsonl");
  std::string text;
  for (int i = 0; i < 50; ++i) {
    text += R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n)" + std::to_string(i) +
            R"("},"status":{"allocatable":{"cpu":"32","memory":"64Gi","pods":"110"}}})"
            "\n";
  }
  for (int i = 0; i < 6000; ++i) {
    text += R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p)" + std::to_string(i) +
            R"(","namespace":"default","labels":{"app":"a)" + std::to_string(i % 7) +
            R"("}},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]}})"
            "\n";
  }
  WriteFileBytes(input, text);
  const std::string out = TempPath("kill-import.trace");
  KillRepeatedly("import -o", 2,
                 {schedcheck, "import", "--from", "manifests", input, "-o", out, "-q"},
                 {{out, true}});
}

// A recorder (TraceWriter kRecorder) writes its target directly, a frame every 50 records: killed
// at any moment, the target's complete frames read back, in order, and the cut is a truncation.
TEST(SigkillTest, RecorderKeepsEveryCompleteFrame) {
  const std::string path = TempPath("kill-recorder.trace");
  std::vector<trace::Record> written;
  for (int i = 0; i < 200000; ++i) {
    written.push_back(trace::ApiRecord(
        i, trace::ADDED, trace::MakePod("default", "p" + std::to_string(i), "1", "1Gi")));
  }
  Rng rng{Seed() ^ 3};
  std::map<std::string, int> seen;
  for (int i = 0; i < kKills; ++i) {
    const double delay = 0.01 + rng.Uniform() * 0.5;
    SCOPED_TRACE("kill " + std::to_string(i) + " after " + std::to_string(delay) + " s, seed " +
                 std::to_string(Seed()));
    fs::remove(path);
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
      trace::Header header;
      header.set_producer("sigkill_test recorder");
      auto writer = trace::TraceWriter::Open(
          path, header, {.mode = trace::WriterOptions::Mode::kRecorder, .events_per_frame = 50});
      if (!writer.ok()) _exit(3);
      for (const trace::Record& r : written) {
        if (!(*writer)->Append(r).ok()) _exit(4);
      }
      _exit(0);  // no Finish: a recorder may also stop this way
    }
    Sleep(delay);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    ++seen[WIFSIGNALED(status) ? "killed" : "finished first"];
    if (!fs::exists(path)) {
      ++seen["absent"];
      continue;
    }
    std::string damage;
    std::vector<trace::Record> got = ReadPrefix(path, &damage);
    EXPECT_TRUE(damage.empty() || damage.rfind("truncated", 0) == 0 ||
                damage.find("truncated file header") != std::string::npos)
        << damage;
    EXPECT_EQ(got.size() % 50 == 0 || got.size() == written.size(), true)
        << got.size() << " records: not whole frames";
    EXPECT_TRUE(IsPrefix(got, written));
    ++seen[got.empty() ? "no complete frame" : "frames read back"];
  }
  Print("recorder", seen);
}

}  // namespace
}  // namespace schedcheck
