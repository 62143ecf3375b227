// `--feature-gates A=true,B=false`: kube-scheduler's flag, for the runs of a command at compat
// 1.37 (reference/base/feature_gates.h says which gates and values the reference models).
#ifndef SCHEDCHECK_HARNESS_CLI_FEATURE_GATES_OPTION_H_
#define SCHEDCHECK_HARNESS_CLI_FEATURE_GATES_OPTION_H_

#include <CLI/CLI.hpp>

#include "reference/base/feature_gates.h"

namespace schedcheck::cli {

// Adds --feature-gates to `cmd`, parsed into `*gates` (a malformed value is a usage error, exit
// 2, naming the entry). Whether the level takes them is checked where the level is known
// (CheckFeatureGates).
void AddFeatureGatesOption(CLI::App* cmd, reference::FeatureGates* gates);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_FEATURE_GATES_OPTION_H_
