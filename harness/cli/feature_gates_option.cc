#include "harness/cli/feature_gates_option.h"

#include <string>

namespace schedcheck::cli {

void AddFeatureGatesOption(CLI::App* cmd, reference::FeatureGates* gates) {
  cmd->add_option_function<std::string>(
      "--feature-gates",
      [gates](const std::string& text) {
        auto parsed = reference::ParseFeatureGates(text);
        if (!parsed.ok()) throw CLI::ValidationError("--feature-gates", parsed.message());
        *gates = std::move(*parsed);
      },
      "feature gates as kube-scheduler's flag, e.g. OpportunisticBatching=false (compat 1.37 "
      "only; gates the reference does not model are refused unless at their defaults)");
}

}  // namespace schedcheck::cli
