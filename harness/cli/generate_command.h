// `schedcheck generate`: writes a generated workload (harness/workloads) as a trace.
//
//   schedcheck generate --shape NAME [--nodes N] [--initial N] [--measured N] [--seed S] -o OUT
//                       [--config-out FILE]
//   schedcheck generate --list
//
// OUT ending in .jsonl gets the JSON Lines form of `trace cat`, anything else the binary format;
// both are written atomically. The header label `generator` holds the command line (canonical
// form, every parameter spelled out) that reproduces the file. Sizes default to the shape's.
// --config-out writes the KubeSchedulerConfiguration the shape needs (e.g. CreationDelay).
// Exit codes: 0 success, 2 bad parameters or I/O failure (message on stderr).
#ifndef SCHEDCHECK_HARNESS_CLI_GENERATE_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_GENERATE_COMMAND_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "CLI/CLI.hpp"

namespace schedcheck::cli {

struct GenerateOptions {
  std::string shape;
  std::optional<int64_t> nodes;
  std::optional<int64_t> initial;
  std::optional<int64_t> measured;
  uint64_t seed = 1;
  std::string output;
  std::string config_output;
  bool list = false;
};

int RunGenerate(const GenerateOptions& options, std::ostream& out, std::ostream& err);
void AddGenerateCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_GENERATE_COMMAND_H_
