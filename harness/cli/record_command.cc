#include "harness/cli/record_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

namespace schedcheck::cli {
namespace fs = std::filesystem;

namespace {

struct RecordOptions {
  std::string kubeconfig;
  std::string out;
  std::string duration;
  std::string keep_annotations;
};

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

int Run(const RecordOptions& o) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<std::string> runfiles;
  for (const char* var : {"RUNFILES_DIR", "TEST_SRCDIR"}) {
    if (!Env(var).empty()) runfiles.push_back(Env(var));
  }
  if (!ec) runfiles.push_back(exe.string() + ".runfiles");
  const auto candidates =
      RecorderCandidates(ec ? "" : exe.string(), Env("SCHEDCHECK_RECORDER"), runfiles);
  std::string recorder, looked;
  for (const std::string& path : candidates) {
    if (access(path.c_str(), X_OK) == 0) {
      recorder = path;
      break;
    }
    looked += (looked.empty() ? "" : ", ") + path;
  }
  if (recorder.empty()) {
    std::cerr << "schedcheck record: no recorder found (looked at " << looked
              << "); build it with `bazel build //harness/kube:recorder`, or name it in "
                 "SCHEDCHECK_RECORDER\n";
    return 2;
  }
  std::vector<std::string> args = {recorder, "--kubeconfig", o.kubeconfig, "--out", o.out};
  if (!o.duration.empty()) args.insert(args.end(), {"--duration", o.duration});
  if (!o.keep_annotations.empty()) {
    args.insert(args.end(), {"--keep-annotations", o.keep_annotations});
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(recorder.c_str(), argv.data());
  std::cerr << "schedcheck record: running " << recorder << ": " << std::strerror(errno) << "\n";
  return 2;
}

}  // namespace

std::vector<std::string> RecorderCandidates(const std::string& executable,
                                            const std::string& env_recorder,
                                            const std::vector<std::string>& runfiles_dirs) {
  if (!env_recorder.empty()) return {env_recorder};
  std::vector<std::string> out;
  if (!executable.empty()) {
    out.push_back(
        (fs::path(executable).parent_path().parent_path() / "kube" / "recorder").string());
  }
  for (const std::string& dir : runfiles_dirs) {
    out.push_back((fs::path(dir) / "schedcheck/harness/kube/recorder").string());
  }
  return out;
}

void AddRecordCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "record", "Capture a live cluster through a kubeconfig, for import --from watch");
  auto o = std::make_shared<RecordOptions>();
  cmd->add_option("--kubeconfig", o->kubeconfig, "kubeconfig of the cluster to record")->required();
  cmd->add_option("--out", o->out, "capture file (written as OUT.partial, renamed at the end)")
      ->required();
  cmd->add_option("--duration", o->duration,
                  "stop after this long, as Go writes durations (10m, 90s; default: until "
                  "SIGINT or SIGTERM)");
  cmd->add_option("--keep-annotations", o->keep_annotations,
                  "comma-separated annotation keys to keep (exact)");
  cmd->callback([=] { *exit_code = Run(*o); });
}

}  // namespace schedcheck::cli
