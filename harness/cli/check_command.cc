#include "harness/cli/check_command.h"

#include <memory>

#include "harness/check/runner.h"
#include "harness/cli/engine_option.h"
#include "harness/cli/limit_option.h"
#include "traces/input_limits.h"

namespace schedcheck::cli {

int RunCheck(const std::vector<std::string>& paths, bool json, reference::Engine engine,
             const std::vector<std::string>& limit_specs, std::ostream& out, std::ostream& err) {
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(limit_specs, &limits); !ok) {
    err << "schedcheck check: " << ok.message() << "\n";
    return 2;
  }
  auto cases = check::LoadCases(paths, limits);
  if (!cases.ok()) {
    err << "schedcheck check: " << cases.message() << "\n";
    return 2;
  }
  int passed = 0, failed = 0, skipped = 0;
  for (const check::Case& c : *cases) {
    check::CaseResult r = check::RunCase(c, engine);
    switch (r.verdict) {
      case check::CaseResult::Verdict::kPass:
        ++passed;
        break;
      case check::CaseResult::Verdict::kFail:
        ++failed;
        break;
      case check::CaseResult::Verdict::kSkip:
        ++skipped;
        break;
      case check::CaseResult::Verdict::kBadInput:
        // A malformed case stops the run as a malformed file does: exit 2, naming the field.
        err << "schedcheck check: " << c.location << " (case " << c.id << "): " << r.detail << "\n";
        return 2;
    }
    out << (json ? check::ResultJson(c, r).dump() : check::FormatResultLine(c, r)) << "\n";
  }
  if (!json) {
    out << passed << " passed, " << failed << " failed";
    if (skipped > 0) out << ", " << skipped << " skipped";
    out << "\n";
  }
  return failed > 0 ? 1 : 0;
}

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "check", "Run conformance case files (JSON, JSON Lines, YAML) against the reference");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto engine = std::make_shared<reference::Engine>(reference::Engine::kPlain);
  cmd->add_option("paths", *paths, "case files or directories (searched recursively)")->required();
  cmd->add_flag("--json", *json, "print one JSON result object per case instead of text");
  AddEngineOption(cmd, engine.get());
  auto limits = std::make_shared<std::vector<std::string>>();
  AddLimitOption(cmd, limits.get());
  cmd->callback(
      [=] { *exit_code = RunCheck(*paths, *json, *engine, *limits, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
