#include "harness/cli/engine_option.h"

namespace schedcheck::cli {

void AddEngineOption(CLI::App* cmd, reference::Engine* engine, const std::string& scope) {
  const std::string default_name(reference::EngineName(*engine));
  cmd->add_option_function<std::string>(
         "--engine",
         [engine](const std::string& name) {
           // The validator below admits only the two names.
           *engine = reference::ParseEngine(name).value_or(reference::Engine::kFast);
         },
         "plain (the rules as upstream's functions) or fast (the accelerator proved equal to "
         "them); "
         "same decisions; default " +
             default_name + (scope.empty() ? "" : "; " + scope))
      ->check(CLI::IsMember({"plain", "fast"}));
}

}  // namespace schedcheck::cli
