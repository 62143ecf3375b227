// `--engine plain|fast`: which form of the reference makes the decisions of a whole run — the
// plain rules (reference/plugins, reference/scheduler) or the accelerator proved equal to them
// (reference/accel). Decisions are the same; the plain engine is slower and easier to follow.
#ifndef SCHEDCHECK_HARNESS_CLI_ENGINE_OPTION_H_
#define SCHEDCHECK_HARNESS_CLI_ENGINE_OPTION_H_

#include <string>

#include <CLI/CLI.hpp>

#include "reference/engine/engine.h"

namespace schedcheck::cli {

// Adds --engine to `cmd`, storing into `*engine`, whose value on entry is the default. `scope`,
// when given, ends the help text: which runs of the command the engine decides.
void AddEngineOption(CLI::App* cmd, reference::Engine* engine, const std::string& scope = "");

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_ENGINE_OPTION_H_
