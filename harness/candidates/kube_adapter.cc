#include "harness/candidates/kube_adapter.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

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

}  // namespace

const std::vector<std::string>& KubeAdapterVersions() {
  static const std::vector<std::string> kVersions = {"1.27", "1.37"};
  return kVersions;
}

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
