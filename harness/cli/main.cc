// The schedcheck command line: subcommands are registered by their own files.
#include <CLI/CLI.hpp>

#include <iostream>

#include "harness/cli/campaign_command.h"
#include "harness/cli/check_command.h"
#include "harness/cli/diff_command.h"
#include "harness/cli/explain_command.h"
#include "harness/cli/gate_command.h"
#include "harness/cli/generate_command.h"
#include "harness/cli/help_text.h"
#include "harness/cli/import_command.h"
#include "harness/cli/minimize_command.h"
#include "harness/cli/record_command.h"
#include "harness/cli/replay_command.h"
#include "harness/cli/report_command.h"
#include "harness/cli/serve_command.h"
#include "harness/cli/trace_commands.h"

int main(int argc, char** argv) {
  CLI::App app{"schedcheck: conformance and replay harness for Kubernetes schedulers"};
  app.require_subcommand(1);
  int exit_code = 0;
  schedcheck::cli::AddVersionCommand(app, &exit_code);
  schedcheck::cli::AddTraceCommands(app, &exit_code);
  schedcheck::cli::AddCheckCommand(app, &exit_code);
  schedcheck::cli::AddExplainCommand(app, &exit_code);
  schedcheck::cli::AddReplayCommand(app, &exit_code);
  schedcheck::cli::AddServeCommand(app, &exit_code);
  schedcheck::cli::AddDiffCommand(app, &exit_code);
  schedcheck::cli::AddGateCommand(app, &exit_code);
  schedcheck::cli::AddGenerateCommand(app, &exit_code);
  schedcheck::cli::AddImportCommand(app, &exit_code);
  schedcheck::cli::AddRecordCommand(app, &exit_code);
  schedcheck::cli::AddReportCommand(app, &exit_code);
  schedcheck::cli::AddMinimizeCommand(app, &exit_code);
  schedcheck::cli::AddCampaignCommand(app, &exit_code);
  schedcheck::cli::AddHelpFooters(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // --help exits 0; usage errors are bad input
  }
  return exit_code;
}
