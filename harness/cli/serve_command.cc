#include "harness/cli/serve_command.h"

#include <unistd.h>

#include <iostream>
#include <memory>

#include "harness/cli/limit_option.h"
#include "harness/cli/trace_commands.h"
#include "harness/protocol/server.h"

namespace schedcheck::cli {

int RunServe(const ServeCommandOptions& options, int in_fd, int out_fd, std::ostream& err) {
  protocol::ServeOptions serve;
  if (Outcome ok = trace::ParseInputLimits(options.limits, &serve.limits); !ok) {
    err << "schedcheck serve: " << ok.message() << "\n";
    return 2;
  }
  serve.config_path = options.config;
  serve.scheduler_version = VersionString();
  return protocol::Serve(in_fd, out_fd, serve, err).ok() ? 0 : 2;
}

void AddServeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve",
                                 "Run the reference scheduler behind the external-scheduler "
                                 "protocol on stdin/stdout (PROTOCOL.md)");
  auto o = std::make_shared<ServeCommandOptions>();
  cmd->add_option("--config", o->config,
                  "KubeSchedulerConfiguration to serve with (default: the one the harness sends, "
                  "else kube-scheduler's "
                  "default profile)");
  AddLimitOption(cmd, &o->limits);
  cmd->callback([=] { *exit_code = RunServe(*o, STDIN_FILENO, STDOUT_FILENO, std::cerr); });
}

}  // namespace schedcheck::cli
