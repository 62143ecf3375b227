#include "harness/candidates/kube_adapter.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>

namespace schedcheck::candidates {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// A regular file this process may execute (a directory or a stale non-executable output is not).
bool IsExecutable(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// The patch each adapter target pins (harness/kube/v<minor>/go.mod). CI builds the targets of
// 1.27 and 1.37 only; those of 1.35 and 1.36 are `manual`, so kube:<minor> builds the pinned patch
// on first use when Bazel's adapter is not there.
struct Pinned {
  const char* minor;
  const char* patch;
  bool first_use;
};
constexpr Pinned kPinned[] = {{"1.27", "1.27.8", false},
                              {"1.35", "1.35.4", true},
                              {"1.36", "1.36.4", true},
                              {"1.37", "1.37.2", false}};

std::string Joined(const std::vector<std::string>& items, const std::string& prefix) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + prefix + item;
  return out;
}

}  // namespace

const std::vector<std::string>& KubeAdapterVersions() {
  static const std::vector<std::string> kVersions = {"1.27", "1.35", "1.36", "1.37"};
  return kVersions;
}

const std::vector<std::string>& KubeBridgeMinors() {
  static const std::vector<std::string> kMinors = {"1.27", "1.35", "1.36", "1.37"};
  return kMinors;
}

Result<KubeVersion> ParseKubeVersion(const std::string& version) {
  KubeVersion v{.text = version, .pinned = "", .patch = "", .first_use = ""};
  static const std::regex kPatch("(1\\.[0-9]+)\\.[0-9]+");
  std::smatch m;
  if (std::regex_match(version, m, kPatch)) {
    const std::string minor = m[1].str();
    const auto& minors = KubeBridgeMinors();
    if (std::find(minors.begin(), minors.end(), minor) == minors.end()) {
      return Error{"no bridge for minor " + minor + " (supported minors: " + Joined(minors, "") +
                   ")"};
    }
    v.patch = version;
    for (const Pinned& p : kPinned) {
      if (version == p.patch) v.pinned = p.minor;
    }
    return v;
  }
  for (const Pinned& p : kPinned) {
    if (version == p.minor) {
      v.pinned = p.minor;
      if (p.first_use) v.first_use = p.patch;
      return v;
    }
  }
  return Error{"unknown kube-scheduler version \"" + version +
               "\" (known: " + Joined(KubeAdapterVersions(), "kube:") +
               ", or a patch release kube:X.Y.Z of a minor with a bridge: " +
               Joined(KubeBridgeMinors(), "") + ")"};
}

namespace {

// The build script named by $SCHEDCHECK_KUBE_SOURCES, else the first of the runfiles trees.
std::string FindBuildScript(const std::vector<std::string>& runfiles_dirs) {
  std::vector<std::string> places;
  if (!Env("SCHEDCHECK_KUBE_SOURCES").empty()) {
    places.push_back(Env("SCHEDCHECK_KUBE_SOURCES") + "/build.sh");
  } else {
    for (const std::string& dir : runfiles_dirs) {
      places.push_back(dir + "/schedcheck/harness/kube/build.sh");
    }
  }
  for (const std::string& place : places) {
    std::error_code ec;
    fs::path real = fs::canonical(place, ec);
    if (!ec && fs::is_regular_file(real, ec)) return real.string();
  }
  return "";
}

}  // namespace

AdapterSearch AdapterSearch::FromEnvironment() {
  AdapterSearch s;
  s.adapter_dir = Env("SCHEDCHECK_KUBE_ADAPTER_DIR");
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) s.executable = exe.string();
  for (const char* var : {"RUNFILES_DIR", "TEST_SRCDIR"}) {
    if (!Env(var).empty()) s.runfiles_dirs.push_back(Env(var));
  }
  // A binary started outside `bazel run` / `bazel test` still has its runfiles tree beside it.
  if (!s.executable.empty()) s.runfiles_dirs.push_back(s.executable + ".runfiles");
  s.build_script = FindBuildScript(s.runfiles_dirs);
  return s;
}

Result<std::string> FindKubeAdapter(const std::string& version, const AdapterSearch& search) {
  const std::string file = "kube-adapter-" + version;
  std::vector<std::string> candidates;
  if (!search.adapter_dir.empty()) {
    candidates.push_back((fs::path(search.adapter_dir) / file).string());
  } else {
    if (!search.executable.empty()) {
      candidates.push_back(
          (fs::path(search.executable).parent_path().parent_path() / "kube" / file).string());
    }
    for (const std::string& dir : search.runfiles_dirs) {
      candidates.push_back((fs::path(dir) / "schedcheck/harness/kube" / file).string());
    }
  }
  std::string looked;
  for (const std::string& path : candidates) {
    if (IsExecutable(path)) return path;
    looked += (looked.empty() ? "" : ", ") + path;
  }
  if (!search.adapter_dir.empty()) looked += " (from SCHEDCHECK_KUBE_ADAPTER_DIR)";
  return Error{
      "kube:" + version + ": the adapter executable was not found (looked in " +
      (looked.empty() ? std::string("no place: no executable path, no runfiles") : looked) +
      "); build it with: bazel build //harness/kube:kube-adapter-" + version};
}

namespace {

// Runs `build.sh ARGS --cache` for `spec`: stdout carries the adapter's path, or the reason the
// build cannot be made; stderr (the progress lines, Go's own messages) goes to ours.
Result<std::string> RunBuildScript(const std::string& spec, const std::string& args,
                                   const AdapterSearch& search) {
  if (search.build_script.empty()) {
    return Error{spec +
                 ": harness/kube/build.sh was not found (neither in $SCHEDCHECK_KUBE_SOURCES " +
                 "nor in schedcheck's runfiles); set SCHEDCHECK_KUBE_SOURCES to the harness/kube " +
                 "folder of a schedcheck checkout"};
  }
  const std::string command = "bash " + ShellQuote(search.build_script) + " " + args + " --cache";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return Error{spec + ": cannot run " + search.build_script};
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0 && IsExecutable(out)) return out;
  if (code == 2 && !out.empty()) return Error{spec + ": " + out};
  return Error{spec + ": building the adapter failed (" + search.build_script + " exited " +
               std::to_string(code) + "; its messages are above)" +
               (out.empty() ? "" : ": " + out)};
}

}  // namespace

Result<std::string> BuildKubeAdapter(const KubeVersion& version, const AdapterSearch& search) {
  return RunBuildScript("kube:" + version.text, "--kube " + ShellQuote(version.patch), search);
}

Result<std::string> BuildKubeSrcAdapter(const std::string& dir, const AdapterSearch& search) {
  const std::string spec = "kube-src:" + dir;
  if (dir.empty()) return Error{"kube-src: want kube-src:DIR, a kubernetes checkout"};
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Error{spec + ": not a directory (want the top of a kubernetes checkout)"};
  }
  return RunBuildScript(spec, "--kube-src " + ShellQuote(dir), search);
}

void RouteKubeLogsToFile() {
  if (std::getenv("SCHEDCHECK_KUBE_LOG") != nullptr) return;
  const std::string dir = Env("TMPDIR").empty() ? "/tmp" : Env("TMPDIR");
  const std::string path = dir + "/schedcheck-kube-" + std::to_string(::getpid()) + ".log";
  ::setenv("SCHEDCHECK_KUBE_LOG", path.c_str(), 0);
  std::cerr << "kube-scheduler's own log (warnings, errors): " << path
            << " (SCHEDCHECK_KUBE_LOG=stderr shows it here)" << std::endl;
}

std::string ShellQuote(const std::string& path) {
  std::string out = "'";
  for (char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace schedcheck::candidates
