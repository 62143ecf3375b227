// `schedcheck explain --cluster FILE|DIR... --pod FILE [--config FILE] [--json] [--limit
// NAME=VALUE]...`: what every plugin said about every node for one pod, the scores, the tie set
// and the outcome.
#ifndef SCHEDCHECK_HARNESS_CLI_EXPLAIN_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_EXPLAIN_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "reference/engine/engine.h"

namespace schedcheck::cli {

struct ExplainOptions {
  std::vector<std::string> cluster;
  std::string pod;
  std::string config;  // empty: the default profile
  uint64_t seed = 0;
  bool json = false;
  reference::Engine engine = reference::Engine::kPlain;  // explanations read the plain rules
  std::string compat = "1.27";                           // the level whose rules explain
  // `--limit NAME=VALUE` specs (traces/input_limits.h) for the manifests and the configuration;
  // records bounds the objects of --cluster and, separately, of --pod.
  std::vector<std::string> limits;
};

// The explanation as a JSON document (the --json output); errors name file and field.
Result<nlohmann::json> Explain(const ExplainOptions& options);
// A terminal table of that document.
void PrintExplanation(const nlohmann::json& explanation, std::ostream& out);

void AddExplainCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_EXPLAIN_COMMAND_H_
