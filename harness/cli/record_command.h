// `schedcheck record --kubeconfig K --out F [--duration D] [--keep-annotations K,...]`: captures
// a live cluster in the watch format `import --from watch` reads, by running the recorder
// (harness/kube/recorder/README.md), a Go program built by `bazel build //harness/kube:recorder`.
// schedcheck replaces itself with the recorder, so SIGINT and SIGTERM stop the recording.
#ifndef SCHEDCHECK_HARNESS_CLI_RECORD_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_RECORD_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

// Where the recorder is looked for, in order: $SCHEDCHECK_RECORDER; beside this executable as
// Bazel lays them out (bazel-bin/harness/cli/schedcheck → bazel-bin/harness/kube/recorder);
// the runfiles trees ($RUNFILES_DIR, $TEST_SRCDIR, the executable's .runfiles).
std::vector<std::string> RecorderCandidates(const std::string& executable,
                                            const std::string& env_recorder,
                                            const std::vector<std::string>& runfiles_dirs);

void AddRecordCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_RECORD_COMMAND_H_
