// The prose of each command's --help that its options do not say: what the command prints, its
// exit codes, and the rules a user meets (CLI11 footers). harness/cli/COMMANDS.md is generated
// from these help texts (gen_commands_md.sh) and //harness/cli:commands_md_test keeps it so.
#ifndef SCHEDCHECK_HARNESS_CLI_HELP_TEXT_H_
#define SCHEDCHECK_HARNESS_CLI_HELP_TEXT_H_

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

// Sets the footers of `app` (schedcheck) and of its commands. REQUIRES: the commands are added.
void AddHelpFooters(CLI::App& app);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_HELP_TEXT_H_
