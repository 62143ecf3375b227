// `schedcheck import --from manifests|watch|kss|openb INPUT... -o OUT.trace`
// (docs/FORMATS.md#commands-and-exit-codes):
// reads captures into a trace, redacted to the scheduling-relevant fields by default
// (traces/importers/README.md). Warnings (skipped kinds, out-of-order events, unknown nodes) go to
// stderr; the counts of what was dropped go into the header labels that `trace info` prints.
#ifndef SCHEDCHECK_HARNESS_CLI_IMPORT_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_IMPORT_COMMAND_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct ImportCommandOptions {
  std::string format;
  std::vector<std::string> inputs;
  std::string output;
  std::vector<std::string> keep_annotations;
  std::string start_time;      // RFC 3339; empty = the format's default
  bool keep_bindings = false;  // watch / kss: keep the capture's nodeName changes in the API events
  bool arrival_only = false;
  std::optional<uint64_t> shuffle_seed;
  std::optional<double> target_gpu_share;
  bool quiet = false;
  std::vector<std::string> limits;  // --limit NAME=VALUE (traces/input_limits.h)
  std::string compat;  // --compat: the trace's level ("": the capture's server version, else 1.27)
};

// Exit status: 0 on success, 2 on bad input or options (nothing is written then).
int RunImport(const ImportCommandOptions& options, std::ostream& out, std::ostream& err);

void AddImportCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_IMPORT_COMMAND_H_
