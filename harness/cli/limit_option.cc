#include "harness/cli/limit_option.h"

#include "traces/input_limits.h"

namespace schedcheck::cli {

void AddLimitOption(CLI::App* cmd, std::vector<std::string>* specs) {
  const trace::InputLimits defaults;
  cmd->add_option(
         "--limit", *specs,
         "raise an input limit, NAME=VALUE (repeatable): records (per trace or import, default " +
             std::to_string(defaults.records) + "), string-bytes (any one string, " +
             std::to_string(defaults.string_bytes) +
             "), key-bytes (a label/annotation/selector key, " +
             std::to_string(defaults.key_bytes) +
             "), map-entries (labels, annotations, ... of one object, " +
             std::to_string(defaults.map_entries) + "), yaml-depth (YAML nesting, " +
             std::to_string(defaults.yaml_depth) +
             "), yaml-alias-nodes (nodes one YAML file's aliases expand to, " +
             std::to_string(defaults.yaml_alias_nodes) + ")")
      ->allow_extra_args(false)
      ->type_name("NAME=VALUE");
}

}  // namespace schedcheck::cli
